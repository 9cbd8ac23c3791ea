#pragma once
// One registration function per benchmark family; main() calls them in catalogue order (benchmarks/catalogue.hpp).
#include <vector>

#include "benchmarks/catalogue.hpp"
#include "benchmarks/common/context.hpp"

namespace gpubench {

void register_memory_benchmarks(const BenchmarkContext& context);
void register_gemm_benchmarks(const BenchmarkContext& context);
void register_pcie_benchmarks(const BenchmarkContext& context);
void register_launch_benchmarks(const BenchmarkContext& context);
void register_sync_benchmarks(const BenchmarkContext& context);
void register_p2p_benchmarks(const BenchmarkContext& context);
void register_nccl_benchmarks(const BenchmarkContext& context);

using RegisterFamily = void (*)(const BenchmarkContext&);

// The registration function of each catalogue family, in catalogue order. Throws std::logic_error, naming it, for
// a family with no registration function or a registration function of no family: neither can be dropped silently.
std::vector<RegisterFamily> registrations_for(const std::vector<FamilySpec>& catalogue);

}  // namespace gpubench
