#include "benchmarks/common/exception_kind.hpp"

#include "benchmarks/common/benchmark_failure.hpp"
#include "benchmarks/common/cuda_check.hpp"

namespace gpubench {

FailureKind failure_kind_of(const std::exception& error) {
  if (const auto* failure = dynamic_cast<const BenchmarkFailure*>(&error)) return failure->kind();
  if (const auto* cuda = dynamic_cast<const CudaError*>(&error)) {
    switch (cuda->status()) {
      case cudaErrorMemoryAllocation: return FailureKind::OutOfMemory;
      case cudaErrorNoDevice:
      case cudaErrorInsufficientDriver: return FailureKind::NoDevice;
      case cudaErrorECCUncorrectable: return FailureKind::HardwareError;
      default: return FailureKind::ApiError;
    }
  }
  return FailureKind::ApiError;
}

}  // namespace gpubench
