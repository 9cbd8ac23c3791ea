// Compute-copy overlap on streams: a kernel and a pair of host<->device copies (the H2D copy, then the D2H copy,
// on one copy stream) run at once on separate streams, against the same work enqueued in the same order on one
// stream. Each iteration times four arrangements of the same work with CUDA events: the kernel alone, the copies
// alone, both on one stream (serial) and both on their own streams (concurrent); the figure is the share of the
// shorter part that running them together hid (overlap/overlap_times.hpp). Pinned host memory can overlap;
// pageable memory is staged by the driver through its own buffers partly on this thread, which blocks in the copy
// call. The kernel is already queued by then, so the GPU still overlaps them (an H200 hid 94 % with pageable
// memory, 99.5 % with pinned): what pageable memory costs is the host thread, and the copy's own bandwidth.
//
// The kernel (kernels/hash_rounds.cuh) is sized once per process, per GPU, copy size and host memory, to last
// about as long as the copies: a kernel much shorter or longer than the copies would leave little to hide.
// Nothing here waits behind a gate: pageable copies cannot, and both variants are timed the same way so that
// they compare; the host takes microseconds to enqueue work that lasts milliseconds. The copies are checked byte
// for byte and the kernel's output against a host reference after the timed runs.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <tuple>
#include <vector>

#include "benchmarks/common/copy_job.hpp"
#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/cuda_event.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/common/family_registration.hpp"
#include "benchmarks/common/host_affinity.hpp"
#include "benchmarks/common/host_buffer.hpp"
#include "benchmarks/common/process_resources.hpp"
#include "benchmarks/common/registry.hpp"
#include "benchmarks/common/reporting.hpp"
#include "benchmarks/common/significant_digits.hpp"
#include "benchmarks/common/throughput.hpp"
#include "benchmarks/common/timed_loop.hpp"
#include "benchmarks/common/transfer_sizes.hpp"
#include "benchmarks/overlap/compute_calibration.hpp"
#include "benchmarks/overlap/overlap_times.hpp"
#include "kernels/hash_rounds.cuh"
#include "kernels/random_fill.cuh"

namespace gpubench {
namespace {

// Words the kernel hashes: 4 MiB, a few waves of threads on any GPU, and no DRAM traffic to speak of.
constexpr std::size_t kComputeWords = std::size_t{1} << 20;
constexpr std::uint32_t kProbeRounds = 1024;
constexpr int kCalibrationTrials = 3;
// Words of the kernel's output checked against the host's reference: the first, the last and some in between.
constexpr std::size_t kReferenceWords = 1024;
constexpr std::uint64_t kInputSeed = 51;

std::vector<std::size_t> copy_sizes(Suite suite) {
  if (suite == Suite::Quick) return {64 * kMiB};
  return {4 * kMiB, 64 * kMiB, 256 * kMiB};
}

// The kernel, the copies and their streams and events on the current GPU.
class OverlapWork {
 public:
  OverlapWork(HostBufferPool& pool, std::size_t copy_bytes, HostMemory kind, int numa_node)
      : upload_(pool, Direction::HostToDevice, copy_bytes, kind, numa_node, kInputSeed + 1, copy_stream_.get()),
        download_(pool, Direction::DeviceToHost, copy_bytes, kind, numa_node, kInputSeed + 3, copy_stream_.get()),
        input_(kComputeWords),
        output_(kComputeWords) {
    GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(input_.get(), input_.bytes(), kInputSeed, compute_stream_.get()));
    compute_stream_.synchronize();
  }

  void set_rounds(std::uint32_t rounds) { rounds_ = rounds; }
  std::uint32_t rounds() const { return rounds_; }
  std::size_t copy_bytes() const { return upload_.bytes(); }
  const HostBuffer& host() const { return upload_.host(); }

  // Poisons the kernel's output, so that what is checked afterwards was written by the launches that follow.
  void poison_output() {
    GPUBENCH_CUDA_CHECK(cudaMemsetAsync(output_.get(), 0xFF, output_.bytes(), compute_stream_.get()));
    compute_stream_.synchronize();
  }

