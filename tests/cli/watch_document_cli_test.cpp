// `gpubench watch` end to end, read back by the readers show and report use: the document it writes is a valid
// watch timeline (watch_timeline_from_json) and a valid watch document (read_watch_file) holding the job's end; with
// every GPU hidden from CUDA the GPU rules say why they could not run. tests/cli/watch_command_test.py covers the rest.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdio>

#include "harness/results/results_io.hpp"
#include "harness/runner/child_process.hpp"
#include "harness/watch/watch_document.hpp"

namespace gpubench {
namespace {

int watch(const std::vector<std::string>& job, const std::string& output) {
  std::vector<std::string> argv{GPUBENCH_BINARY, "watch", "--no-color", "--interval", "0.2s", "-o", output, "--"};
  argv.insert(argv.end(), job.begin(), job.end());
  // Hidden from CUDA, the GPUs of a machine that has them are not watched: the same outcome everywhere.
  ChildCommand command{argv, {{"CUDA_VISIBLE_DEVICES", "-1"}}, "/dev/null", "/dev/null", std::chrono::seconds(60)};
  return run_child(command, nullptr, {}).exit_code;
}

TEST(WatchCli, TheDocumentReadsBackAsATimelineAndADocument) {
  const std::string output = "/tmp/gpubench-watch-cli-test-" + std::to_string(getpid()) + ".json";
  ASSERT_EQ(watch({"sh", "-c", "sleep 1.2; exit 4"}, output), 4);
  const WatchTimeline timeline = watch_timeline_from_json(read_json_file(output), output);
  EXPECT_EQ(timeline.command, (std::vector<std::string>{"sh", "-c", "sleep 1.2; exit 4"}));
  EXPECT_EQ(timeline.interval_s, 0.2);
  EXPECT_TRUE(timeline.gpus.empty());
  const WatchDocument document = read_watch_file(output);
  ASSERT_TRUE(document.job);
  EXPECT_EQ(document.job->status, 4);
  EXPECT_EQ(*document.job->exit_code, 4);
  EXPECT_GE(document.duration_s, 1.1);
  EXPECT_FALSE(document.gpu_unavailable.empty());  // CUDA sees no GPU, or there is no NVML at all
  EXPECT_TRUE(document.diagnosis.empty());
  std::remove(output.c_str());
}

}  // namespace
}  // namespace gpubench
