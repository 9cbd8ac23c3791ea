#include "benchmarks/common/families.hpp"

#include <map>
#include <stdexcept>

namespace gpubench {

std::vector<RegisterFamily> registrations_for(const std::vector<FamilySpec>& catalogue) {
  std::map<std::string, RegisterFamily> unclaimed = {
      {"memory", register_memory_benchmarks}, {"gemm", register_gemm_benchmarks}, {"pcie", register_pcie_benchmarks},
      {"launch", register_launch_benchmarks}, {"sync", register_sync_benchmarks}, {"p2p", register_p2p_benchmarks},
      {"nccl", register_nccl_benchmarks},
  };
  std::vector<RegisterFamily> registrations;
  for (const FamilySpec& family : catalogue) {
    const auto found = unclaimed.find(family.name);
    if (found == unclaimed.end()) {
      throw std::logic_error("family '" + family.name + "' of the catalogue has no registration function "
                             "(benchmarks/common/families.cpp)");
    }
    registrations.push_back(found->second);
    unclaimed.erase(found);
  }
  if (!unclaimed.empty()) {
    throw std::logic_error("registration function of '" + unclaimed.begin()->first +
                           "' has no family in the catalogue (benchmarks/catalogue.cpp)");
  }
  return registrations;
}

}  // namespace gpubench
