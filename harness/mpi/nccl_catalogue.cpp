#include "harness/mpi/nccl_catalogue.hpp"

#include <stdexcept>

#include "benchmarks/nccl/collective_sweep.hpp"

namespace gpubench {
namespace {

const char* variable(const FamilyVariant& variant, const char* name) {
  const auto found = variant.environment.find(name);
  return found == variant.environment.end() ? nullptr : found->second.c_str();
}

}  // namespace

const FamilySpec& nccl_family(const NcclCombination& forced) {
  const std::string benchmark = benchmark_name(sweep_points(Suite::Quick, forced).front(), forced);
  const FamilySpec* family = family_of(benchmark);
  if (family == nullptr) throw std::logic_error("the family catalogue has no row for " + benchmark);
  return *family;
}

std::string variant_label(const FamilySpec& family, const NcclCombination& forced) {
  for (const FamilyVariant& variant : family.variants) {
    if (forced_combination(variable(variant, "NCCL_ALGO"), variable(variant, "NCCL_PROTO")) == forced) {
      return variant.name.empty() ? family.name : family.name + "." + variant.name;
    }
  }
  return family.name + "." + forced.algo + "_" + forced.proto;
}

}  // namespace gpubench
