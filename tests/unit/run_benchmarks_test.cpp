// run_benchmarks against a stand-in for gpubench-micro (a shell script) that lists two memory benchmarks, writes
// the result of the first and crashes: it is listed once per environment, what finished is kept, the family's
// crash is recorded, and the benchmark it never reached gets a failure of its own, so that a baseline check can
// call its metric failed, not missing. A family of the suite that the stand-in does not list at all fails.
#include "harness/runner/run_benchmarks.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <string>

#include "harness/results/failure_advice.hpp"
#include "harness/runner/remeasure.hpp"
#include "temp_folder.hpp"

namespace gpubench {
namespace {

const char* kCrashingMicro = R"(#!/bin/sh
for arg in "$@"; do
  case "$arg" in
    --benchmark_list_tests=true) echo listed >> "$(dirname "$0")/listings"
                                 printf 'memory/triad/1GiB/gpu0\nmemory/copy/1GiB/gpu0\n'; exit 0 ;;
    --benchmark_out=*) out="${arg#--benchmark_out=}" ;;
  esac
done
cat > "$out" <<'JSON'
{"benchmarks": [{"name": "memory/triad/1GiB/gpu0/manual_time", "run_name": "memory/triad/1GiB/gpu0/manual_time",
  "run_type": "iteration", "value": 4300, "label": "figure=bandwidth;unit=GB/s;better=higher;device=0"}]}
JSON
kill -SEGV $$
)";

// Lists memory, gemm and launch benchmarks and measures every one, but for gemm: there it writes the first result
// and is killed (SIGKILL, as the kernel's OOM killer or an operator's kill -9 would end it), three benchmarks short.
const char* kKilledMidGemmMicro = R"sh(#!/bin/sh
for arg in "$@"; do
  case "$arg" in
    --benchmark_list_tests=true) printf 'memory/triad/1GiB/gpu0\nmemory/copy/1GiB/gpu0\n'
                                 printf 'gemm/bf16/8192x8192x8192/gpu0\ngemm/fp16/8192x8192x8192/gpu0\n'
                                 printf 'gemm/tf32/8192x8192x8192/gpu0\ngemm/fp32/8192x8192x8192/gpu0\n'
                                 printf 'launch/graph/100/gpu0\n'; exit 0 ;;
    --benchmark_out=*) out="${arg#--benchmark_out=}" ;;
  esac
done
result() {
  printf '{"name": "%s/manual_time", "run_name": "%s/manual_time", ' "$1" "$1"
  printf '"run_type": "iteration", "value": %s, "label": "figure=%s;unit=%s;better=higher;device=0"}' "$2" "$3" "$4"
}
case "$(basename "$out")" in
  memory.json) { echo '{"benchmarks": ['; result memory/triad/1GiB/gpu0 4300 bandwidth GB/s; echo ','
                 result memory/copy/1GiB/gpu0 4200 bandwidth GB/s; echo ']}'; } > "$out" ;;
  gemm.json) { echo '{"benchmarks": ['; result gemm/bf16/8192x8192x8192/gpu0 690 tflops TFLOP/s; echo ']}'
             } > "$out"
             kill -KILL $$ ;;
  launch.json) { echo '{"benchmarks": ['; result launch/graph/100/gpu0 1.0 speedup x; echo ']}'; } > "$out" ;;
esac
exit 0
)sh";

// Lists one memory benchmark, writes its output half-way and then ends as $END says: killed (a kill -9 mid-write) or
// exiting 0 (a child that wrote a damaged file by itself).
const char* kCutOffMicro = R"(#!/bin/sh
for arg in "$@"; do
  case "$arg" in
    --benchmark_list_tests=true) printf 'memory/triad/1GiB/gpu0\n'; exit 0 ;;
    --benchmark_out=*) out="${arg#--benchmark_out=}" ;;
  esac
done
printf '{"benchmarks": [{"name": "memory/tri' > "$out"
[ "$END" = killed ] && kill -KILL $$
exit 0
)";

// Lists one memory benchmark and nothing of any other family; measures nothing.
const char* kMemoryOnlyMicro = R"(#!/bin/sh
for arg in "$@"; do
  case "$arg" in
    --benchmark_list_tests=true) printf 'memory/triad/1GiB/gpu0\n'; exit 0 ;;
  esac
