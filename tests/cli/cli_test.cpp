// End-to-end tests of the gpubench and gpubench-micro binaries: usage errors and exit codes, and what they
// do with no usable GPU (CUDA_VISIBLE_DEVICES=-1 hides every GPU, so these run the same on any machine).
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "harness/environment/fingerprint.hpp"
#include "harness/results/gbench_import.hpp"
#include "harness/results/results_io.hpp"
#include "harness/runner/child_process.hpp"

namespace gpubench {
namespace {

struct Outcome {
  int exit_code;
  std::string out;
  std::string err;
};

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

Outcome run(std::vector<std::string> argv, std::map<std::string, std::string> env = {}) {
  const std::string base = "/tmp/gpubench-cli-test-" + std::to_string(getpid());
  ChildCommand command{std::move(argv), std::move(env), base + ".out", base + ".err", std::chrono::seconds(120)};
  const ChildOutcome outcome = run_child(command, nullptr, {});
  Outcome result{outcome.exit_code, slurp(base + ".out"), slurp(base + ".err")};
  std::remove((base + ".out").c_str());
  std::remove((base + ".err").c_str());
  return result;
}

const std::map<std::string, std::string> kNoGpu = {{"CUDA_VISIBLE_DEVICES", "-1"}};

// How a run without a GPU begins its reason: CUDA's own words where a driver is installed, else that there is none
// (CUDA would call a missing driver "insufficient").
std::string no_gpu_words() {
  return library_loadable("libcuda.so.1") || library_loadable("libnvidia-ml.so.1") ? "cudaError" : "no NVIDIA driver found";
}

TEST(Cli, HelpAndVersionExitZero) {
  const Outcome help = run({GPUBENCH_BINARY, "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("run"), std::string::npos);
  const Outcome version = run({GPUBENCH_BINARY, "--version"});
  EXPECT_EQ(version.exit_code, 0);
  EXPECT_NE(version.out.find("gpubench"), std::string::npos);
}

TEST(Cli, UsageErrorsExitTwoWithAMessage) {
  const Outcome none = run({GPUBENCH_BINARY});
  EXPECT_EQ(none.exit_code, 2);
  const Outcome unknown = run({GPUBENCH_BINARY, "frobnicate"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_FALSE(unknown.err.empty());
  const Outcome suite = run({GPUBENCH_BINARY, "run", "--suite", "medium"}, kNoGpu);
  EXPECT_EQ(suite.exit_code, 2);
  EXPECT_NE(suite.err.find("--suite"), std::string::npos) << suite.err;
  const Outcome reps = run({GPUBENCH_BINARY, "run", "--repetitions", "0"}, kNoGpu);
  EXPECT_EQ(reps.exit_code, 2);
  const Outcome option = run({GPUBENCH_BINARY, "run", "--no-such-option"}, kNoGpu);
  EXPECT_EQ(option.exit_code, 2);
  const Outcome endless = run({GPUBENCH_BINARY, "stress", "--duration", "99999999999h"}, kNoGpu);
  EXPECT_EQ(endless.exit_code, 2);
  EXPECT_NE(endless.err.find("longer than 30 days"), std::string::npos) << endless.err;
}

TEST(Cli, RunWithoutAGpuExitsThreeWithCudasReason) {
  const Outcome outcome = run({GPUBENCH_BINARY, "run", "-o", "/tmp/gpubench-never-written.json"}, kNoGpu);
  EXPECT_EQ(outcome.exit_code, 3) << outcome.err;
  EXPECT_NE(outcome.err.find("no usable GPU"), std::string::npos) << outcome.err;
  EXPECT_NE(outcome.err.find(no_gpu_words()), std::string::npos) << "CUDA's own words, or no driver: " << outcome.err;
  std::ifstream written("/tmp/gpubench-never-written.json");
  EXPECT_FALSE(written.good());
}

TEST(Cli, ListWorksWithoutAGpu) {
  const Outcome outcome = run({GPUBENCH_BINARY, "list"}, kNoGpu);
  EXPECT_EQ(outcome.exit_code, 0) << outcome.err;
  EXPECT_NE(outcome.out.find("memory/triad/1GiB/gpu0"), std::string::npos) << outcome.out;
  const Outcome json = run({GPUBENCH_BINARY, "list", "--json"}, kNoGpu);
  ASSERT_EQ(json.exit_code, 0);
  const auto families = nlohmann::json::parse(json.out);
  ASSERT_TRUE(families.is_array());
  EXPECT_EQ(families[0]["family"], "memory");
  EXPECT_EQ(families[0]["suites"], nlohmann::json({"quick", "full"}));
  // --suite quick lists what the quick suite runs: the 8192^3 GEMM, not the full suite's 1024^3.
  const Outcome quick = run({GPUBENCH_BINARY, "list", "--suite", "quick", "--filter", "^gemm/bf16/"}, kNoGpu);
  ASSERT_EQ(quick.exit_code, 0) << quick.err;
  EXPECT_NE(quick.out.find("gemm/bf16/8192x8192x8192/gpu0"), std::string::npos) << quick.out;
  EXPECT_EQ(quick.out.find("gemm/bf16/1024x1024x1024/gpu0"), std::string::npos) << quick.out;
  EXPECT_EQ(outcome.out, run({GPUBENCH_BINARY, "list", "--suite", "quick"}, kNoGpu).out)
      << "the quick suite by default, as `run` runs it";
  const Outcome full = run({GPUBENCH_BINARY, "list", "--suite", "full"}, kNoGpu);
  EXPECT_NE(full.out.find("gemm/bf16/1024x1024x1024/gpu0"), std::string::npos) << full.out;
  EXPECT_EQ(run({GPUBENCH_BINARY, "list", "--suite", "medium"}, kNoGpu).exit_code, 2);
}

// A filter lists the families that have a benchmark it matches, and no other family's heading; nothing matched is
// said, not shown as an empty catalogue.
TEST(Cli, ListWithAFilterShowsOnlyTheFamiliesItMatches) {
  const Outcome triad = run({GPUBENCH_BINARY, "list", "--filter", "triad"}, kNoGpu);
  ASSERT_EQ(triad.exit_code, 0) << triad.err;
  std::vector<std::string> headings;
  std::istringstream lines(triad.out);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line[0] != ' ') headings.push_back(line.substr(0, line.find(' ')));
    if (!line.empty() && line[0] == ' ') EXPECT_NE(line.find("triad"), std::string::npos) << line;
  }
  EXPECT_EQ(headings, (std::vector<std::string>{"memory", "blocksize"})) << triad.out;
  const auto json = nlohmann::json::parse(run({GPUBENCH_BINARY, "list", "--filter", "triad", "--json"}, kNoGpu).out);
  ASSERT_EQ(json.size(), 2u);
  EXPECT_EQ(json[1]["family"], "blocksize");
  const Outcome none = run({GPUBENCH_BINARY, "list", "--filter", "no-such-benchmark"}, kNoGpu);
  EXPECT_EQ(none.exit_code, 0);
  EXPECT_EQ(none.out, "");
  EXPECT_NE(none.err.find("no benchmark of the quick suite matches --filter no-such-benchmark"), std::string::npos)
      << none.err;
}

TEST(Cli, EnvWorksWithoutAGpuAndSaysWhy) {
  const Outcome outcome = run({GPUBENCH_BINARY, "env", "--json"}, kNoGpu);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const auto env = nlohmann::json::parse(outcome.out);
  EXPECT_NE(env["cuda_status"].get<std::string>(), "ok");
  EXPECT_TRUE(env["gpus"].empty());
  EXPECT_TRUE(env["versions"].contains("cuda_runtime"));
  EXPECT_TRUE(env["versions"].contains("nccl"));
  EXPECT_EQ(env["variables"]["CUDA_VISIBLE_DEVICES"], "-1") << "result-changing variables are recorded";
  const Outcome text = run({GPUBENCH_BINARY, "env"}, kNoGpu);
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("CUDA"), std::string::npos);
}

TEST(Cli, DoctorWithoutAGpuExitsThreeAndStillJudgesTheHost) {
  std::map<std::string, std::string> env = kNoGpu;
  env["CUDA_LAUNCH_BLOCKING"] = "1";
  const Outcome json = run({GPUBENCH_BINARY, "doctor", "--json"}, env);
  EXPECT_EQ(json.exit_code, 3) << json.err;
  EXPECT_NE(json.err.find("no usable GPU"), std::string::npos) << json.err;
  const auto findings = nlohmann::json::parse(json.out);
  ASSERT_TRUE(findings.is_array());
  const auto severity_of = [&findings](const std::string& check) -> std::string {
    for (const auto& f : findings) {
      if (f["check"] == check) return f["severity"];
    }
    return "absent";
  };
  EXPECT_EQ(severity_of("cuda.no_gpu"), "critical");
  EXPECT_NE(findings[0]["finding"].get<std::string>().find(no_gpu_words()), std::string::npos) << "CUDA's own words, worst first";
  EXPECT_EQ(severity_of("env.cuda_launch_blocking"), "warning");
  EXPECT_EQ(severity_of("env.cuda_visible_devices"), "info");
  EXPECT_NE(severity_of("cpu.governor"), "absent") << "the governor is judged, or said to be unreadable";
  const Outcome text = run({GPUBENCH_BINARY, "doctor"}, env);
  EXPECT_EQ(text.exit_code, 3) << text.err;
  for (const char* check : {"cuda.no_gpu", "env.cuda_launch_blocking", "cpu.governor", "fix: "}) {
    EXPECT_NE(text.out.find(check), std::string::npos) << check << " in:\n" << text.out;
  }
  EXPECT_EQ(run({GPUBENCH_BINARY, "doctor", "--no-such-option"}, env).exit_code, 2);
}

// --expect: a bad profile is bad usage (exit 2, naming the file and the field) before anything is read; a good one
// is held against the node, which without a GPU has none of the GPUs it expects.
TEST(Cli, DoctorExpectRefusesABadProfileAndHoldsTheNodeAgainstAGoodOne) {
  const std::string file = "/tmp/gpubench-cli-profile-" + std::to_string(getpid()) + ".json";
  for (const char* command : {"doctor", "acceptance"}) {
    std::ofstream(file) << R"({"gpu_count": 8, "nvlink_speed": 26.562})";
    const Outcome typo = run({GPUBENCH_BINARY, command, "--expect", file}, kNoGpu);
    EXPECT_EQ(typo.exit_code, 2) << command << ": " << typo.err;
    EXPECT_NE(typo.err.find(file), std::string::npos) << "names the file: " << typo.err;
    EXPECT_NE(typo.err.find("field 'nvlink_speed'"), std::string::npos) << "and the field: " << typo.err;
    EXPECT_TRUE(typo.out.empty()) << "nothing ran: " << typo.out;
    std::ofstream(file) << R"({"gpu_count": "eight"})";
    const Outcome wrong_type = run({GPUBENCH_BINARY, command, "--expect", file}, kNoGpu);
    EXPECT_EQ(wrong_type.exit_code, 2) << command << ": " << wrong_type.err;
    EXPECT_NE(wrong_type.err.find("field 'gpu_count'"), std::string::npos) << wrong_type.err;
    const Outcome missing = run({GPUBENCH_BINARY, command, "--expect", "/no/such/profile.json"}, kNoGpu);
    EXPECT_EQ(missing.exit_code, 2) << command << ": " << missing.err;
    EXPECT_NE(missing.err.find("/no/such/profile.json"), std::string::npos) << missing.err;
  }
  std::ofstream(file) << "{\"gpu_count\": 8,";
  EXPECT_EQ(run({GPUBENCH_BINARY, "doctor", "--expect", file}, kNoGpu).exit_code, 2) << "not JSON";
  std::ofstream(file) << R"({"schema": "gpubench.node_profile/1", "gpu_count": 8, "pcie_generation": 5})";
  const Outcome good = run({GPUBENCH_BINARY, "doctor", "--json", "--expect", file}, kNoGpu);
  EXPECT_EQ(good.exit_code, 3) << good.err;
  const auto findings = nlohmann::json::parse(good.out);
  bool count_checked = false;
  for (const auto& f : findings) {
    if (f["check"] != "inventory.gpu_count") continue;
    count_checked = true;
    EXPECT_EQ(f["severity"], "critical");
    EXPECT_NE(f["finding"].get<std::string>().find("expected 8 GPUs (" + file + "), found 0"), std::string::npos) << f.dump();
  }
  EXPECT_TRUE(count_checked) << good.out;
  std::remove(file.c_str());
}

TEST(Cli, DoctorReadsTheXidHistoryAndRefusesABadWindow) {
  const Outcome json = run({GPUBENCH_BINARY, "doctor", "--json", "--xid-window", "6h"}, kNoGpu);
  EXPECT_EQ(json.exit_code, 3) << json.err;
  bool xids = false;
  for (const auto& f : nlohmann::json::parse(json.out)) {
    if (f["check"] == "xid.errors") xids = true;
    EXPECT_TRUE(f.contains("gpu_identities")) << f.dump();
  }
  EXPECT_TRUE(xids) << "read, or said to be unreadable: " << json.out;
  for (const char* window : {"soon", "0", "-1h"}) {
    const Outcome bad = run({GPUBENCH_BINARY, "doctor", "--xid-window", window}, kNoGpu);
    EXPECT_EQ(bad.exit_code, 2) << window << ": " << bad.err;
    EXPECT_NE(bad.err.find("--xid-window"), std::string::npos) << bad.err;
  }
}

TEST(Cli, AcceptanceDcgmLevelIsOneToFour) {
  for (const char* level : {"0", "5", "three"}) {
    const Outcome o = run({GPUBENCH_BINARY, "acceptance", "--dcgm", level}, kNoGpu);
    EXPECT_EQ(o.exit_code, 2) << level << ": " << o.err;
    EXPECT_NE(o.err.find("--dcgm"), std::string::npos) << o.err;
  }
  EXPECT_EQ(run({GPUBENCH_BINARY, "acceptance", "--dcgm", "1"}, kNoGpu).exit_code, 3) << "a good level: on to the GPU";
}

TEST(Cli, AcceptanceLevelsAndTheirOverrides) {
  const Outcome bad_level = run({GPUBENCH_BINARY, "acceptance", "--level", "thorough"}, kNoGpu);
  EXPECT_EQ(bad_level.exit_code, 2) << bad_level.err;
  EXPECT_NE(bad_level.err.find("--level"), std::string::npos) << bad_level.err;
  for (const char* option : {"--stress-duration", "--power-duration", "--pulse-duration"}) {
    const Outcome bad = run({GPUBENCH_BINARY, "acceptance", option, "soon"}, kNoGpu);
    EXPECT_EQ(bad.exit_code, 2) << option << ": " << bad.err;
    EXPECT_NE(bad.err.find(option), std::string::npos) << bad.err;
  }
  const Outcome no_sustained = run({GPUBENCH_BINARY, "acceptance", "--stress-duration", "0"}, kNoGpu);
  EXPECT_EQ(no_sustained.exit_code, 2) << "the sustained load always runs: " << no_sustained.err;
  for (const char* level : {"quick", "standard", "long"}) {
    const Outcome good = run({GPUBENCH_BINARY, "acceptance", "--level", level, "--power-duration", "0", "--pulse-duration", "90s",
                              "--interconnect"}, kNoGpu);
    EXPECT_EQ(good.exit_code, 3) << level << ": a good level: on to the GPU: " << good.err;
  }
}

TEST(Cli, StressModesAndTheInterconnect) {
  const Outcome bad_mode = run({GPUBENCH_BINARY, "stress", "--mode", "thermal"}, kNoGpu);
  EXPECT_EQ(bad_mode.exit_code, 2) << bad_mode.err;
  EXPECT_NE(bad_mode.err.find("--mode"), std::string::npos) << bad_mode.err;
  const Outcome pulse_copies = run({GPUBENCH_BINARY, "stress", "--mode", "pulse", "--interconnect"}, kNoGpu);
  EXPECT_EQ(pulse_copies.exit_code, 2) << pulse_copies.err;
  EXPECT_NE(pulse_copies.err.find("--interconnect"), std::string::npos) << pulse_copies.err;
  for (const char* mode : {"sustained", "power", "pulse"}) {
    EXPECT_EQ(run({GPUBENCH_BINARY, "stress", "--mode", mode}, kNoGpu).exit_code, 3) << mode << ": on to the GPU";
  }
  EXPECT_EQ(run({GPUBENCH_BINARY, "stress", "--mode", "power", "--interconnect"}, kNoGpu).exit_code, 3);
}

TEST(Cli, MicroIsAPlainGoogleBenchmarkExecutableThatSkipsWithoutAGpu) {
  const std::string out = "/tmp/gpubench-micro-test-" + std::to_string(getpid()) + ".json";
  const Outcome outcome = run({GPUBENCH_MICRO_BINARY, "--benchmark_filter=memory/triad", "--benchmark_out=" + out,
                               "--benchmark_out_format=json"},
                              kNoGpu);
  ASSERT_EQ(outcome.exit_code, 0) << outcome.err;
  const ImportedBenchmarks imported = import_google_benchmark_json(read_json_file(out), "memory", out);
  std::remove(out.c_str());
  EXPECT_TRUE(imported.metrics.empty());
  EXPECT_TRUE(imported.failures.empty());
  ASSERT_EQ(imported.skipped.size(), 1u);
  EXPECT_EQ(imported.skipped[0].reason.rfind("no usable GPU", 0), 0u) << imported.skipped[0].reason;
  const Outcome bad_suite = run({GPUBENCH_MICRO_BINARY, "--benchmark_list_tests"}, {{"GPUBENCH_SUITE", "medium"}});
  EXPECT_EQ(bad_suite.exit_code, 2);
}

// gpubench-micro's catalogue (--gpubench_catalogue) against its own listing, run as the runner runs it (per suite,
// with each variant's environment; no GPU needed, the names are the same without one): every benchmark belongs to
// exactly one family, and every family variant of the suite has benchmarks.
TEST(Cli, MicroCatalogueAndBenchmarkListingAgree) {
  const Outcome printed = run({GPUBENCH_MICRO_BINARY, "--gpubench_catalogue"}, kNoGpu);
  ASSERT_EQ(printed.exit_code, 0) << printed.err;
  const nlohmann::json catalogue = nlohmann::json::parse(printed.out);
  ASSERT_FALSE(catalogue.empty());
  const auto owners_of = [&catalogue](const std::string& benchmark) {
    std::vector<std::string> owners;
    for (const nlohmann::json& family : catalogue) {
      if (benchmark.rfind(family.at("name").get<std::string>() + "/", 0) == 0) owners.push_back(family.at("name"));
    }
    return owners;
  };
  // Per environment, each listed benchmark with the one family it belongs to.
  std::map<std::map<std::string, std::string>, std::vector<std::pair<std::string, std::string>>> listings;
  for (const std::string suite : {"quick", "full"}) {
    for (const nlohmann::json& family : catalogue) {
      const std::string name = family.at("name");
      if (suite == "quick" && !family.at("in_quick").get<bool>()) continue;
      for (const nlohmann::json& variant : family.at("variants")) {
        std::map<std::string, std::string> env = kNoGpu;
        env["GPUBENCH_SUITE"] = suite;
        for (const auto& [key, value] : variant.at("environment").items()) env[key] = value.get<std::string>();
        if (listings.count(env) == 0) {
          const Outcome listed = run({GPUBENCH_MICRO_BINARY, "--benchmark_list_tests"}, env);
          ASSERT_EQ(listed.exit_code, 0) << listed.err;
          std::istringstream lines(listed.out);
          for (std::string line; std::getline(lines, line);) {
            if (line.empty()) continue;
            const std::vector<std::string> owners = owners_of(line);
            EXPECT_EQ(owners.size(), 1u) << line << " belongs to " << owners.size() << " families";
            listings[env].emplace_back(line, owners.size() == 1 ? owners[0] : "");
          }
        }
        std::size_t in_family = 0;
        for (const auto& listed : listings[env]) in_family += listed.second == name ? 1 : 0;
        EXPECT_GT(in_family, 0u) << suite << " suite lists no benchmark of " << name << " " << variant.dump();
      }
    }
  }
  EXPECT_EQ(run({GPUBENCH_MICRO_BINARY, "--gpubench_catalogue", "--benchmark_list_tests"}, kNoGpu).exit_code, 2);
  EXPECT_EQ(run({GPUBENCH_MICRO_BINARY, "--gpubench_no_such_flag"}, kNoGpu).exit_code, 2) << "unknown flags still fail";
}

// The p2p family's benchmarks as gpubench-micro registers them for `devices` (GPUBENCH_DEVICES; no GPU needed):
// per benchmark with its GPU or pair segment as '*', the segments it was registered with, in order.
std::map<std::string, std::vector<std::string>> p2p_listing(const std::string& devices, const std::string& suite) {
  std::map<std::string, std::string> env = kNoGpu;
  env["GPUBENCH_DEVICES"] = devices;
  env["GPUBENCH_SUITE"] = suite;
  const Outcome listed = run({GPUBENCH_MICRO_BINARY, "--benchmark_list_tests", "--benchmark_filter=^p2p/"}, env);
  EXPECT_EQ(listed.exit_code, 0) << listed.err;
  std::map<std::string, std::vector<std::string>> segments;
  std::istringstream lines(listed.out);
  for (std::string line; std::getline(lines, line);) {
    if (line.empty()) continue;
    const std::string name = line.substr(0, line.find("/min_time"));  // Google Benchmark's suffixes
    const std::size_t last = name.rfind('/');
    segments[name.substr(0, last) + "/*"].push_back(name.substr(last + 1));
  }
  return segments;
}

// Every ordered pair of the GPUs, gpuA-gpuB, in registration order (A's pairs first).
std::vector<std::string> ordered_pairs(int gpus) {
  std::vector<std::string> pairs;
  for (int a = 0; a < gpus; ++a) {
    for (int b = 0; b < gpus; ++b) {
      if (a != b) pairs.push_back("gpu" + std::to_string(a) + "-gpu" + std::to_string(b));
    }
  }
  return pairs;
}

// Eight GPUs: each of the quick suite's 11 pair benchmarks (ce_unidir, ce_bidir, sm_write, sm_read and staged_host at
// 16 MiB and 1 GiB, and latency) once for each of the 8 x 7 = 56 ordered pairs, and the two copy-engine patterns once
// per GPU: 11 x 56 + 2 x 8 = 632. The full suite: 26 pair benchmarks (five sizes) and four patterns, 26 x 56 + 4 x 8 =
// 1488. Four GPUs, quick: 11 x 12 + 2 x 4 = 140.
TEST(Cli, MicroRegistersEveryOrderedPairOfFourAndEightGpus) {
  const std::vector<std::string> gpus = {"gpu0", "gpu1", "gpu2", "gpu3", "gpu4", "gpu5", "gpu6", "gpu7"};
  const auto check = [&](const std::string& devices, int count, const std::string& suite, std::size_t pair_benchmarks,
                         std::size_t patterns) {
    const std::map<std::string, std::vector<std::string>> listing = p2p_listing(devices, suite);
    std::size_t pair_seen = 0;
    std::size_t pattern_seen = 0;
    std::size_t names = 0;
    for (const auto& [benchmark, segments] : listing) {
      names += segments.size();
      if (benchmark.find("_to_") != std::string::npos) {  // ce_all_to_one, sm_one_to_all, ...
        ++pattern_seen;
        EXPECT_EQ(segments, std::vector<std::string>(gpus.begin(), gpus.begin() + count)) << benchmark;
      } else {
        ++pair_seen;
        EXPECT_EQ(segments, ordered_pairs(count)) << benchmark;
      }
    }
    EXPECT_EQ(pair_seen, pair_benchmarks) << suite << " on " << devices;
    EXPECT_EQ(pattern_seen, patterns) << suite << " on " << devices;
    return names;
  };
  EXPECT_EQ(check("0-7", 8, "quick", 11, 2), 632u);
  EXPECT_EQ(check("0-7", 8, "full", 26, 4), 1488u);
  EXPECT_EQ(check("0-3", 4, "quick", 11, 2), 140u);
  const std::map<std::string, std::vector<std::string>> quick = p2p_listing("0-7", "quick");
  EXPECT_EQ(quick.count("p2p/ce_unidir/1GiB/*"), 1u);
  EXPECT_EQ(quick.count("p2p/latency/*"), 1u);
  EXPECT_EQ(quick.count("p2p/ce_all_to_one/512MiB/*"), 1u);
}

// check --confirm measures a suspect again only when there is one: a healthy run needs no GPU; a regression and a
// noisy figure on the worse side, on a machine without one, are exit 3 and leave the results file as it was.
TEST(Cli, CheckConfirmNeedsTheGpuOnlyForASuspect) {
  const std::string data = std::string(GPUBENCH_TEST_DATA) + "/check/";
  const std::string copy = "/tmp/gpubench-cli-confirm-" + std::to_string(getpid()) + ".json";
  for (const char* name : {"healthy_2.json", "mixed.json"}) {
    std::ofstream(copy) << slurp(data + name);
    const Outcome o = run({GPUBENCH_BINARY, "check", copy, "--baseline", data + "baseline.json", "--confirm", "3"}, kNoGpu);
    if (std::string(name) == "healthy_2.json") {
      EXPECT_EQ(o.exit_code, 0) << o.err;
    } else {
      EXPECT_EQ(o.exit_code, 3) << o.out << o.err;
      EXPECT_NE(o.err.find("--confirm measures 2 suspect(s) again, which needs the GPUs"), std::string::npos) << o.err;
    }
    EXPECT_EQ(slurp(copy), slurp(data + name)) << name << ": the results file changed";
  }
  std::remove(copy.c_str());
  const Outcome fleet = run({GPUBENCH_BINARY, "check", "--fleet", data + "healthy_1.json", data + "healthy_2.json", "--confirm", "2"});
  EXPECT_EQ(fleet.exit_code, 2) << fleet.err;
}

TEST(Cli, BadDevicesAreBadUsageEvenWithoutAGpu) {
  for (const char* command : {"run", "stress", "acceptance", "doctor", "env"}) {
    for (const char* devices : {"a", "-1", "0,,1", "3-1", "0,0"}) {
      const Outcome o = run({GPUBENCH_BINARY, command, "--devices", devices}, kNoGpu);
      EXPECT_EQ(o.exit_code, 2) << command << " --devices " << devices << ": " << o.err;
      EXPECT_NE(o.err.find("--devices"), std::string::npos) << command << ": " << o.err;
    }
  }
  const Outcome env = run({GPUBENCH_BINARY, "env", "--devices", "99"}, kNoGpu);
  EXPECT_EQ(env.exit_code, 0) << env.err;
  EXPECT_NE(env.err.find("--devices 99 not applied"), std::string::npos) << "not silently ignored: " << env.err;
  EXPECT_EQ(run({GPUBENCH_BINARY, "run", "--devices", "0"}, kNoGpu).exit_code, 3) << "a good list still looks for the GPU";
}

// run --gemm-shapes: a model's own shapes reach gpubench-micro, which names a benchmark after each in every
// precision; a bad list or file is bad usage before the GPU is looked for.
TEST(Cli, GemmShapesAreCheckedUpFrontAndBecomeBenchmarks) {
  const Outcome listed = run({GPUBENCH_MICRO_BINARY, "--benchmark_list_tests", "--benchmark_filter=^gemm/"},
                             {{"GPUBENCH_SUITE", "quick"}, {"GPUBENCH_GEMM_SHAPES", "1000,2000,3000:4096,4096,4096"}});
  ASSERT_EQ(listed.exit_code, 0) << listed.err;
  for (const char* name : {"gemm/bf16/1000x2000x3000/gpu0", "gemm/fp8_e4m3/1000x2000x3000/gpu0", "gemm/fp32/1000x2000x3000/gpu0"}) {
    EXPECT_NE(listed.out.find(std::string(name) + "/"), std::string::npos) << name << " in\n" << listed.out;
  }
  const std::string square = "gemm/bf16/4096x4096x4096/gpu0/";
  EXPECT_EQ(listed.out.find(square), listed.out.rfind(square)) << "a shape the suite has is registered once";
  const Outcome bad_env = run({GPUBENCH_MICRO_BINARY, "--benchmark_list_tests"}, {{"GPUBENCH_GEMM_SHAPES", "1000,2000"}});
  EXPECT_EQ(bad_env.exit_code, 2);
  EXPECT_NE(bad_env.err.find("GPUBENCH_GEMM_SHAPES"), std::string::npos) << bad_env.err;

  for (const char* bad : {"1000,2000", "0,1,1", "/no/such/shapes.txt"}) {
    const Outcome o = run({GPUBENCH_BINARY, "run", "--gemm-shapes", bad}, kNoGpu);
    EXPECT_EQ(o.exit_code, 2) << bad << ": " << o.err;
    EXPECT_NE(o.err.find("--gemm-shapes"), std::string::npos) << o.err;
  }
  const std::string file = "/tmp/gpubench-shapes-" + std::to_string(getpid()) + ".txt";
  std::ofstream(file) << "# Llama-2-7B MLP\n8192,11008,4096\n8192,4096,oops\n";
  const Outcome from_file = run({GPUBENCH_BINARY, "run", "--gemm-shapes", file}, kNoGpu);
  EXPECT_EQ(from_file.exit_code, 2) << from_file.err;
  EXPECT_NE(from_file.err.find(file), std::string::npos) << "names the file: " << from_file.err;
  EXPECT_NE(from_file.err.find("8192,4096,oops"), std::string::npos) << "and the item: " << from_file.err;
  std::ofstream(file) << "8192,11008,4096\n";
  EXPECT_EQ(run({GPUBENCH_BINARY, "run", "--gemm-shapes", file}, kNoGpu).exit_code, 3) << "a good file: on to the GPU";
  std::remove(file.c_str());
}

TEST(Cli, StressRefusesANonsenseTemperatureLimit) {
  for (const char* limit : {"nan", "inf", "-1000", "0", "1000"}) {
    const Outcome o = run({GPUBENCH_BINARY, "stress", "--max-temperature", limit}, kNoGpu);
    EXPECT_EQ(o.exit_code, 2) << limit << ": " << o.err;
    EXPECT_NE(o.err.find("--max-temperature"), std::string::npos) << o.err;
  }
}

TEST(Cli, AcceptanceRefusesAnOutputOverAnotherBeforeLookingForTheGpu) {
  const std::string dir = "/tmp/gpubench-cli-acceptance-" + std::to_string(getpid());
  const Outcome same = run({GPUBENCH_BINARY, "acceptance", "--json-file", dir + "-r", "--junit", dir + "-r", "-o", dir + "-o"}, kNoGpu);
  EXPECT_EQ(same.exit_code, 2) << same.err;
  EXPECT_NE(same.err.find("--junit"), std::string::npos) << same.err;
  const std::string baseline = std::string(GPUBENCH_TEST_DATA) + "/check/baseline.json";
  const Outcome over_input = run({GPUBENCH_BINARY, "acceptance", "--baseline", baseline, "-o", baseline}, kNoGpu);
  EXPECT_EQ(over_input.exit_code, 2) << over_input.err;
  EXPECT_NE(over_input.err.find("--output"), std::string::npos) << over_input.err;
  for (const char* suffix : {"-r", "-o"}) EXPECT_FALSE(std::ifstream(dir + suffix).good()) << dir + suffix;
}

// --json prints JSON on standard output in every command; acceptance's old `--json FILE` still writes the file,
// with a note, and is refused beside --json-file.
TEST(Cli, AcceptanceStillTakesTheOldJsonFileFormWithANote) {
  const std::string file = "/tmp/gpubench-cli-acceptance-json-" + std::to_string(getpid());
  const Outcome old_form = run({GPUBENCH_BINARY, "acceptance", "--json", file}, kNoGpu);
  EXPECT_EQ(old_form.exit_code, 3) << "on to the GPU: " << old_form.err;
  EXPECT_NE(old_form.err.find("--json FILE is deprecated: use --json-file FILE"), std::string::npos) << old_form.err;
  const Outcome both = run({GPUBENCH_BINARY, "acceptance", "--json", file, "--json-file", file + "-2"}, kNoGpu);
  EXPECT_EQ(both.exit_code, 2) << both.err;
  const Outcome flag = run({GPUBENCH_BINARY, "acceptance", "--json", "--devices", "0"}, kNoGpu);
  EXPECT_EQ(flag.exit_code, 3) << flag.err;
  EXPECT_EQ(flag.err.find("deprecated"), std::string::npos) << flag.err;
  std::remove(file.c_str());
}

// A node without a usable GPU is the acceptance a CI job most needs to read: exit 3, and the JUnit and JSON
// reports written all the same, doctor's cuda.no_gpu the failure, the stages it stopped marked as not run.
TEST(Cli, AcceptanceWithoutAGpuStillWritesItsReportsWithTheReason) {
  const std::string base = "/tmp/gpubench-cli-acceptance-no-gpu-" + std::to_string(getpid());
  const Outcome o = run({GPUBENCH_BINARY, "acceptance", "--json", "--json-file", base + ".json", "--junit",
                         base + ".xml", "--results-dir", base + "-tree"},
                        kNoGpu);
  EXPECT_EQ(o.exit_code, 3) << o.err;
  EXPECT_NE(o.err.find("no usable GPU: " + no_gpu_words()), std::string::npos) << o.err;
  const nlohmann::json printed = nlohmann::json::parse(o.out);
  const nlohmann::json written = nlohmann::json::parse(slurp(base + ".json"));
  EXPECT_EQ(printed, written);
  EXPECT_EQ(written["node_verdict"], "fail");
  ASSERT_EQ(written["node"].size(), 3u) << written.dump(2);
  EXPECT_EQ(written["node"][0]["stage"], "doctor");
  EXPECT_EQ(written["node"][0]["verdict"], "fail");
  const std::string doctor_reason = written["node"][0]["reasons"][0];
  EXPECT_EQ(doctor_reason.rfind("cuda.no_gpu: CUDA sees no usable GPU: " + no_gpu_words(), 0), 0u) << doctor_reason;
  for (int s : {1, 2}) {
    EXPECT_TRUE(written["node"][s]["skipped"].get<bool>()) << written["node"][s];
    const std::string reason = written["node"][s]["reasons"][0];
    EXPECT_EQ(reason.rfind("not run: acceptance stopped at the doctor stage (no usable GPU: " + no_gpu_words(), 0), 0u)
        << reason;
  }
  const std::string junit = slurp(base + ".xml");
  EXPECT_NE(junit.find("tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"2\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("name=\"doctor\" time=\""), std::string::npos) << junit;
  EXPECT_NE(junit.find("<failure type=\"fail\" message=\"cuda.no_gpu: CUDA sees no usable GPU"), std::string::npos)
      << junit;
  EXPECT_NE(access((base + "-tree").c_str(), F_OK), 0) << "nothing was measured, so no results document";
  std::remove((base + ".json").c_str());
  std::remove((base + ".xml").c_str());
}

// -o names the file; --results-dir keeps it in a tree of runs. Given both, the command is refused before it
// looks for a GPU; given a tree alone, nothing is made there before a GPU is found.
TEST(Cli, ResultsDirAndOutputAreOneOrTheOther) {
  const std::string tree = "/tmp/gpubench-cli-results-dir-" + std::to_string(getpid());
  for (const char* command : {"run", "stress", "acceptance"}) {
    const Outcome both = run({GPUBENCH_BINARY, command, "--results-dir", tree, "-o", tree + ".json"}, kNoGpu);
    EXPECT_EQ(both.exit_code, 2) << command << ": " << both.err;
    EXPECT_NE(both.err.find("--results-dir"), std::string::npos) << command << ": " << both.err;
    const Outcome tree_only = run({GPUBENCH_BINARY, command, "--results-dir", tree}, kNoGpu);
    EXPECT_EQ(tree_only.exit_code, 3) << command << ": " << tree_only.err;
    EXPECT_NE(access(tree.c_str(), F_OK), 0) << command << " made " << tree;
  }
}

// The version header names the git revision that every results document records (run.git_revision, which
// `check --prometheus` labels its figures with) and --version prints. It was "unknown" wherever git refused the
// checkout: one owned by another user than the one building (git 2.35.2 on: a container or CI job building a
// checkout mounted from the host). A tree git cannot read says "unknown", with the reason, unless
// GPUBENCH_GIT_REVISION names the revision.
TEST(VersionHeader, NamesTheRevisionOfACheckoutOwnedByAnotherUser) {
  const std::string source = std::string(GPUBENCH_TEST_DATA) + "/../..";
  const std::string cmake = find_program("cmake");
  const std::string git = find_program("git");
  ASSERT_FALSE(cmake.empty() || git.empty()) << "cmake and git build gpubench";
  const std::string folder = "/tmp/gpubench-version-header-" + std::to_string(getpid());
  ASSERT_EQ(std::system(("rm -rf " + folder + " && mkdir -p " + folder + "/plain " + folder + "/repo").c_str()), 0);
  const auto header_for = [&](const std::string& tree, std::map<std::string, std::string> env) {
    const Outcome o = run({cmake, "-DSOURCE_DIR=" + tree, "-DINPUT=" + source + "/harness/version.hpp.in",
                           "-DOUTPUT=" + folder + "/version.hpp", "-DPROJECT_VERSION=0.1.0", "-P",
                           source + "/cmake/WriteVersionHeader.cmake"},
                          std::move(env));
    EXPECT_EQ(o.exit_code, 0) << o.out << o.err;
    const std::string header = slurp(folder + "/version.hpp");
    const std::size_t start = header.find("kGitRevision = \"") + 16;
    return std::make_pair(header.substr(start, header.find('"', start) - start), o.out);
  };
  const auto [unknown, why] = header_for(folder + "/plain", {{"GPUBENCH_GIT_REVISION", ""}});
  EXPECT_EQ(unknown, "unknown");
  EXPECT_NE(why.find("not a git repository"), std::string::npos) << "the build says why: " << why;
  EXPECT_EQ(header_for(folder + "/plain", {{"GPUBENCH_GIT_REVISION", "1b2565acc8ea"}}).first, "1b2565acc8ea");
  if (geteuid() != 0) GTEST_SKIP() << "a checkout owned by another user needs root to make";
  ASSERT_EQ(std::system(("cd " + folder + "/repo && git init -q && git -c user.name=t -c user.email=t@t commit -q "
                         "--allow-empty -m t && chown -R 65534 .").c_str()),
            0);
  const Outcome head = run({git, "-c", "safe.directory=*", "-C", folder + "/repo", "rev-parse", "--short=12", "HEAD"});
  ASSERT_EQ(head.exit_code, 0) << head.err;
  EXPECT_NE(run({git, "-C", folder + "/repo", "rev-parse", "HEAD"}).exit_code, 0) << "git refuses it, as it did";
  EXPECT_EQ(header_for(folder + "/repo", {{"GPUBENCH_GIT_REVISION", ""}}).first, head.out.substr(0, 12));
  std::system(("rm -rf " + folder).c_str());
}

}  // namespace
}  // namespace gpubench
