#include "harness/stress/stress_run.hpp"

#include <cublas_v2.h>
#include <cuda_bf16.h>
#include <cuda_runtime.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <mutex>
#include <random>
#include <stdexcept>
#include <thread>

#include "benchmarks/common/nvml_library.hpp"
#include "harness/runner/telemetry_sampler.hpp"
#include "kernels/memtest.cuh"
#include "kernels/random_fill.cuh"
#include "kernels/verify.cuh"

namespace gpubench {
namespace {

using Clock = std::chrono::steady_clock;

// 8192^3 BF16 is large enough to keep every Tensor Core busy at full power, and its operands (128 MiB each)
// leave most of the memory to the memory test.
constexpr int kGemmSize = 8192;
constexpr int kReferenceSamples = 64;
constexpr int kGemmsPerCheck = 8;

void cuda_check(cudaError_t status, const char* what) {
  if (status != cudaSuccess) throw std::runtime_error(std::string(what) + ": " + cudaGetErrorString(status));
}

void cublas_check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(std::string(what) + ": " + cublasGetStatusString(status));
}

std::string hex(unsigned long long value) {
  char text[32];
  std::snprintf(text, sizeof text, "0x%016llx", value);
  return text;
}

// One pass of a memory pattern over `count` words, checked; `inject` flips bit 17 of the middle word after it is
// written (the test-only fault, once per pattern), for the pass's sweeps to find.
kernels::MemtestErrors memtest_pass(std::uint64_t* words, std::size_t count, kernels::MemtestPattern pattern,
                                    std::uint64_t seed, bool inject, kernels::MemtestErrors* errors, cudaStream_t stream) {
  const kernels::MemtestErrors none{};
  cuda_check(cudaMemcpyAsync(errors, &none, sizeof none, cudaMemcpyHostToDevice, stream), "memtest init");
  cuda_check(kernels::memtest_write(words, count, pattern, seed, stream), "memtest write");
  if (inject) {
    std::uint64_t word = 0;
    cuda_check(cudaMemcpyAsync(&word, words + count / 2, 8, cudaMemcpyDeviceToHost, stream), "inject");
    cuda_check(cudaStreamSynchronize(stream), "inject");
    word ^= 1ull << 17;
    cuda_check(cudaMemcpyAsync(words + count / 2, &word, 8, cudaMemcpyHostToDevice, stream), "inject");
  }
  if (pattern == kernels::MemtestPattern::MovingInversions) {
    cuda_check(kernels::memtest_invert(words, count, pattern, seed, false, false, errors, stream), "memtest invert up");
    cuda_check(kernels::memtest_invert(words, count, pattern, seed, true, true, errors, stream), "memtest invert down");
  }
  cuda_check(kernels::memtest_check(words, count, pattern, seed, errors, stream), "memtest check");
  kernels::MemtestErrors found{};
  cuda_check(cudaMemcpyAsync(&found, errors, sizeof found, cudaMemcpyDeviceToHost, stream), "memtest result");
  cuda_check(cudaStreamSynchronize(stream), "memtest");
  return found;
}

// Each logged error as "pattern: word I at ADDRESS read X, expected Y (bits Z)", lowest word first.
std::vector<std::string> described_errors(const kernels::MemtestErrors& found, const std::uint64_t* words,
                                          kernels::MemtestPattern pattern) {
  std::vector<kernels::MemtestError> logged(found.errors, found.errors + std::min(found.logged, kernels::kMemtestLoggedErrors));
  std::sort(logged.begin(), logged.end(), [](const auto& a, const auto& b) { return a.index < b.index; });
  std::vector<std::string> described;
  for (const kernels::MemtestError& error : logged) {
    described.push_back(std::string(kernels::memtest_pattern_name(pattern)) + ": word " + std::to_string(error.index) +
                        " at " + hex(reinterpret_cast<std::uint64_t>(words + error.index)) + " read " +
                        hex(error.actual) + ", expected " + hex(error.expected) + " (bits " +
                        hex(error.actual ^ error.expected) + ")");
  }
  return described;
}

// Device memory freed on scope exit, on whichever device was current at allocation.
template <class T>
struct Device {
  T* p = nullptr;
  explicit Device(std::size_t count) { cuda_check(cudaMalloc(reinterpret_cast<void**>(&p), count * sizeof(T)), "cudaMalloc"); }
  ~Device() { cudaFree(p); }
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;
};

// The first product, checked against an FP64 product of the same BF16 inputs at sampled positions. Inputs
// are drawn from [0.5, 1.5), so every output is a sum of 8192 positive terms and a relative tolerance of 1 %
// covers BF16 output rounding (0.4 %) with room for FP32 accumulation order.
void check_reference(const __nv_bfloat16* a, const __nv_bfloat16* b, const __nv_bfloat16* c, std::mt19937_64& random) {
  const std::size_t n = kGemmSize;
  std::vector<__nv_bfloat16> host_a(n * n), host_b(n * n), host_c(n * n);
  cuda_check(cudaMemcpy(host_a.data(), a, n * n * 2, cudaMemcpyDeviceToHost), "copy A");
  cuda_check(cudaMemcpy(host_b.data(), b, n * n * 2, cudaMemcpyDeviceToHost), "copy B");
  cuda_check(cudaMemcpy(host_c.data(), c, n * n * 2, cudaMemcpyDeviceToHost), "copy C");
  std::uniform_int_distribution<std::size_t> pick(0, n - 1);
  for (int s = 0; s < kReferenceSamples; ++s) {
    const std::size_t i = pick(random), j = pick(random);
    double want = 0;  // column-major: A(i,k) = a[i + k n], B(k,j) = b[k + j n]
    for (std::size_t k = 0; k < n; ++k) want += double(__bfloat162float(host_a[i + k * n])) * double(__bfloat162float(host_b[k + j * n]));
    const double got = __bfloat162float(host_c[i + j * n]);
    if (std::fabs(got - want) > 0.01 * std::fabs(want)) {
      throw std::runtime_error("the first GEMM result is wrong at (" + std::to_string(i) + ", " + std::to_string(j) + "): " +
                               std::to_string(got) + " against an FP64 reference of " + std::to_string(want));
    }
  }
}

void burn(int device, const StressOptions& options, Clock::time_point deadline, const std::atomic<bool>& stop,
          GpuStressRecord& record, std::mutex& mutex) {
  cuda_check(cudaSetDevice(device), "cudaSetDevice");
  // Released in reverse order on every way out, exceptions included.
  struct Handles {
    cudaStream_t stream = nullptr;
    cublasHandle_t blas = nullptr;
    cudaEvent_t window_start = nullptr;
    cudaEvent_t window_stop = nullptr;
    ~Handles() {
      if (window_stop) cudaEventDestroy(window_stop);
      if (window_start) cudaEventDestroy(window_start);
      if (blas) cublasDestroy(blas);
      if (stream) cudaStreamDestroy(stream);
    }
  } handles;
  cuda_check(cudaStreamCreateWithFlags(&handles.stream, cudaStreamNonBlocking), "cudaStreamCreate");
  cublas_check(cublasCreate(&handles.blas), "cublasCreate");
  cuda_check(cudaEventCreate(&handles.window_start), "cudaEventCreate");
  cuda_check(cudaEventCreate(&handles.window_stop), "cudaEventCreate");
  const cudaStream_t stream = handles.stream;
  const cublasHandle_t handle = handles.blas;
  const cudaEvent_t window_start = handles.window_start;
  const cudaEvent_t window_stop = handles.window_stop;
  cublas_check(cublasSetStream(handle, stream), "cublasSetStream");

  const std::size_t elements = std::size_t(kGemmSize) * kGemmSize;
  Device<__nv_bfloat16> a(elements), b(elements), c(elements), reference(elements);
  Device<unsigned long long> mismatches(kGemmsPerCheck);
  Device<kernels::MemtestErrors> memtest_errors(1);
  cuda_check(kernels::fill_random_bf16(a.p, elements, 1000 + device, 0.5f, 1.5f, stream), "fill A");
  cuda_check(kernels::fill_random_bf16(b.p, elements, 2000 + device, 0.5f, 1.5f, stream), "fill B");
  const float one = 1.0f, zero = 0.0f;
  const auto gemm = [&](__nv_bfloat16* out) {
    cublas_check(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, kGemmSize, kGemmSize, kGemmSize, &one, a.p, CUDA_R_16BF,
                              kGemmSize, b.p, CUDA_R_16BF, kGemmSize, &zero, out, CUDA_R_16BF, kGemmSize,
                              CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
                 "cublasGemmEx");
  };
  gemm(reference.p);
  cuda_check(cudaStreamSynchronize(stream), "first GEMM");
  std::mt19937_64 random(device);
  check_reference(a.p, b.p, reference.p, random);

  std::size_t free_bytes = 0, total_bytes = 0;
  cuda_check(cudaMemGetInfo(&free_bytes, &total_bytes), "cudaMemGetInfo");
  const std::size_t memtest_words = static_cast<std::size_t>(free_bytes * options.memory_fraction) / sizeof(std::uint64_t);
  Device<std::uint64_t> memtest(memtest_words);

  const double flops_per_gemm = 2.0 * kGemmSize * double(kGemmSize) * kGemmSize;
  const auto started = Clock::now();
  unsigned long long pass = 0;
  while (Clock::now() < deadline && !stop) {
    // One window of verified GEMMs: each result compared word for word with the reference product.
    const auto window_end = std::min(deadline, Clock::now() + options.window);
    const double window_t0 = std::chrono::duration<double>(Clock::now() - started).count();
    cuda_check(cudaEventRecord(window_start, stream), "cudaEventRecord");
    unsigned long long gemms = 0;
    while (Clock::now() < window_end && !stop) {
      cuda_check(cudaMemsetAsync(mismatches.p, 0, kGemmsPerCheck * sizeof(unsigned long long), stream), "memset");
      for (int g = 0; g < kGemmsPerCheck; ++g) {
        gemm(c.p);
        if (options.inject_fault == "gemm" && record.gemm_runs + gemms + g == 5) {
          // Test-only: flip the lowest bit of one output element, as a faulty Tensor Core or bit flip would.
          unsigned short word = 0;
          cuda_check(cudaMemcpyAsync(&word, c.p + 12345, 2, cudaMemcpyDeviceToHost, stream), "inject");
          cuda_check(cudaStreamSynchronize(stream), "inject");
          word ^= 1;
          cuda_check(cudaMemcpyAsync(c.p + 12345, &word, 2, cudaMemcpyHostToDevice, stream), "inject");
          cuda_check(cudaStreamSynchronize(stream), "inject");
        }
        cuda_check(kernels::count_byte_mismatches(c.p, reference.p, elements * 2, mismatches.p + g, stream), "compare");
      }
      unsigned long long wrong[kGemmsPerCheck] = {};
      cuda_check(cudaMemcpyAsync(wrong, mismatches.p, sizeof wrong, cudaMemcpyDeviceToHost, stream), "copy counts");
      cuda_check(cudaStreamSynchronize(stream), "GEMM batch");
      std::lock_guard<std::mutex> lock(mutex);
      for (int g = 0; g < kGemmsPerCheck; ++g) {
        if (wrong[g] == 0) continue;
        if (record.gemm_mismatches++ == 0) {
          record.first_gemm_mismatch = "GEMM " + std::to_string(record.gemm_runs + gemms + g) + ": " + std::to_string(wrong[g]) +
                                       " 8-byte words of the output differ from the first result";
        }
      }
      gemms += kGemmsPerCheck;
    }
    cuda_check(cudaEventRecord(window_stop, stream), "cudaEventRecord");
    cuda_check(cudaEventSynchronize(window_stop), "cudaEventSynchronize");
    float ms = 0;
    cuda_check(cudaEventElapsedTime(&ms, window_start, window_stop), "cudaEventElapsedTime");
    {
      std::lock_guard<std::mutex> lock(mutex);
      record.gemm_runs += gemms;
      // The window's time includes the comparisons (about 4 % of it), so this is verified throughput.
      if (ms > 0 && gemms > 0) {
        record.windows.push_back({window_t0, std::chrono::duration<double>(Clock::now() - started).count(),
                                  flops_per_gemm * gemms / (ms * 1e-3) / 1e12});
      }
    }
    // One memory-test pass between windows, cycling through the patterns.
    const auto pattern = static_cast<kernels::MemtestPattern>(pass % kernels::kMemtestPatterns);
    const bool inject = options.inject_fault == "memory" && pass < kernels::kMemtestPatterns;
    const kernels::MemtestErrors found =
        memtest_pass(memtest.p, memtest_words, pattern, 0x5EED0000ull + pass, inject, memtest_errors.p, stream);
    std::lock_guard<std::mutex> lock(mutex);
    ++record.memtest_passes;
    record.memtest_errors += found.count;
    for (const std::string& error : described_errors(found, memtest.p, pattern)) {
      if (record.memtest_error_samples.size() < kernels::kMemtestLoggedErrors) record.memtest_error_samples.push_back(error);
    }
    if (!record.memtest_error_samples.empty()) record.first_memtest_error = record.memtest_error_samples.front();
    ++pass;
  }
}

// Uncorrectable and correctable ECC error counts since the driver loaded.
void read_ecc(const NvmlLibrary& nvml, nvmlDevice_t device, StressSample& sample) {
  if (nvml.nvmlDeviceGetTotalEccErrors_ == nullptr) return;
  unsigned long long count = 0;
  if (nvml.nvmlDeviceGetTotalEccErrors_(device, NVML_MEMORY_ERROR_TYPE_CORRECTED, NVML_VOLATILE_ECC, &count) == NVML_SUCCESS) {
    sample.ecc_corrected = static_cast<double>(count);
  }
  if (nvml.nvmlDeviceGetTotalEccErrors_(device, NVML_MEMORY_ERROR_TYPE_UNCORRECTED, NVML_VOLATILE_ECC, &count) == NVML_SUCCESS) {
    sample.ecc_uncorrected = static_cast<double>(count);
  }
}

}  // namespace