done
exit 0
)";

// Lists a memory and an nccl benchmark; each run notes the NCCL_NVLS_ENABLE it was given beside its output.
const char* kNvlsNotingMicro = R"(#!/bin/sh
for arg in "$@"; do
  case "$arg" in
    --benchmark_list_tests=true) printf 'memory/triad/1GiB/gpu0\nnccl/allreduce/auto/auto/1GiB/out_of_place\n'; exit 0 ;;
    --benchmark_out=*) out="${arg#--benchmark_out=}" ;;
  esac
done
echo "$NCCL_NVLS_ENABLE" > "$out.nvls"
exit 0
)";

const Failure* failure_of(const ResultsDocument& document, const std::string& benchmark) {
  const auto it = std::find_if(document.failures.begin(), document.failures.end(),
                               [&](const Failure& f) { return f.benchmark == benchmark; });
  return it == document.failures.end() ? nullptr : &*it;
}

class RunBenchmarks : public TempFolderTest {
 protected:
  // Options for one repetition of each benchmark, with `script`, an executable file in the test's folder, standing
  // in for gpubench-micro and logging there.
  RunOptions options_with_stand_in(const char* script) const {
    RunOptions options;
    options.micro_path = (dir_ / "micro.sh").string();
    std::ofstream(options.micro_path) << script;
    EXPECT_EQ(chmod(options.micro_path.c_str(), 0755), 0);
    options.log_dir = dir_.string();
    options.repetitions = 1;
    return options;
  }
};

TEST_F(RunBenchmarks, ACrashedFamilyKeepsWhatFinishedAndFailsWhatItNeverReached) {
  RunOptions options = options_with_stand_in(kCrashingMicro);
  options.filter = "^memory/";
  const std::atomic<bool> stop{false};
  ResultsDocument document;
  run_benchmarks(options, {}, nullptr, RunObserver{}, stop, document);

  ASSERT_EQ(document.metrics.size(), 1u);
  EXPECT_EQ(document.metrics[0].id, "memory/triad/1GiB/gpu0/bandwidth");
  ASSERT_EQ(document.families.size(), 1u);
  EXPECT_EQ(document.families[0].status, "crashed");
  const Failure* family = failure_of(document, "memory");
  ASSERT_NE(family, nullptr);
  EXPECT_NE(family->reason.find("signal"), std::string::npos) << family->reason;
  EXPECT_EQ(family->kind, FailureKind::ChildCrashed);
  EXPECT_EQ(family->advice, advice_for_failure(FailureKind::ChildCrashed));
  const Failure* unreached = failure_of(document, "memory/copy/1GiB/gpu0");
  ASSERT_NE(unreached, nullptr) << "the benchmark the crash cut off has a failure of its own";
  EXPECT_EQ(unreached->reason, "not measured: memory was ended by signal Segmentation fault before reaching it");
  EXPECT_EQ(unreached->kind, FailureKind::ChildCrashed) << "its cause's kind";
  EXPECT_EQ(failure_of(document, "memory/triad/1GiB/gpu0"), nullptr) << "a finished benchmark is not failed";

  // gpubench-micro is listed once per distinct environment, not once per family variant.
  std::set<std::map<std::string, std::string>> environments;
  std::size_t variants = 0;
  for (const FamilySpec& family : families_in_suite("quick")) {
    for (const FamilyVariant& variant : family.variants) {
      environments.insert(variant.environment);
      ++variants;
    }
  }
  std::ifstream listed(dir_ / "listings");
  std::size_t listings = 0;
  for (std::string line; std::getline(listed, line);) ++listings;
  EXPECT_EQ(listings, environments.size());
  EXPECT_LT(listings, variants);
}

