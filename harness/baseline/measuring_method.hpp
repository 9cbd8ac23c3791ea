#pragma once
// Which kernel measured a figure: the params that name the algorithm or launch (cuBLASLt's algo_id, algo_tile,
// algo_stages, ... for a GEMM; launch for a memory kernel), as the results document records them. One figure is one
// kernel: a baseline keeps the method its runs agreed on, and a check whose run used another says so, as history names
// a driver change. On an H200, two tiles of FP32 8192^3 differed by 5 %, the whole of GEMM's tolerance.
#include <map>
#include <string>
#include <vector>

namespace gpubench {

using MeasuringMethod = std::map<std::string, std::string>;

// The params of a figure that name its kernel. The heuristic's rank (a position in a list that a new cuBLAS may
// reorder) and the workspace a kernel happens to use are left out.
MeasuringMethod measuring_method(const std::map<std::string, std::string>& params);

// What the runs agree on: each param every run gave with one value; a param that differs between runs is left out.
MeasuringMethod common_method(const std::vector<MeasuringMethod>& runs);

// How `measured` differs from the `expected` method, on the params `expected` names: "algo_tile 201 -> 248"; "" when
// it does not (or either is unknown).
std::string method_change(const MeasuringMethod& expected, const MeasuringMethod& measured);

}  // namespace gpubench
