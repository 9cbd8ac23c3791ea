// The rules on five real timelines: the jobs of tests/watch_jobs/ as `gpubench watch` recorded them on an H200
// (tests/data/watch/h200_jobs/README.md). Each is diagnosed again with today's rules and the ceilings it was held
// against, and must name the bottleneck the job was made to show, and nothing else.
#include <gtest/gtest.h>

#include <set>
#include <string>

#include "harness/watch/diagnosis_rules.hpp"
#include "harness/watch/watch_document.hpp"

namespace gpubench {
namespace {

struct RecordedJob {
  const char* file;
  std::set<std::string> fired;  // empty: "no bottleneck found"
};

std::set<std::string> fired_rules(const GpuDiagnosis& diagnosis) {
  std::set<std::string> fired;
  for (const WatchFinding& finding : diagnosis.findings) {
    if (finding.outcome == RuleOutcome::Fired) fired.insert(finding.rule);
  }
  return fired;
}

class WatchRecordedJobs : public testing::TestWithParam<RecordedJob> {};

TEST_P(WatchRecordedJobs, DiagnosedAsTheJobWasMade) {
  const WatchDocument recorded =
      read_watch_file(std::string(GPUBENCH_TEST_DATA) + "/watch/h200_jobs/" + GetParam().file);
  ASSERT_EQ(recorded.timeline.gpus.size(), 1u);
  ASSERT_FALSE(recorded.ceilings.gpus.empty()) << "the document lost its ceilings";
  const std::vector<GpuDiagnosis> again = diagnose(recorded.timeline, recorded.ceilings.gpus);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(fired_rules(again[0]), GetParam().fired) << again[0].summary;
  if (GetParam().fired.empty()) EXPECT_EQ(again[0].summary.rfind("no bottleneck found", 0), 0u) << again[0].summary;
  // What watch concluded on the H200 stands.
  ASSERT_EQ(recorded.diagnosis.size(), 1u);
  EXPECT_EQ(fired_rules(recorded.diagnosis[0]), GetParam().fired);
}

INSTANTIATE_TEST_SUITE_P(
    H200, WatchRecordedJobs,
    testing::Values(RecordedJob{"input_bound.json", {"gpu_starved"}},
                    RecordedJob{"fp32_no_tf32.json", {"tensor_cores_idle"}},
                    RecordedJob{"elementwise_bandwidth.json", {"memory_bandwidth_bound"}},
                    RecordedJob{"pageable_copies.json", {"host_transfers_at_ceiling"}},
                    RecordedJob{"healthy_bf16.json", {}}),
    [](const testing::TestParamInfo<RecordedJob>& info) {
      const std::string file = info.param.file;
      return file.substr(0, file.find('.'));
    });

}  // namespace
}  // namespace gpubench
