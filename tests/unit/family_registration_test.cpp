// Families register themselves (GPUBENCH_FAMILY); gpubench-micro refuses to start unless they pair one to one
// with the catalogue, and calls them in catalogue order.
#include "benchmarks/common/family_registration.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

namespace gpubench {
namespace {

void register_first(const BenchmarkContext&) {}
void register_second(const BenchmarkContext&) {}

std::vector<FamilySpec> catalogue_of(const std::vector<std::string>& names) {
  std::vector<FamilySpec> catalogue;
  for (const std::string& name : names) {
    FamilySpec family;
    family.name = name;
    catalogue.push_back(family);
  }
  return catalogue;
}

std::string refusal(const std::vector<FamilySpec>& catalogue, const std::vector<FamilyRegistration>& registered) {
  try {
    registrations_for(catalogue, registered);
  } catch (const std::logic_error& error) {
    return error.what();
  }
  return "";
}

TEST(FamilyRegistration, PairsWithTheCatalogueInCatalogueOrder) {
  const std::vector<RegisterFamily> registrations =
      registrations_for(catalogue_of({"first", "second"}), {{"second", register_second}, {"first", register_first}});
  EXPECT_EQ(registrations, (std::vector<RegisterFamily>{register_first, register_second}));
}

TEST(FamilyRegistration, RefusesAFamilyThatDoesNotPair) {
  EXPECT_NE(refusal(catalogue_of({"first", "second"}), {{"first", register_first}}).find("'second' of the catalogue"),
            std::string::npos);
  EXPECT_NE(refusal(catalogue_of({"first"}), {{"first", register_first}, {"second", register_second}})
                .find("'second' has no family in the catalogue"),
            std::string::npos);
  EXPECT_NE(refusal(catalogue_of({"first"}), {{"first", register_first}, {"first", register_second}})
                .find("registered itself twice"),
            std::string::npos);
}

TEST(FamilyRegistration, NothingRegistersItselfOutsideGpubenchMicro) {
  // The family files are gpubench-micro's own sources; the tests link none of them.
  EXPECT_TRUE(self_registered_families().empty());
}

}  // namespace
}  // namespace gpubench
