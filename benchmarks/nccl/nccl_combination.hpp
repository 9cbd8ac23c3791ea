#pragma once
// An NCCL algorithm and protocol by the names gpubench's ids use: lower case ("ring", "simple"), or "auto"
// when NCCL_ALGO / NCCL_PROTO are unset and NCCL chooses for itself.
#include <string>

namespace gpubench {

struct NcclCombination {
  std::string algo;
  std::string proto;
};

inline bool operator==(const NcclCombination& a, const NcclCombination& b) {
  return a.algo == b.algo && a.proto == b.proto;
}

// The id part for an NCCL_ALGO or NCCL_PROTO value: lower case, every character but a letter or a digit as '_'
// (NCCL also accepts lists such as "^nvls" or "allreduce:tree;broadcast:ring", whose ';' and ':' have no place
// in an id or a label); "auto" when `value` is null or empty.
std::string combination_part_name(const char* value);

NcclCombination forced_combination(const char* algo_value, const char* proto_value);

// From this process's NCCL_ALGO and NCCL_PROTO.
NcclCombination forced_combination_from_environment();

}  // namespace gpubench
