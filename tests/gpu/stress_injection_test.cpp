// `gpubench stress` on a real GPU: a clean short run passes, and the corruption checks catch a bit flipped on
// purpose in one GEMM result and in one memory word (the test-only --inject-fault option).
#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "harness/results/results_io.hpp"
#include "harness/runner/child_process.hpp"
#include "tests/gpu/gpu_test_support.hpp"

namespace gpubench {
namespace {

struct StressOutcome {
  int exit_code;
  std::string out;
  nlohmann::json results;
};

StressOutcome stress(const std::vector<std::string>& extra) {
  const std::string base = "/tmp/gpubench-stress-test-" + std::to_string(getpid());
  std::vector<std::string> argv = {GPUBENCH_BINARY, "stress", "--duration", "12s", "--devices", "0", "-o", base + ".json"};
  argv.insert(argv.end(), extra.begin(), extra.end());
  ChildCommand command{argv, {}, base + ".out", base + ".err", std::chrono::seconds(120)};
  const ChildOutcome outcome = run_child(command, nullptr, {});
  std::ifstream in(base + ".out");
  std::ostringstream text;
  text << in.rdbuf();
  StressOutcome result{outcome.exit_code, text.str(), nlohmann::json()};
  std::ifstream written(base + ".json");
  if (written.good()) result.results = read_json_file(base + ".json");
  for (const char* suffix : {".json", ".out", ".err"}) std::remove((base + suffix).c_str());
  return result;
}

TEST(StressOnGpu, ACleanRunPasses) {
  GPUBENCH_REQUIRE_GPU();
  const StressOutcome outcome = stress({});
  EXPECT_EQ(outcome.exit_code, 0) << outcome.out;
  ASSERT_TRUE(outcome.results.contains("stress")) << outcome.out;
  const nlohmann::json& gpu = outcome.results["stress"]["gpus"][0];
  EXPECT_NE(gpu["verdict"], "fail") << gpu.dump(2);
  EXPECT_GT(gpu["gemm_runs"].get<int>(), 0);
  EXPECT_GT(gpu["memtest_passes"].get<int>(), 0);
  EXPECT_EQ(gpu["gemm_mismatches"], 0);
  EXPECT_EQ(gpu["memtest_errors"], 0);
  EXPECT_GE(gpu["telemetry"]["samples"].size(), 5u) << "about one NVML sample a second";
}

TEST(StressOnGpu, AFlippedBitInAGemmResultIsCaught) {
  GPUBENCH_REQUIRE_GPU();
  const StressOutcome outcome = stress({"--inject-fault", "gemm"});
  EXPECT_EQ(outcome.exit_code, 1) << outcome.out;
  EXPECT_NE(outcome.out.find("corruption.gemm"), std::string::npos) << outcome.out;
  EXPECT_EQ(outcome.results["stress"]["gpus"][0]["gemm_mismatches"], 1);
}

// The fault is injected once into each pattern's first pass: every pattern, moving inversions included, must
// find it, once, with its address and the bit that flipped.
TEST(StressOnGpu, AFlippedBitInMemoryIsCaughtByEveryPatternWithItsAddress) {
  GPUBENCH_REQUIRE_GPU();
  const StressOutcome outcome = stress({"--inject-fault", "memory"});
  EXPECT_EQ(outcome.exit_code, 1) << outcome.out;
  EXPECT_NE(outcome.out.find("corruption.memory"), std::string::npos) << outcome.out;
  const nlohmann::json& gpu = outcome.results["stress"]["gpus"][0];
  ASSERT_GE(gpu["memtest_passes"].get<int>(), 5) << "12 s should hold a pass of each of the 5 patterns";
  EXPECT_EQ(gpu["memtest_errors"], 5);
  const std::vector<std::string> samples = gpu["memtest_error_samples"].get<std::vector<std::string>>();
  ASSERT_EQ(samples.size(), 5u) << gpu.dump(2);
  for (const char* pattern : {"walking_ones:", "walking_zeros:", "random:", "address_in_address:", "moving_inversions:"}) {
    const auto found = std::find_if(samples.begin(), samples.end(), [&](const std::string& sample) {
      return sample.rfind(pattern, 0) == 0 && sample.find("bits 0x0000000000020000") != std::string::npos;
    });
    EXPECT_NE(found, samples.end()) << pattern << " did not report the flipped bit: " << gpu["memtest_error_samples"];
  }
}

}  // namespace
}  // namespace gpubench
