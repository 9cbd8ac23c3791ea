#include "benchmarks/nccl/nccl_combination.hpp"

#include <cctype>
#include <cstdlib>

namespace gpubench {

std::string combination_part_name(const char* value) {
  if (value == nullptr || *value == '\0') return "auto";
  std::string name;
  for (const char* c = value; *c != '\0'; ++c) {
    const unsigned char byte = static_cast<unsigned char>(*c);
    name += std::isalnum(byte) ? static_cast<char>(std::tolower(byte)) : '_';
  }
  return name;
}

NcclCombination forced_combination(const char* algo_value, const char* proto_value) {
  return {combination_part_name(algo_value), combination_part_name(proto_value)};
}

NcclCombination forced_combination_from_environment() {
  return forced_combination(std::getenv("NCCL_ALGO"), std::getenv("NCCL_PROTO"));
}

}  // namespace gpubench
