// Advice follows the failure's kind, whatever its reason says.
#include "harness/results/failure_advice.hpp"

#include <gtest/gtest.h>

namespace gpubench {
namespace {

bool mentions(FailureKind kind, const char* part) { return advice_for_failure(kind).find(part) != std::string::npos; }

TEST(FailureAdvice, EachKindGetsItsOwnAdvice) {
  EXPECT_TRUE(mentions(FailureKind::WrongResult, "silent data corruption"));
  EXPECT_TRUE(mentions(FailureKind::OutOfMemory, "free device memory"));
  EXPECT_TRUE(mentions(FailureKind::NoDevice, "driver"));
  EXPECT_TRUE(mentions(FailureKind::HardwareError, "ECC"));
  EXPECT_TRUE(mentions(FailureKind::ImplausibleResult, "gpubench bug"));
  EXPECT_TRUE(mentions(FailureKind::ChildTimeout, "--timeout"));
  EXPECT_TRUE(mentions(FailureKind::ChildCrashed, "crashed"));
  EXPECT_TRUE(mentions(FailureKind::StressFinding, "out of service"));
  EXPECT_TRUE(mentions(FailureKind::Unknown, "gpubench doctor"));
}

TEST(FailureAdvice, AGateThatTimedOutInsideABenchmarkIsNotTheFamilysTimeLimit) {
  EXPECT_FALSE(mentions(FailureKind::GateTimeout, "--timeout"));
  EXPECT_NE(advice_for_failure(FailureKind::GateTimeout), advice_for_failure(FailureKind::ChildTimeout));
}

TEST(FailureAdvice, KindsWithoutSpecificAdviceGetTheGenericOne) {
  for (FailureKind kind : {FailureKind::ApiError, FailureKind::ChildFailed, FailureKind::UnreadableOutput}) {
    EXPECT_EQ(advice_for_failure(kind), advice_for_failure(FailureKind::Unknown)) << to_string(kind);
  }
}

}  // namespace
}  // namespace gpubench
