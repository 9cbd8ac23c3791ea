#pragma once
// One registration function per benchmark family; main() calls each.
#include "benchmarks/common/context.hpp"

namespace gpubench {

void register_memory_benchmarks(const BenchmarkContext& context);

}  // namespace gpubench
