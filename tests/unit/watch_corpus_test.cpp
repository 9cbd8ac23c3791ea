// The rules on real timelines: every job of tests/watch_jobs/corpus.json as `gpubench watch` recorded it on an H200
// (tests/data/watch/corpus/README.md), diagnosed again with today's rules and the ceilings it was held against. Each
// must name exactly the rules the job was made to show, each with its cause, and nothing else; a healthy job gets
// "no bottleneck found". A change of rule that would misdiagnose a real job fails here.
#include <gtest/gtest.h>

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "harness/watch/diagnosis_rules.hpp"
#include "harness/watch/watch_document.hpp"

namespace gpubench {
namespace {

struct CorpusJob {
  std::string name;
  std::map<std::string, std::string> fired;  // rule -> cause
  bool held_out = false;
};

std::vector<CorpusJob> corpus() {
  std::ifstream in(std::string(GPUBENCH_TEST_DATA) + "/../watch_jobs/corpus.json");
  const nlohmann::json manifest = nlohmann::json::parse(in);
  std::vector<CorpusJob> jobs;
  for (const nlohmann::json& job : manifest.at("jobs")) {
    CorpusJob j{job.at("name").get<std::string>(), job.at("fired").get<std::map<std::string, std::string>>(),
                job.value("held_out", false)};
    jobs.push_back(std::move(j));
  }
  return jobs;
}

std::map<std::string, std::string> fired_rules(const GpuDiagnosis& diagnosis) {
  std::map<std::string, std::string> fired;
  for (const WatchFinding& finding : diagnosis.findings) {
    if (finding.outcome == RuleOutcome::Fired) fired[finding.rule] = finding.cause;
  }
  return fired;
}

class WatchCorpus : public testing::TestWithParam<CorpusJob> {};

TEST_P(WatchCorpus, DiagnosedAsTheJobWasMade) {
  const WatchDocument recorded =
      read_watch_file(std::string(GPUBENCH_TEST_DATA) + "/watch/corpus/" + GetParam().name + ".json");
  ASSERT_EQ(recorded.timeline.gpus.size(), 1u);
  ASSERT_FALSE(recorded.ceilings.gpus.empty()) << "the document lost its ceilings";
  const std::vector<GpuDiagnosis> again = diagnose(recorded.timeline, recorded.ceilings.gpus);
  ASSERT_EQ(again.size(), 1u);
  std::string evidence;
  for (const WatchFinding& f : again[0].findings) {
    if (f.outcome == RuleOutcome::Fired) evidence += "\n  " + f.rule + ": " + f.evidence;
  }
  EXPECT_EQ(fired_rules(again[0]), GetParam().fired) << again[0].summary << evidence;
  if (GetParam().fired.empty()) EXPECT_EQ(again[0].summary.rfind("no bottleneck found", 0), 0u) << again[0].summary;
}

TEST(WatchCorpusManifest, HoldsEveryKindOfStarvedGpuTwiceAndTwoHealthyJobs) {
  std::map<std::string, int> causes;
  int healthy = 0;
  for (const CorpusJob& job : corpus()) {
    healthy += job.fired.empty();
    if (const auto starved = job.fired.find("gpu_starved"); starved != job.fired.end()) ++causes[starved->second];
  }
  EXPECT_GE(healthy, 2);
  for (const char* cause : {"host_thread", "cpu_preprocessing"}) EXPECT_GE(causes[cause], 2) << cause;
  for (const char* cause : {"waiting_sleep", "waiting_disk", "waiting_network"}) EXPECT_GE(causes[cause], 1) << cause;
  EXPECT_GE(causes["waiting_sleep"] + causes["waiting_disk"] + causes["waiting_network"], 3);
  EXPECT_GE(corpus().size(), 12u);
}

INSTANTIATE_TEST_SUITE_P(H200, WatchCorpus, testing::ValuesIn(corpus()),
                         [](const testing::TestParamInfo<CorpusJob>& info) { return info.param.name; });

}  // namespace
}  // namespace gpubench
