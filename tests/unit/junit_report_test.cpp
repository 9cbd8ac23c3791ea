// JUnit XML of check and acceptance: where, when and how long, and class names that keep nodes apart.
#include "harness/report/junit_report.hpp"

#include <gtest/gtest.h>

#include <sstream>

namespace gpubench {
namespace {

std::string junit(const VerdictList& list) {
  std::ostringstream out;
  write_junit(list, out);
  return out.str();
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(Junit, ACheckSaysWhereWhenAndHowLong) {
  CheckReport report;
  report.host = "node1.cluster";
  MetricVerdict v;
  v.id = "memory/triad/1GiB/gpu0/bandwidth";
  v.kind = VerdictKind::Regression;
  v.reason = "-10 %";
  report.verdicts = {v};
  RunInfo run;
  run.host = report.host;
  run.started_at = "2026-11-29T17:05:48Z";
  run.finished_at = "2026-11-29T17:17:03Z";
  const std::string xml = junit(verdict_list(report, run));
  EXPECT_TRUE(has(xml, "<testsuite name=\"gpubench.node1.cluster\" tests=\"1\" failures=\"1\" errors=\"0\" skipped=\"0\" "
                       "timestamp=\"2026-11-29T17:05:48\" hostname=\"node1.cluster\" time=\"675.000\">"))
      << xml;
  EXPECT_TRUE(has(xml, "<testcase classname=\"gpubench.node1.cluster.memory\" name=\"memory/triad/1GiB/gpu0/bandwidth\" time=\"0.000\">"))
      << xml;
}

TEST(Junit, WhatTheRunDoesNotSayIsLeftOut) {
  CheckReport report;
  report.host = "node1";
  RunInfo run;
  run.host = report.host;
  run.started_at = "2026-11-29T17:05:48Z";  // and no finished_at: a run stopped before it finished
  std::string xml = junit(verdict_list(report, run));
  EXPECT_TRUE(has(xml, " timestamp=\"2026-11-29T17:05:48\" hostname=\"node1\" time=\"0.000\">")) << xml;
  run.started_at = "last night";
  xml = junit(verdict_list(report, run));
  EXPECT_FALSE(has(xml, "timestamp=")) << xml;
}

TEST(Junit, AcceptanceTimesEachStage) {
  const AcceptanceReport report = judge_acceptance({{{0, "0000:10:00.0", "GPU-uuid-0", "serial-0"}}, {}, std::nullopt, "no baseline", {}});
  AcceptanceTiming timing;
  timing.started_at = "2026-11-29T17:00:00Z";
  timing.seconds = 73.25;
  timing.stage_seconds = {{"doctor", 1.5}, {"performance", 41.75}, {"stress", 30}};
  const std::string xml = junit(verdict_list(report, "node1", timing));
  EXPECT_TRUE(has(xml, "<testsuite name=\"acceptance.node1\" tests=\"5\" failures=\"0\" errors=\"0\" skipped=\"0\" "
                       "timestamp=\"2026-11-29T17:00:00\" hostname=\"node1\" time=\"73.250\">"))
      << xml;
  EXPECT_TRUE(has(xml, "<testcase classname=\"acceptance.node1.node\" name=\"doctor\" time=\"1.500\">")) << xml;
  EXPECT_TRUE(has(xml, "<testcase classname=\"acceptance.node1.gpu0\" name=\"performance\" time=\"41.750\">")) << xml;
  EXPECT_TRUE(has(xml, "<testcase classname=\"acceptance.node1.gpu0\" name=\"stress\" time=\"30.000\">")) << xml;
}

}  // namespace
}  // namespace gpubench
