// A month-long stress run on eight GPUs, recorded as run_stress records it (a telemetry reading a second and a
// throughput window every 5 s, per GPU), judged and written by the code `gpubench stress` writes with: the document
// keeps its size bound (harness/stress/bounded_series.hpp), and `gpubench show` and `gpubench report` read it back
// within a bounded peak memory, as the kernel counts it for each process (ru_maxrss, what /usr/bin/time -v shows).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <spawn.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <iostream>
#include <random>

#include "harness/results/results_io.hpp"
#include "harness/runner/run_record.hpp"
#include "harness/stress/bounded_series.hpp"
#include "harness/stress/stress_document.hpp"

extern char** environ;

namespace gpubench {
namespace {

namespace fs = std::filesystem;

constexpr int kGpus = 8;
constexpr double kMonthS = 30 * 86400;

// One GPU's month as the stress run records it: NVML's readings a little over a second apart (the telemetry thread
// sleeps a second after reading every GPU), values with NVML's precision, and a window every 5 s.
GpuStressRecord month_of(int index) {
  std::mt19937 draw(static_cast<unsigned>(index));
  std::uniform_int_distribution<int> temperature(55, 74), clock_step(0, 18);
  std::uniform_real_distribution<double> power(640, 700), tflops(680, 700);
  GpuStressRecord gpu;
  gpu.index = index;
  gpu.name = "NVIDIA H200";
  gpu.power_limit_w = 700;
  gpu.slowdown_threshold_c = 87;
  gpu.gemm_runs = 40000000;
  for (double t = 0.012; t < kMonthS; t += 1.000004) {
    const double watts = std::round(power(draw) * 1000) / 1000;
    const double sm_clock = 1710.0 + 15 * clock_step(draw);
    gpu.telemetry.push_back({t, double(temperature(draw)), watts, sm_clock, 2619, watts > 695 ? 4u : 0u, 0, 0});
  }
  for (double t = 0; t + 5 <= kMonthS; t += 5) gpu.windows.push_back({t, t + 5, tflops(draw)});
  return gpu;
}

// Writes the month's document to `path` as `gpubench stress` writes its own.
void write_month(const std::string& path) {
  std::vector<GpuStressRecord> gpus;
  std::vector<int> devices;
  for (int g = 0; g < kGpus; ++g) {
    gpus.push_back(month_of(g));
    devices.push_back(g);
  }
  ResultsDocument document = start_results_document({"gpubench", "stress", "--duration", "30d"}, "stress", devices,
                                                    nullptr, "a synthetic month, no NVML");
  const StressLimits limits;
  add_stress_to_document(gpus, judge_stress(gpus, limits), limits, kMonthS, document);
  finish_results_document(document);
  write_json_atomically(to_json(document), path);
}

struct Finished {
  int exit_code = -1;
  long peak_kib = 0;  // the most memory it held at once
};

Finished run_measured(const std::vector<std::string>& arguments, const fs::path& folder) {
  std::vector<char*> argv;
  for (const std::string& a : arguments) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  const std::string out = (folder / "out.txt").string(), err = (folder / "err.txt").string();
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  const int spawned = posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  Finished finished;
  if (spawned != 0) return finished;
  int status = 0;
  rusage usage{};
  if (wait4(pid, &status, 0, &usage) != pid) return finished;
  finished.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  finished.peak_kib = usage.ru_maxrss;
  return finished;
}

TEST(LongStressDocument, AMonthOnEightGpusIsBoundedAndShowAndReportReadItInBoundedMemory) {
  const fs::path folder = fs::temp_directory_path() / ("gpubench-long-stress-" + std::to_string(getpid()));
  fs::remove_all(folder);
  fs::create_directories(folder);
  const std::string path = (folder / "month-stress.json").string();
  // Written by a child of its own: a process started later counts the memory its parent held at the start in its
  // peak (Linux keeps the high-water mark across fork and exec), and the month takes gigabytes to record.
  const pid_t writer = fork();
  ASSERT_GE(writer, 0);
  if (writer == 0) {
    write_month(path);
    _exit(0);
  }
  int status = 1;
  ASSERT_EQ(waitpid(writer, &status, 0), writer);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);

  // Bounded: a peak that does not grow with the run, measured at 621 MiB for each.
  constexpr long kMostKib = 1L << 20;
  const Finished show = run_measured({GPUBENCH_BINARY, "show", path}, folder);
  EXPECT_EQ(show.exit_code, 0);
  const Finished report =
      run_measured({GPUBENCH_BINARY, "report", path, "-o", (folder / "month.html").string()}, folder);
  EXPECT_EQ(report.exit_code, 0);
  std::cout << "peak memory: show " << show.peak_kib / 1024 << " MiB, report " << report.peak_kib / 1024 << " MiB\n";
  EXPECT_GT(show.peak_kib, 0);
  EXPECT_LT(show.peak_kib, kMostKib);
  EXPECT_LT(report.peak_kib, kMostKib);

  const std::uintmax_t bytes = fs::file_size(path);
  std::cout << "a month on " << kGpus << " GPUs: " << bytes / 1e6 << " MB\n";
  EXPECT_LT(bytes, kGpus * (std::uintmax_t{32} << 20)) << "at most 32 MiB a GPU, however long the run";
  // Read here only now: this process's own peak would count in the peaks of the processes it starts after.
  const ResultsDocument read = read_results_file(path);
  for (const nlohmann::json& gpu : read.stress.at("gpus")) {
    EXPECT_EQ(gpu.at("telemetry").at("samples").size(), kMostRecentEntries) << "the last day, a reading a second";
    EXPECT_LE(gpu.at("telemetry").at("buckets").at("samples").size(), kMostBuckets);
    EXPECT_EQ(gpu.at("telemetry").at("buckets").at("samples").at(0).at(1), 600) << "10-minute buckets";
    EXPECT_LE(gpu.at("windows").size(), 86400 / 5 + 1 + kMostBuckets);
  }

  fs::remove_all(folder);
}

}  // namespace
}  // namespace gpubench
