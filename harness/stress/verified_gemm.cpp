#include "harness/stress/verified_gemm.hpp"

#include <cmath>
#include <random>
#include <stdexcept>
#include <string>

#include "benchmarks/common/cuda_check.hpp"
#include "kernels/random_fill.cuh"
#include "kernels/verify.cuh"

namespace gpubench {
namespace {

constexpr int kReferenceSamples = 64;
constexpr std::size_t kElements = std::size_t(kStressGemmSize) * kStressGemmSize;

void cublas_check(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS) throw std::runtime_error(std::string(what) + ": " + cublasGetStatusString(status));
}

void gemm(cublasHandle_t handle, const __nv_bfloat16* a, const __nv_bfloat16* b, __nv_bfloat16* out) {
  const float one = 1.0f, zero = 0.0f;
  cublas_check(cublasGemmEx(handle, CUBLAS_OP_N, CUBLAS_OP_N, kStressGemmSize, kStressGemmSize, kStressGemmSize, &one, a,
                            CUDA_R_16BF, kStressGemmSize, b, CUDA_R_16BF, kStressGemmSize, &zero, out, CUDA_R_16BF,
                            kStressGemmSize, CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT),
               "cublasGemmEx");
}

// The product checked against an FP64 product of the same BF16 inputs at sampled positions. Inputs are drawn from
// [0.5, 1.5), so every output is a sum of 8192 positive terms and a relative tolerance of 1 % covers BF16 output
// rounding (0.4 %) with room for FP32 accumulation order.
void check_reference(const __nv_bfloat16* a, const __nv_bfloat16* b, const __nv_bfloat16* c, int device) {
  const std::size_t n = kStressGemmSize;
  std::vector<__nv_bfloat16> host_a(kElements), host_b(kElements), host_c(kElements);
  GPUBENCH_CUDA_CHECK(cudaMemcpy(host_a.data(), a, kElements * 2, cudaMemcpyDeviceToHost));
  GPUBENCH_CUDA_CHECK(cudaMemcpy(host_b.data(), b, kElements * 2, cudaMemcpyDeviceToHost));
  GPUBENCH_CUDA_CHECK(cudaMemcpy(host_c.data(), c, kElements * 2, cudaMemcpyDeviceToHost));
  std::mt19937_64 random(device);
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

}  // namespace

GemmOperands::GemmOperands(int device) : a_(kElements), b_(kElements), reference_(kElements) {
  CudaStream stream;
  cublasHandle_t handle = nullptr;
  cublas_check(cublasCreate(&handle), "cublasCreate");
  try {
    cublas_check(cublasSetStream(handle, stream.get()), "cublasSetStream");
    GPUBENCH_CUDA_CHECK(kernels::fill_random_bf16(a_.get(), kElements, 1000 + device, 0.5f, 1.5f, stream.get()));
    GPUBENCH_CUDA_CHECK(kernels::fill_random_bf16(b_.get(), kElements, 2000 + device, 0.5f, 1.5f, stream.get()));
    gemm(handle, a_.get(), b_.get(), reference_.get());
    stream.synchronize();
  } catch (...) {
    cublasDestroy(handle);
    throw;
  }
  cublasDestroy(handle);
  check_reference(a_.get(), b_.get(), reference_.get(), device);
}

GemmLane::GemmLane(const GemmOperands& operands) : operands_(operands), out_(kElements), mismatches_(kMaxQueued) {
  cublas_check(cublasCreate(&blas_), "cublasCreate");
  cublas_check(cublasSetStream(blas_, stream_.get()), "cublasSetStream");
}

GemmLane::~GemmLane() { cublasDestroy(blas_); }

void GemmLane::enqueue(int gemms) {
  if (queued_ + gemms > kMaxQueued) throw std::logic_error("GemmLane: more GEMMs queued than it has counters for");
  if (queued_ == 0) GPUBENCH_CUDA_CHECK(cudaMemsetAsync(mismatches_.get(), 0, kMaxQueued * sizeof(unsigned long long), stream_.get()));
  for (int g = 0; g < gemms; ++g) {
    gemm(blas_, operands_.a(), operands_.b(), out_.get());
    if (corrupt_ && g == gemms - 1) {
      corrupt_ = false;
      unsigned short word = 0;
      GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(&word, out_.get() + 12345, 2, cudaMemcpyDeviceToHost, stream_.get()));
      stream_.synchronize();
      word ^= 1;
      GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(out_.get() + 12345, &word, 2, cudaMemcpyHostToDevice, stream_.get()));
      stream_.synchronize();
    }
    GPUBENCH_CUDA_CHECK(kernels::count_byte_mismatches(out_.get(), operands_.reference(), kElements * 2,
                                                       mismatches_.get() + queued_ + g, stream_.get()));
  }
  queued_ += gemms;
}

void GemmLane::corrupt_next_check() { corrupt_ = true; }

std::vector<unsigned long long> GemmLane::finish() {
  std::vector<unsigned long long> wrong(static_cast<std::size_t>(queued_));
  if (queued_ > 0) {
    GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(wrong.data(), mismatches_.get(), wrong.size() * sizeof(unsigned long long),
                                        cudaMemcpyDeviceToHost, stream_.get()));
  }
  stream_.synchronize();
  queued_ = 0;
  return wrong;
}

}  // namespace gpubench