std::vector<GpuStressRecord> run_stress(const StressOptions& options, const NvmlLibrary* nvml,
                                        const std::atomic<bool>& stop, const StressProgress& progress) {
  std::vector<GpuStressRecord> records(options.devices.size());
  std::vector<nvmlDevice_t> handles(options.devices.size(), nullptr);
  for (std::size_t g = 0; g < options.devices.size(); ++g) {
    records[g].index = options.devices[g];
    cudaDeviceProp props{};
    if (cudaGetDeviceProperties(&props, options.devices[g]) == cudaSuccess) records[g].name = props.name;
    if (nvml != nullptr) handles[g] = nvml->device_for_cuda_index(options.devices[g]);
    unsigned int threshold = 0;
    if (handles[g] != nullptr && nvml->nvmlDeviceGetTemperatureThreshold_ != nullptr &&
        nvml->nvmlDeviceGetTemperatureThreshold_(handles[g], NVML_TEMPERATURE_THRESHOLD_SLOWDOWN, &threshold) == NVML_SUCCESS) {
      records[g].slowdown_threshold_c = threshold;
    }
  }
  // Critical Xid errors arrive as NVML events; the telemetry thread polls for them without blocking.
  nvmlEventSet_t events = nullptr;
  if (nvml != nullptr && nvml->nvmlEventSetCreate_ != nullptr && nvml->nvmlEventSetCreate_(&events) == NVML_SUCCESS) {
    for (nvmlDevice_t handle : handles) {
      if (handle != nullptr && nvml->nvmlDeviceRegisterEvents_ != nullptr) {
        nvml->nvmlDeviceRegisterEvents_(handle, nvmlEventTypeXidCriticalError, events);
      }
    }
  }
  std::mutex mutex;
  const auto started = Clock::now();
  const auto deadline = started + options.duration;
  std::vector<std::thread> workers;
  for (std::size_t g = 0; g < options.devices.size(); ++g) {
    workers.emplace_back([&, g] {
      try {
        burn(options.devices[g], options, deadline, stop, records[g], mutex);
      } catch (const std::exception& error) {
        std::lock_guard<std::mutex> lock(mutex);
        records[g].worker_error = error.what();
      }
    });
  }
  std::atomic<bool> workers_done{false};
  std::thread telemetry([&] {
    while (!workers_done) {
      const double t = std::chrono::duration<double>(Clock::now() - started).count();
      for (std::size_t g = 0; g < handles.size(); ++g) {
        if (handles[g] == nullptr) continue;
        const TelemetrySample reading = read_telemetry(*nvml, handles[g]);
        StressSample sample{t, reading.temperature_c, reading.power_w, reading.sm_clock_mhz, reading.memory_clock_mhz,
                            reading.clock_event_reasons};
        read_ecc(*nvml, handles[g], sample);
        std::lock_guard<std::mutex> lock(mutex);
        records[g].telemetry.push_back(sample);
      }
      if (events != nullptr && nvml->nvmlEventSetWait_ != nullptr) {
        nvmlEventData_t data{};
        while (nvml->nvmlEventSetWait_(events, &data, 0) == NVML_SUCCESS) {
          for (std::size_t g = 0; g < handles.size(); ++g) {
            if (handles[g] != data.device) continue;
            std::lock_guard<std::mutex> lock(mutex);
            records[g].xid_events.push_back("Xid " + std::to_string(data.eventData) + " at " + std::to_string(static_cast<int>(t)) + " s");
          }
        }
      }
      if (progress) {
        std::vector<GpuStressRecord> snapshot;
        {
          std::lock_guard<std::mutex> lock(mutex);
          snapshot = records;
        }
        progress(t, snapshot);
      }
      const auto wake = Clock::now() + std::chrono::seconds(1);
      while (!workers_done && Clock::now() < wake) std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
  });
  for (std::thread& worker : workers) worker.join();
  workers_done = true;
  telemetry.join();
  if (events != nullptr && nvml->nvmlEventSetFree_ != nullptr) nvml->nvmlEventSetFree_(events);
  return records;
}

}  // namespace gpubench