// A child killed while it wrote its output leaves the file cut off: the kill is the family's failure, and the cut-off
// file is its consequence, not a second failure. A child that exits by itself with such a file failed on its own.
TEST_F(RunBenchmarks, AnOutputCutOffByAKillIsTheKillsDoingAndADamagedOneAFailureOfItsOwn) {
  RunOptions options = options_with_stand_in(kCutOffMicro);
  options.filter = "^memory/";
  const std::atomic<bool> stop{false};
  for (const char* end : {"killed", "exited"}) {
    setenv("END", end, 1);
    ResultsDocument document;
    run_benchmarks(options, {}, nullptr, RunObserver{}, stop, document);
    const Failure* family = failure_of(document, "memory");
    ASSERT_NE(family, nullptr) << end;
    const bool killed = std::string(end) == "killed";
    EXPECT_EQ(family->kind, killed ? FailureKind::ChildCrashed : FailureKind::UnreadableOutput) << family->reason;
    EXPECT_EQ(family->reason.find("unreadable benchmark output") == std::string::npos, killed) << family->reason;
    std::size_t family_failures = 0;
    for (const Failure& f : document.failures) family_failures += f.benchmark == "memory" ? 1 : 0;
    EXPECT_EQ(family_failures, 1u) << end << ": one failure of the family, with one cause";
  }
  unsetenv("END");
}

// A child killed mid-family: each benchmark it never reached is failed on its own, naming the family and the cause,
// and the families before and after it keep what they measured. Several such failures are recorded one after
// another (each an append to document.failures), which once left all but the first naming no family.
TEST_F(RunBenchmarks, AChildKilledMidFamilyFailsEachLostBenchmarkWithItsFamilyAndCause) {
  RunOptions options = options_with_stand_in(kKilledMidGemmMicro);
  options.filter = "^(memory|gemm|launch)/";
  const std::atomic<bool> stop{false};
  ResultsDocument document;
  run_benchmarks(options, {}, nullptr, RunObserver{}, stop, document);

  std::set<std::string> measured;
  for (const Metric& m : document.metrics) measured.insert(m.benchmark);
  EXPECT_EQ(measured, (std::set<std::string>{"memory/triad/1GiB/gpu0", "memory/copy/1GiB/gpu0",
                                             "gemm/bf16/8192x8192x8192/gpu0", "launch/graph/100/gpu0"}))
      << "what finished before the kill, and the families around it, are kept";
  std::map<std::string, std::string> status;
  for (const FamilyRun& run : document.families) status[run.family] = run.status;
  EXPECT_EQ(status, (std::map<std::string, std::string>{{"memory", "ok"}, {"gemm", "crashed"}, {"launch", "ok"}}));

  const Failure* crash = failure_of(document, "gemm");
  ASSERT_NE(crash, nullptr);
  EXPECT_EQ(crash->family, "gemm");
  EXPECT_NE(crash->reason.find("Killed"), std::string::npos) << crash->reason;
  for (const char* lost :
       {"gemm/fp16/8192x8192x8192/gpu0", "gemm/tf32/8192x8192x8192/gpu0", "gemm/fp32/8192x8192x8192/gpu0"}) {
    const Failure* failure = failure_of(document, lost);
    ASSERT_NE(failure, nullptr) << lost;
    EXPECT_EQ(failure->family, "gemm") << lost;
    EXPECT_EQ(failure->kind, FailureKind::ChildCrashed) << lost;
    EXPECT_EQ(failure->advice, advice_for_failure(FailureKind::ChildCrashed)) << lost;
    EXPECT_EQ(failure->reason, "not measured: gemm was ended by signal Killed before reaching it") << lost;
  }
  EXPECT_EQ(document.failures.size(), 4u) << "the crash and its three lost benchmarks, nothing of memory or launch";
}

// --log-dir under folders that do not exist yet: the whole path is made (a single mkdir once left every
// benchmark failed, "not measured: memory failed", or ended in std::bad_alloc).
TEST_F(RunBenchmarks, ALogFolderUnderMissingFoldersIsMadeWhole) {
  RunOptions options = options_with_stand_in(kCrashingMicro);
  options.filter = "^memory/";
  options.log_dir = (dir_ / "nightly" / "logs" / "today").string();
  const std::atomic<bool> stop{false};
  ResultsDocument document;
  run_benchmarks(options, {}, nullptr, RunObserver{}, stop, document);
  ASSERT_EQ(document.metrics.size(), 1u) << "what the stand-in finished is read back from the log folder";
  EXPECT_TRUE(std::filesystem::exists(dir_ / "nightly" / "logs" / "today" / "memory.stderr.log"));
}

