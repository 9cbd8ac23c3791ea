#pragma once
// The kind of failure an exception out of a benchmark is: its own when it says (BenchmarkFailure), else by the
// CUDA error it carries; any other call that failed (cuBLAS, NCCL, the benchmark's own setup) is an API error.
#include <exception>

#include "benchmarks/common/failure_kind.hpp"

namespace gpubench {

FailureKind failure_kind_of(const std::exception& error);

}  // namespace gpubench
