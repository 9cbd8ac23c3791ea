#include "harness/runner/micro_listing.hpp"

#include <gtest/gtest.h>

#include <regex>

#include "harness/runner/suites.hpp"

namespace gpubench {
namespace {

const std::vector<std::string> kNames = {"memory/read/1GiB/gpu0", "memory/triad/1GiB/gpu0", "memory/triad/1GiB/gpu1",
                                         "gemm/bf16/8192x8192x8192/gpu0"};

TEST(MicroListing, SelectsByFamilyAndFilter) {
  EXPECT_EQ(select_benchmarks(kNames, "memory", "").size(), 3u);
  EXPECT_EQ(select_benchmarks(kNames, "memory", "triad"), (std::vector<std::string>{"memory/triad/1GiB/gpu0", "memory/triad/1GiB/gpu1"}));
  EXPECT_EQ(select_benchmarks(kNames, "memory", "gpu1$"), (std::vector<std::string>{"memory/triad/1GiB/gpu1"}));
  EXPECT_TRUE(select_benchmarks(kNames, "mem", "").empty()) << "a family is a whole path component";
  EXPECT_THROW(select_benchmarks(kNames, "memory", "(unclosed"), std::invalid_argument);
}

TEST(MicroListing, ExactFilterMatchesOnlyTheNamedBenchmarks) {
  const std::regex filter(exact_filter({"memory/triad/1GiB/gpu0", "a.b/c"}));
  EXPECT_TRUE(std::regex_search("memory/triad/1GiB/gpu0/manual_time", filter));
  EXPECT_TRUE(std::regex_search("memory/triad/1GiB/gpu0", filter));
  EXPECT_FALSE(std::regex_search("memory/triad/1GiB/gpu01", filter));
  EXPECT_FALSE(std::regex_search("axb/c", filter)) << "dots are escaped";
}

TEST(Suites, QuickIsASubsetOfFullAndUnknownSuitesAreRejected) {
  EXPECT_LE(families_in_suite("quick").size(), families_in_suite("full").size());
  EXPECT_EQ(families_in_suite("full").size(), family_catalogue().size());
  EXPECT_THROW(families_in_suite("medium"), std::invalid_argument);
}

}  // namespace
}  // namespace gpubench