TEST_F(RunBenchmarks, AFamilyTheMicroDoesNotListFailsWithTheReasonUnlessAFilterLeftItOut) {
  RunOptions options = options_with_stand_in(kMemoryOnlyMicro);
  const std::atomic<bool> stop{false};

  ResultsDocument unfiltered;
  run_benchmarks(options, {}, nullptr, RunObserver{}, stop, unfiltered);
  EXPECT_EQ(failure_of(unfiltered, "memory"), nullptr);
  const Failure* gemm = failure_of(unfiltered, "gemm");
  ASSERT_NE(gemm, nullptr);
  EXPECT_NE(gemm->reason.find("lists no benchmark named gemm/"), std::string::npos) << gemm->reason;
  EXPECT_EQ(gemm->kind, FailureKind::CatalogueMismatch);
  EXPECT_NE(failure_of(unfiltered, "nccl.auto"), nullptr) << "each variant of a family";
  const auto gemm_run = std::find_if(unfiltered.families.begin(), unfiltered.families.end(),
                                     [](const FamilyRun& run) { return run.family == "gemm"; });
  ASSERT_NE(gemm_run, unfiltered.families.end());
  EXPECT_EQ(gemm_run->status, "failed");

  options.filter = "^memory/";
  ResultsDocument filtered;
  run_benchmarks(options, {}, nullptr, RunObserver{}, stop, filtered);
  EXPECT_TRUE(filtered.failures.empty()) << filtered.failures[0].reason;
}

std::string first_line(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::string line;
  std::getline(in, line);
  return line;
}

// NVLink multicast stays off in every child, also when this process's environment turns it on, unless the run
// allows it; then on for the nccl family only. The document records what the nccl family ran with.
TEST_F(RunBenchmarks, NvlsStaysOffUnlessAllowedAndThenOnlyForTheNcclFamily) {
  setenv("NCCL_NVLS_ENABLE", "1", 1);
  RunOptions options = options_with_stand_in(kNvlsNotingMicro);
  options.filter = "^(memory|nccl)/";
  const std::atomic<bool> stop{false};
  for (bool allow : {false, true}) {
    options.allow_nvls = allow;
    ResultsDocument document;
    run_benchmarks(options, {}, nullptr, RunObserver{}, stop, document);
    const std::string nccl = allow ? "1" : "0";
    EXPECT_EQ(first_line(dir_ / "memory.json.nvls"), "0") << "allowed: " << allow;
    EXPECT_EQ(first_line(dir_ / "nccl.auto.json.nvls"), nccl) << "allowed: " << allow;
    EXPECT_EQ(first_line(dir_ / "nccl.ring_simple.json.nvls"), nccl) << "allowed: " << allow;
    EXPECT_EQ(document.environment["variables"]["NCCL_NVLS_ENABLE"], nccl);
  }
  unsetenv("NCCL_NVLS_ENABLE");
  EXPECT_EQ(nvls_enable_for("nccl", false), "0");
  EXPECT_EQ(nvls_enable_for("gemm", true), "0");
  EXPECT_EQ(nvls_enable_for("nccl", true), "1");
}

// A regression of a run made with NVLS is not measured again with NVLS off, which would pass for a recovery.
TEST(Remeasure, LeavesNcclFiguresOfARunWithNvlsAlone) {
  ResultsDocument results;
  results.environment["variables"]["NCCL_NVLS_ENABLE"] = "1";
  Metric nccl;
  nccl.id = "nccl/allreduce/auto/auto/1GiB/out_of_place/busbw";
  nccl.benchmark = "nccl/allreduce/auto/auto/1GiB/out_of_place";
  nccl.family = "nccl";
  results.metrics.push_back(nccl);
  std::vector<std::string> notes;
  const std::atomic<bool> stop{false};
  remeasure(results, {nccl.id}, RemeasureOptions{3, "/nonexistent/gpubench-micro", "/nonexistent"}, nullptr, stop, notes);
  EXPECT_TRUE(results.confirmations.empty());
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_NE(notes[0].find("--allow-nvls"), std::string::npos) << notes[0];
}

}  // namespace
}  // namespace gpubench
