// `gpubench stress` on a real GPU: a clean short run passes, and the corruption checks catch a bit flipped on
// purpose in one GEMM result and in one memory word (the test-only --inject-fault option); the power and pulse
// loads run and report (and the pulse load, between its idle halves, still checks every result); copies under
// load run, checked, with a skip that says why where there is no peer.
#include <cuda_runtime.h>
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

StressOutcome stress(const std::vector<std::string>& extra, const std::string& duration = "12s", const std::string& devices = "0") {
  const std::string base = "/tmp/gpubench-stress-test-" + std::to_string(getpid());
  std::vector<std::string> argv = {GPUBENCH_BINARY, "stress", "--duration", duration, "--devices", devices, "-o", base + ".json"};
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

int gpu_count() {
  int count = 0;
  return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
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
  std::size_t free_bytes = 0, total_bytes = 0;
  ASSERT_EQ(cudaMemGetInfo(&free_bytes, &total_bytes), cudaSuccess);
  // The run's own GEMM buffers (640 MiB), cuBLAS, its context and the 512 MiB reserve come to under 3 GiB.
  EXPECT_GT(gpu["memtest_bytes"].get<double>(), static_cast<double>(free_bytes) - 3.0 * (1 << 30)) << "all free memory but a reserve";
}

// 20 s: the 10 s warm-up, then enough readings for the rule; a healthy card reaches its limit (or, at full clocks,
// warns that the load is too light for it: either way it is judged and does not fail).
TEST(StressOnGpu, ThePowerLoadReportsWhetherItReachedThePowerLimit) {
  GPUBENCH_REQUIRE_GPU();
  const StressOutcome outcome = stress({"--mode", "power"}, "20s");
  EXPECT_EQ(outcome.exit_code, 0) << outcome.out;
  ASSERT_TRUE(outcome.results.contains("stress")) << outcome.out;
  EXPECT_EQ(outcome.results["stress"]["mode"], "power");
  const nlohmann::json& power = outcome.results["stress"]["gpus"][0]["power"];
  EXPECT_TRUE(power["judged"].get<bool>()) << power.dump(2);
  EXPECT_GT(power["limit_w"].get<double>(), 0);
  EXPECT_GT(power["median_w"].get<double>(), 0);
  EXPECT_NE(outcome.out.find("power.target_"), std::string::npos) << outcome.out;
}

TEST(StressOnGpu, ThePulseLoadRunsEveryPeriodAndStillCatchesAFlippedBit) {
  GPUBENCH_REQUIRE_GPU();
  const StressOutcome clean = stress({"--mode", "pulse"}, "15s");
  EXPECT_EQ(clean.exit_code, 0) << clean.out;
  const nlohmann::json& periods = clean.results["stress"]["gpus"][0]["pulse"]["periods"];
  ASSERT_EQ(periods.size(), 3u) << clean.results["stress"]["gpus"][0].dump(2);
  for (const nlohmann::json& period : periods) EXPECT_GT(period["bursts"].get<int>(), 0) << period.dump();
  EXPECT_GT(periods[0]["bursts"].get<int>(), 100) << "4 s of 10 ms periods";
  const StressOutcome faulty = stress({"--mode", "pulse", "--inject-fault", "gemm"});
  EXPECT_EQ(faulty.exit_code, 1) << faulty.out;
  EXPECT_EQ(faulty.results["stress"]["gpus"][0]["gemm_mismatches"], 1);
}

TEST(StressOnGpu, CopiesUnderLoadAreCheckedAndAMissingPeerIsSaidSo) {
  GPUBENCH_REQUIRE_GPU();
  const StressOutcome alone = stress({"--interconnect"});
  EXPECT_EQ(alone.exit_code, 0) << alone.out;
  const nlohmann::json& links = alone.results["stress"]["gpus"][0]["interconnect"];
  EXPECT_EQ(links["p2p_skipped"], "one GPU in the run, no peer to copy from");
  EXPECT_GT(links["pcie_copies"].get<int>(), 0);
  EXPECT_EQ(links["pcie_mismatches"], 0);
  if (gpu_count() < 2) GTEST_SKIP() << "P2P copies need two GPUs";
  const StressOutcome pair = stress({"--interconnect"}, "12s", "0,1");
  EXPECT_EQ(pair.exit_code, 0) << pair.out;
  for (const nlohmann::json& gpu : pair.results["stress"]["gpus"]) {
    if (!gpu["interconnect"]["p2p_skipped"].get<std::string>().empty()) continue;  // no peer access: said why
    EXPECT_GT(gpu["interconnect"]["p2p_copies"].get<int>(), 0) << gpu["interconnect"].dump();
    EXPECT_EQ(gpu["interconnect"]["p2p_mismatches"], 0);
  }
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
  // A pass follows each 5 s GEMM window: 30 s holds the 5 patterns' first passes.
  const StressOutcome outcome = stress({"--inject-fault", "memory"}, "30s");
  EXPECT_EQ(outcome.exit_code, 1) << outcome.out;
  EXPECT_NE(outcome.out.find("corruption.memory"), std::string::npos) << outcome.out;
  const nlohmann::json& gpu = outcome.results["stress"]["gpus"][0];
  ASSERT_GE(gpu["memtest_passes"].get<int>(), 5) << "30 s should hold a pass of each of the 5 patterns";
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
