#pragma once
// One registration function per benchmark family; main() calls each.
#include "benchmarks/common/context.hpp"

namespace gpubench {

void register_memory_benchmarks(const BenchmarkContext& context);
void register_gemm_benchmarks(const BenchmarkContext& context);
void register_pcie_benchmarks(const BenchmarkContext& context);
void register_launch_benchmarks(const BenchmarkContext& context);
void register_sync_benchmarks(const BenchmarkContext& context);
void register_p2p_benchmarks(const BenchmarkContext& context);
void register_nccl_benchmarks(const BenchmarkContext& context);

}  // namespace gpubench
