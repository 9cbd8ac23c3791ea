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

// Every ordered pair of 16 GPUs (a DGX-2), the full p2p suite's 26 benchmarks each.
std::vector<std::string> sixteen_gpu_p2p_listing() {
  std::vector<std::string> names = {"memory/read/1GiB/gpu0"};
  for (int a = 0; a < 16; ++a) {
    for (int b = 0; b < 16; ++b) {
      for (int kind = 0; kind < 26 && a != b; ++kind) {
        names.push_back("p2p/kind" + std::to_string(kind) + "/1GiB/gpu" + std::to_string(a) + "-gpu" + std::to_string(b));
      }
    }
  }
  return names;
}

TEST(MicroListing, AWholeFamilyIsSelectedByItsPrefixHoweverManyGpus) {
  const std::vector<std::string> listed = sixteen_gpu_p2p_listing();
  const std::vector<std::string> all = select_benchmarks(listed, "p2p", "");
  ASSERT_EQ(all.size(), 16u * 15u * 26u);
  EXPECT_GT(exact_filter(all).size(), 128u * 1024u) << "as one argument, past what Linux passes to a child";
  const std::string filter = child_filter(listed, "p2p", all);
  EXPECT_EQ(filter, "^p2p/");
  const std::regex whole(filter);
  for (const std::string& name : all) ASSERT_TRUE(std::regex_search(name, whole)) << name;
  EXPECT_FALSE(std::regex_search("memory/read/1GiB/gpu0", whole));
}

TEST(MicroListing, AFilteredFamilyIsSelectedByItsNames) {
  const std::vector<std::string> listed = sixteen_gpu_p2p_listing();
  const std::vector<std::string> some = select_benchmarks(listed, "p2p", "kind3/");
  ASSERT_EQ(some.size(), 16u * 15u);
  const std::string filter = child_filter(listed, "p2p", some);
  EXPECT_EQ(filter, exact_filter(some));
  EXPECT_FALSE(std::regex_search("p2p/kind4/1GiB/gpu0-gpu1", std::regex(filter)));
}

TEST(Suites, QuickIsASubsetOfFullAndUnknownSuitesAreRejected) {
  EXPECT_LE(families_in_suite("quick").size(), families_in_suite("full").size());
  EXPECT_EQ(families_in_suite("full").size(), family_catalogue().size());
  EXPECT_THROW(families_in_suite("medium"), std::invalid_argument);
}

}  // namespace
}  // namespace gpubench