  double time_compute_alone() { return time_on({compute_stream_.get()}, true, false); }
  double time_copies_alone() { return time_on({copy_stream_.get()}, false, true); }

  OverlapTimes time_arrangements() {
    OverlapTimes times;
    times.compute_alone = time_compute_alone();
    times.copies_alone = time_copies_alone();
    times.serial = time_on({compute_stream_.get()}, true, true);
    times.concurrent = time_on({compute_stream_.get(), copy_stream_.get()}, true, true);
    return times;
  }

  // Empty when both copies arrived intact and the kernel's output matches the host's reference; else why not.
  std::string check() {
    if (const unsigned long long wrong = upload_.count_mismatches(copy_stream_.get()); wrong != 0) {
      return copy_failure(wrong, upload_);
    }
    if (const unsigned long long wrong = download_.count_mismatches(copy_stream_.get()); wrong != 0) {
      return copy_failure(wrong, download_);
    }
    std::vector<std::uint32_t> input(kComputeWords);
    std::vector<std::uint32_t> output(kComputeWords);
    GPUBENCH_CUDA_CHECK(cudaMemcpy(input.data(), input_.get(), input_.bytes(), cudaMemcpyDeviceToHost));
    GPUBENCH_CUDA_CHECK(cudaMemcpy(output.data(), output_.get(), output_.bytes(), cudaMemcpyDeviceToHost));
    std::size_t wrong = 0;
    for (std::size_t sample = 0; sample < kReferenceWords; ++sample) {
      const std::size_t i = sample * (kComputeWords - 1) / (kReferenceWords - 1);
      wrong += output[i] != kernels::hash_rounds(input[i], rounds_);
    }
    if (wrong == 0) return "";
    return "verification failed: " + std::to_string(wrong) + " of " + std::to_string(kReferenceWords) +
           " sampled words of the kernel's output differ from the host's reference after " + std::to_string(rounds_) +
           " hash rounds";
  }

 private:
  // The kernel (if `compute`) then the copies (if `copies`), enqueued in that order, each part on the next of
  // `streams` (one stream: all on it). Returns the seconds from the start until the last part is done.
  double time_on(const std::vector<cudaStream_t>& streams, bool compute, bool copies) {
    const cudaStream_t compute_stream = streams.front();
    const cudaStream_t copy_stream = streams.back();
    start_.record(streams.front());
    if (copy_stream != compute_stream) GPUBENCH_CUDA_CHECK(cudaStreamWaitEvent(copy_stream, start_.get(), 0));
    if (compute) {
      GPUBENCH_CUDA_CHECK(
          kernels::launch_hash_rounds(input_.get(), output_.get(), kComputeWords, rounds_, compute_stream));
    }
    if (copies) {
      upload_.enqueue(copy_stream);
      download_.enqueue(copy_stream);
    }
    compute_done_.record(compute_stream);
    copies_done_.record(copy_stream);
    return std::max(compute_done_.seconds_since(start_), copies_done_.seconds_since(start_));
  }

  static std::string copy_failure(unsigned long long wrong, const CopyJob& job) {
    return "verification failed: " + std::to_string(wrong) + " differing 8-byte words in " +
           std::to_string(job.bytes()) + " bytes copied " + direction_name(job.direction()) + " (" +
           host_memory_name(job.host().kind()) + ")";
  }

