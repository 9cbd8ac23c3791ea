#include "harness/results/id_pattern.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>

namespace gpubench {
namespace {

TEST(IdPattern, EmptyMatchesEveryIdOfAnyLength) {
  const IdPattern all("");
  EXPECT_TRUE(all.matches("memory/read/1GiB/gpu0/bandwidth"));
  EXPECT_TRUE(all.matches(std::string(50000, 'x')));
}

TEST(IdPattern, SearchesLikeARegex) {
  const IdPattern pattern("(read|write)/1GiB");
  EXPECT_TRUE(pattern.matches("memory/read/1GiB/gpu0/bandwidth"));
  EXPECT_FALSE(pattern.matches("memory/copy/1GiB/gpu0/bandwidth"));
  EXPECT_TRUE(IdPattern("^(memory/|gemm/(bf16|tf32)/8192x)").matches("gemm/tf32/8192x8192x8192/gpu0/tflops"));
  EXPECT_TRUE(IdPattern("a{2}b").matches("aab")) << "a quantifier outside any group is fine";
  EXPECT_TRUE(IdPattern("(?:ab)+[(*]").matches("abab*")) << "bracket contents and (?: are no quantifiers";
}

TEST(IdPattern, AnOverlongIdNeverMatchesAFilter) {
  EXPECT_FALSE(IdPattern("x").matches(std::string(kMaxMatchedIdLength + 1, 'x')));
  EXPECT_TRUE(IdPattern("x").matches(std::string(kMaxMatchedIdLength, 'x')));
}

TEST(IdPattern, RefusesBadLongAndNestedPatterns) {
  for (const std::string& bad : {std::string("("), std::string("(.*)*x"), std::string("(a+)+$"), std::string("((a|b)*c)+"),
                                 std::string("(a{2,})*")}) {
    EXPECT_THROW(IdPattern{bad}, std::invalid_argument) << bad.substr(0, 40);
  }
  EXPECT_NO_THROW(IdPattern("(\\*)*"));
}

TEST(IdPattern, AcceptsTheHarnessesOwnLongAlternations) {
  // remeasure (check --confirm) searches for every suspect at once: ^(name|name|...)$, of any length.
  std::string alternation = "^(";
  for (int i = 0; i < 200; ++i) alternation += (i ? "|" : "") + std::string("memory/triad/1GiB/gpu") + std::to_string(i);
  alternation += ")$";
  EXPECT_TRUE(IdPattern(alternation).matches("memory/triad/1GiB/gpu199"));
  EXPECT_FALSE(IdPattern(alternation).matches("memory/triad/1GiB/gpu200"));
}

}  // namespace
}  // namespace gpubench
