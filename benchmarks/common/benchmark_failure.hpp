#pragma once
// An exception that says what kind of failure it is, for a benchmark body that gives up deep inside (too little
// free memory, a gate that gave up): the registry records it with this kind. Other exceptions are classified by
// their type (benchmarks/common/registry.cpp).
#include <stdexcept>
#include <string>

#include "benchmarks/common/failure_kind.hpp"

namespace gpubench {

class BenchmarkFailure : public std::runtime_error {
 public:
  BenchmarkFailure(FailureKind kind, const std::string& reason) : std::runtime_error(reason), kind_(kind) {}
  FailureKind kind() const { return kind_; }

 private:
  FailureKind kind_;
};

}  // namespace gpubench