  CudaStream compute_stream_;
  CudaStream copy_stream_;
  CopyJob upload_;
  CopyJob download_;
  DeviceBuffer<std::uint32_t> input_;
  DeviceBuffer<std::uint32_t> output_;
  std::uint32_t rounds_ = kProbeRounds;
  CudaEvent start_;
  CudaEvent compute_done_;
  CudaEvent copies_done_;
};

double fastest_of(int trials, const std::function<double()>& timed) {
  double fastest = timed();
  for (int trial = 1; trial < trials; ++trial) fastest = std::min(fastest, timed());
  return fastest;
}

// The kernel's rounds for each GPU, copy size and host memory, chosen once per process: a benchmark's later runs
// time the same kernel as its first, so that every sample measures what the params name.
struct RoundsOfThisProcess {
  std::map<std::tuple<int, std::size_t, HostMemory>, std::uint32_t> by_device_size_and_memory;
};

std::uint32_t rounds_of_this_process(const BenchmarkContext& context, int device, HostMemory kind, OverlapWork& work) {
  auto& chosen = context.resources->family_state<RoundsOfThisProcess>().by_device_size_and_memory;
  const auto key = std::make_tuple(device, work.copy_bytes(), kind);
  if (const auto known = chosen.find(key); known != chosen.end()) return known->second;
  work.set_rounds(kProbeRounds);
  const double probe = fastest_of(kCalibrationTrials, [&] { return work.time_compute_alone(); });
  const double copies = fastest_of(kCalibrationTrials, [&] { return work.time_copies_alone(); });
  return chosen.emplace(key, rounds_lasting(copies, kProbeRounds, probe)).first->second;
}

std::string milliseconds(double seconds, benchmark::IterationCount iterations) {
  return significant_digits(seconds / static_cast<double>(iterations) * 1e3, 4);
}

void run_overlap(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device,
                 HostMemory kind, std::size_t copy_bytes) {
  const GpuLocality locality = gpu_locality(device.index);
  const ScopedCpuBinding binding(locality.cpus);
  OverlapWork work(context.resources->host_buffer_pool(), copy_bytes, kind, locality.numa_node);
  work.set_rounds(rounds_of_this_process(context, device.index, kind, work));
  work.time_arrangements();  // warm-up
  work.poison_output();
  OverlapTimes total;
  run_timed_iterations(state, [&] {
    const OverlapTimes times = work.time_arrangements();
    total += times;
    return times.sum();  // every arrangement, so that the running time stays bounded
  });
  report_clocks(state, context, device);
  if (const std::string wrong = work.check(); !wrong.empty()) {
    fail_benchmark(state, FailureKind::WrongResult, wrong);
    return;
  }
  const benchmark::IterationCount iterations = state.iterations();
  FigureLabel label{"efficiency", "%", Better::Higher, device.index, {}};
  label.params["definition"] =
      "(serial - concurrent) / min(compute alone, copies alone), sums of the timed iterations, 0 when concurrent "
      "is slower than serial";
  label.params["copy_bytes"] = std::to_string(copy_bytes);
  label.params["copies"] = "H2D then D2H on one stream, separate from the kernel's";
  label.params["host_memory"] = kind == HostMemory::Pinned ? "pinned (mmap + cudaHostRegister)" : "pageable (mmap)";
  label.params["host_placement"] = work.host().placement();
  label.params["cpus"] = binding.note();
  label.params["kernel"] = std::to_string(kComputeWords) + " words x " + std::to_string(work.rounds()) +
                           " hash rounds, sized once per process to last as long as the copies";
  label.params["compute_alone_ms"] = milliseconds(total.compute_alone, iterations);
  label.params["copies_alone_ms"] = milliseconds(total.copies_alone, iterations);
  label.params["serial_ms"] = milliseconds(total.serial, iterations);
  label.params["concurrent_ms"] = milliseconds(total.concurrent, iterations);
  label.params["copies_alone_gbps"] =
      significant_digits(gigabytes_per_second(overlap_copy_bytes(copy_bytes), iterations, total.copies_alone), 4);
  label.params["timer"] = "CUDA events from the first part's enqueue to the last part done";
  report_figure(state, overlap_efficiency_percent(total), 100.0, label);
}

void register_overlap_benchmarks(const BenchmarkContext& context) {
  for (HostMemory kind : {HostMemory::Pinned, HostMemory::Pageable}) {
    for (std::size_t bytes : copy_sizes(context.suite)) {
      register_per_device(context, std::string("overlap/") + host_memory_name(kind) + "/" + size_name(bytes),
                          [&context, kind, bytes](benchmark::State& state, const BenchmarkDevice& device) {
                            run_overlap(state, context, device, kind, bytes);
                          });
    }
  }
}

}  // namespace

GPUBENCH_FAMILY("overlap", register_overlap_benchmarks);

}  // namespace gpubench
