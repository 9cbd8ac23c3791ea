// A host link at half speed fails a check on every node kind, on the figures it slowed and on nothing else; a
// healthy run passes. Real runs (one H200: tests/data/nightly_h200x1; two H200s: tests/data/two_h200_quick), with
// their host copies slowed as a halved link slows them, judged against the shipped baselines (baselines/), as
// `gpubench check --baseline baselines` judges them.
//
// What a halved link slows: pinned copies from 1 MiB up, whose time is the bytes over the link's rate (a 4 KiB copy
// is a few microseconds of latency and barely moves). Pageable copies go through a host bounce buffer and are
// host-bound: informational on any node but the baseline's.
#include <gtest/gtest.h>

#include <functional>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include "benchmarks/catalogue.hpp"
#include "benchmarks/common/metric_id.hpp"
#include "harness/results/id_pattern.hpp"
#include "harness/results/results_io.hpp"
#include "harness/verdict/metric_verdict.hpp"
#include "tests/unit/slowed_copies.hpp"

namespace gpubench {
namespace {

const std::string kData = GPUBENCH_TEST_DATA;
const std::string kOneGpuNight = kData + "/nightly_h200x1/night3.json";
const std::string kTwoGpuRun = kData + "/two_h200_quick/h200x2-quick-20261130.json";

const std::regex kH2dCopies("^pcie/(h2d|bidirectional_h2d)/pinned/(1MiB|64MiB|1GiB)/");
const std::regex kD2hCopies("^pcie/(d2h|bidirectional_d2h)/pinned/(1MiB|64MiB|1GiB)/");
// At x8 every pinned copy of 1 MiB and more runs at half its rate, both ways at once included.
const std::regex kEveryCopy("^pcie/[a-z_0-9]+/pinned/(1MiB|64MiB|1GiB)/");

std::set<std::string> ids_of(const CheckReport& report, const std::function<bool(const MetricVerdict&)>& which) {
  std::set<std::string> ids;
  for (const MetricVerdict& v : report.verdicts) {
    if (which(v)) ids.insert(v.id);
  }
  return ids;
}

std::set<std::string> failing(const CheckReport& report) {
  return ids_of(report, [](const MetricVerdict& v) {
    return v.kind == VerdictKind::Regression || v.kind == VerdictKind::Failed || v.kind == VerdictKind::Noisy;
  });
}

// The halved link fails the check, on its touched figures alone, and on every one of them its baseline judges.
void expect_fails_on_exactly(const CheckReport& report, const std::set<std::string>& touched, const std::string& link) {
  EXPECT_FALSE(report.passed());
  const std::set<std::string> failed = failing(report);
  EXPECT_FALSE(failed.empty());
  for (const std::string& id : failed) EXPECT_TRUE(touched.count(id)) << id << " failed, but the link did not touch it";
  for (const MetricVerdict& v : report.verdicts) {
    if (!touched.count(v.id)) continue;
    if (v.kind == VerdictKind::Informational) {
      EXPECT_TRUE(v.reason.find("could not catch a halved link") != std::string::npos) << v.id << ": " << v.reason;
      continue;
    }
    EXPECT_EQ(v.kind, VerdictKind::Regression) << v.id << ": " << v.reason;
    EXPECT_LT(v.change, -0.45) << v.id;
    if (link.empty()) {
      EXPECT_EQ(v.reason.find("PCIe link x"), std::string::npos) << v.reason;
    } else {
      EXPECT_NE(v.reason.find(link), std::string::npos) << v.id << ": " << v.reason;
    }
  }
}

TEST(HalvedLink, EveryHealthyRecordedRunPassesTheShippedBaselines) {
  for (const std::string& name :
       {"/nightly_h200x1/night1.json", "/nightly_h200x1/night2.json", "/nightly_h200x1/night3.json",
        "/nightly_h200x1/night_another_node.json", "/two_h200_quick/h200x2-quick-20261130.json",
        "/slowdown_h200x1/healthy.json", "/results_h200x1_memory_only.json"}) {
    const CheckReport report = check_against_shipped(read_results_file(kData + name));
    EXPECT_TRUE(report.passed()) << name;
    EXPECT_EQ(report.count(VerdictKind::Regression), 0) << name;
  }
}

// The one-H200 baseline judges every figure that decides acceptance: the noisy pinned H2D copies gate at the
// tolerance their noise allows, and graph launch is decided by graph replay's steady time per kernel.
TEST(HalvedLink, TheOneGpuBaselineJudgesEveryDecidingFigureOfAHealthyNight) {
  for (const std::string& name : {"night1.json", "night2.json", "night3.json", "night_another_node.json"}) {
    const CheckReport report = check_against_shipped(read_results_file(kData + "/nightly_h200x1/" + name));
    std::string unjudged;
    for (const UnjudgedFigure& f : report.unjudged_deciding) unjudged += f.id + ": " + f.reason + "\n";
    EXPECT_TRUE(report.unjudged_deciding.empty()) << name << "\n" << unjudged;
  }
}

TEST(HalvedLink, HostToDeviceAloneHalvedFailsOnItsCopiesAloneOnOneGpu) {
  ResultsDocument run = read_results_file(kOneGpuNight);
  const std::set<std::string> touched = slow_down(run, kH2dCopies, 0.5);
  const CheckReport report = check_against_shipped(run);
  expect_fails_on_exactly(report, touched, "");
  for (const char* deciding : {"pcie/h2d/pinned/1GiB/gpu0/bandwidth", "pcie/h2d/pinned/1GiB/all_gpus/bandwidth",
                               "pcie/bidirectional_h2d/pinned/1GiB/gpu0/bandwidth"}) {
    EXPECT_TRUE(failing(report).count(deciding)) << deciding;
  }
}

TEST(HalvedLink, DeviceToHostAloneHalvedFailsOnItsCopiesAloneOnOneGpu) {
  ResultsDocument run = read_results_file(kOneGpuNight);
  const std::set<std::string> touched = slow_down(run, kD2hCopies, 0.5);
  const CheckReport report = check_against_shipped(run);
  expect_fails_on_exactly(report, touched, "");
  for (const char* deciding : {"pcie/d2h/pinned/1GiB/gpu0/bandwidth", "pcie/bidirectional_d2h/pinned/1GiB/gpu0/bandwidth"}) {
    EXPECT_TRUE(failing(report).count(deciding)) << deciding;
  }
}

TEST(HalvedLink, AnX8LinkFailsOnEveryCopyAndNamesTheWidthOnOneGpu) {
  ResultsDocument run = read_results_file(kOneGpuNight);
  narrow_links_to(run, 8);
  const std::set<std::string> touched = slow_down(run, kEveryCopy, 0.5);
  const CheckReport report = check_against_shipped(run);
  expect_fails_on_exactly(report, touched, "PCIe link x8 of x16");
  EXPECT_TRUE(report.unjudged_deciding.empty());
}

TEST(HalvedLink, HostToDeviceAloneHalvedFailsOnItsCopiesAloneOnTwoGpus) {
  ResultsDocument run = read_results_file(kTwoGpuRun);
  expect_fails_on_exactly(check_against_shipped(run), slow_down(run, kH2dCopies, 0.5), "");
}

TEST(HalvedLink, DeviceToHostAloneHalvedFailsOnItsCopiesAloneOnTwoGpus) {
  ResultsDocument run = read_results_file(kTwoGpuRun);
  const std::set<std::string> touched = slow_down(run, kD2hCopies, 0.5);
  const CheckReport report = check_against_shipped(run);
  expect_fails_on_exactly(report, touched, "");
  EXPECT_TRUE(failing(report).count("pcie/bidirectional_d2h/pinned/1GiB/gpu0/bandwidth"));
}

TEST(HalvedLink, AnX8LinkFailsOnEveryCopyAndNamesTheWidthOnTwoGpus) {
  ResultsDocument run = read_results_file(kTwoGpuRun);
  narrow_links_to(run, 8);
  const std::set<std::string> touched = slow_down(run, kEveryCopy, 0.5);
  expect_fails_on_exactly(check_against_shipped(run), touched, "PCIe link x8 of x16");
}

// A link the run recorded at its maximum width is not named: the cause is elsewhere.
TEST(HalvedLink, AFullWidthLinkIsNotNamed) {
  ResultsDocument run = read_results_file(kTwoGpuRun);
  narrow_links_to(run, 16);
  expect_fails_on_exactly(check_against_shipped(run), slow_down(run, kEveryCopy, 0.5), "");
}

// A GPU 40 % slower at everything of its own fails the check on that GPU's figures alone.
TEST(HalvedLink, AGpuFortyPercentSlowerFailsOnThatGpuAloneOnTwoGpus) {
  ResultsDocument run = read_results_file(kTwoGpuRun);
  const std::set<std::string> touched =
      slow_down(run, [](const std::string& id) { return MetricId(id).gpu() == 0; }, 0.6);
  const CheckReport report = check_against_shipped(run);
  EXPECT_FALSE(report.passed());
  const std::set<std::string> failed = failing(report);
  for (const std::string& id : failed) EXPECT_EQ(MetricId(id).gpu(), 0) << id;
  for (const char* own : {"gemm/bf16/8192x8192x8192/gpu0/tflops", "memory/read/1GiB/gpu0/bandwidth",
                          "pcie/bidirectional_d2h/pinned/1GiB/gpu0/bandwidth"}) {
    EXPECT_TRUE(failed.count(own)) << own;
  }
}

}  // namespace
}  // namespace gpubench
