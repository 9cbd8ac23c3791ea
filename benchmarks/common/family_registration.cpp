#include "benchmarks/common/family_registration.hpp"

#include <map>
#include <stdexcept>

namespace gpubench {

namespace detail {
namespace {

// Constant-initialised (it is null before any constructor of a static runs), hence safe to use from the
// family files' static initialisers whatever their order.
const FamilyChainLink* chain_head = nullptr;

}  // namespace

FamilyChainLink::FamilyChainLink(const char* family, RegisterFamily register_family)
    : family_(family), register_family_(register_family), next_(chain_head) {
  chain_head = this;
}

const FamilyChainLink* FamilyChainLink::first() { return chain_head; }

}  // namespace detail

std::vector<FamilyRegistration> self_registered_families() {
  std::vector<FamilyRegistration> registered;
  for (const detail::FamilyChainLink* link = detail::FamilyChainLink::first(); link != nullptr; link = link->next()) {
    registered.push_back({link->family(), link->register_family()});
  }
  return registered;
}

std::vector<RegisterFamily> registrations_for(const std::vector<FamilySpec>& catalogue,
                                              const std::vector<FamilyRegistration>& registered) {
  std::map<std::string, RegisterFamily> unclaimed;
  for (const FamilyRegistration& registration : registered) {
    if (!unclaimed.emplace(registration.family, registration.register_family).second) {
      throw std::logic_error("family '" + registration.family + "' registered itself twice (GPUBENCH_FAMILY)");
    }
  }
  std::vector<RegisterFamily> registrations;
  for (const FamilySpec& family : catalogue) {
    const auto found = unclaimed.find(family.name);
    if (found == unclaimed.end()) {
      throw std::logic_error("family '" + family.name + "' of the catalogue has no registration function "
                             "(GPUBENCH_FAMILY in its family file, which must be one of gpubench-micro's sources)");
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
