#pragma once
// How a family joins gpubench-micro: one line beside its registration function, in its own file,
//   GPUBENCH_FAMILY("memory", register_memory_benchmarks);
// and main pairs the families so registered with the catalogue (benchmarks/catalogue.hpp), one to one, and
// calls them in catalogue order. A family file must be one of gpubench-micro's own sources, not in a static
// library, or the linker may leave its registration out.
#include <string>
#include <vector>

#include "benchmarks/catalogue.hpp"
#include "benchmarks/common/context.hpp"
#include "benchmarks/common/detail/family_chain.hpp"

#define GPUBENCH_FAMILY(family, register_family) \
  static const ::gpubench::detail::FamilyChainLink gpubench_family_link_ { family, register_family }

namespace gpubench {

struct FamilyRegistration {
  std::string family;
  RegisterFamily register_family = nullptr;
};

// Every family that registered itself in this program, in no particular order.
std::vector<FamilyRegistration> self_registered_families();

// The registration function of each catalogue family, in catalogue order. Throws std::logic_error, naming it,
// for a family of the catalogue that did not register, a registered family the catalogue lacks, or a family
// registered twice: none may be dropped silently.
std::vector<RegisterFamily> registrations_for(const std::vector<FamilySpec>& catalogue,
                                              const std::vector<FamilyRegistration>& registered);

}  // namespace gpubench
