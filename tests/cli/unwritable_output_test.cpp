// An output that cannot be written is bad usage (exit 2), found before any GPU work: `run`, `stress` and `acceptance`
// check -o, --results-dir and --log-dir before they look for a GPU, so with none (CUDA_VISIBLE_DEVICES=-1) a bad path
// is exit 2 naming it, and a good one goes on to exit 3. Paths under /proc and under a regular file cannot be made by
// anyone, root included, as CI runs.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>

#include "harness/runner/child_process.hpp"

namespace gpubench {
namespace {

namespace fs = std::filesystem;

struct Outcome {
  int exit_code;
  std::string err;
};

class UnwritableOutput : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("gpubench-unwritable-output-" + std::to_string(getpid()));
    fs::remove_all(dir_);
    fs::create_directories(dir_);
    std::ofstream(dir_ / "a-file") << "not a folder\n";
  }
  void TearDown() override { fs::remove_all(dir_); }

  // gpubench with `arguments`, on a machine without a usable GPU.
  Outcome gpubench(const std::vector<std::string>& arguments) const {
    std::vector<std::string> argv = {GPUBENCH_BINARY};
    argv.insert(argv.end(), arguments.begin(), arguments.end());
    const std::string out = (dir_ / "out.txt").string();
    const std::string err = (dir_ / "err.txt").string();
    const ChildOutcome outcome =
        run_child({argv, {{"CUDA_VISIBLE_DEVICES", "-1"}}, out, err, std::chrono::seconds(60)}, nullptr, {});
    std::ifstream in(err);
    std::ostringstream text;
    text << in.rdbuf();
    return {outcome.exit_code, text.str()};
  }

  // Exit 2, naming `path` and `option`, with no GPU: the check came before the GPU's.
  void expect_refused(const std::vector<std::string>& arguments, const std::string& path, const std::string& option) {
    const Outcome outcome = gpubench(arguments);
    EXPECT_EQ(outcome.exit_code, 2) << arguments[0] << " " << option << " " << path << ": " << outcome.err;
    EXPECT_NE(outcome.err.find("cannot write " + path), std::string::npos) << outcome.err;
    EXPECT_NE(outcome.err.find(option), std::string::npos) << outcome.err;
    EXPECT_EQ(outcome.err.find("no usable GPU"), std::string::npos) << outcome.err;
  }

  fs::path dir_;
};

TEST_F(UnwritableOutput, LogDirThatCannotBeMadeOrWrittenIsExitTwoBeforeTheGpu) {
  expect_refused({"run", "--filter", "^memory/read", "--log-dir", "/proc/nope"}, "/proc/nope", "--log-dir");
  const std::string under_a_file = (dir_ / "a-file" / "logs").string();
  expect_refused({"run", "--log-dir", under_a_file, "-o", (dir_ / "r.json").string()}, under_a_file, "--log-dir");
  expect_refused({"run", "--log-dir", "/proc"}, "/proc", "--log-dir");  // there, but nothing can be made in it
  expect_refused({"acceptance", "--log-dir", "/proc/nope"}, "/proc/nope", "--log-dir");
}

TEST_F(UnwritableOutput, OutputFileThatCannotBeWrittenIsExitTwoBeforeTheGpu) {
  for (const char* command : {"run", "stress", "acceptance"}) {
    expect_refused({command, "-o", "/proc/nope.json"}, "/proc/nope.json", "-o");
    const std::string in_a_missing_folder = (dir_ / "missing" / "r.json").string();
    expect_refused({command, "-o", in_a_missing_folder}, in_a_missing_folder, "-o");
    expect_refused({command, "-o", dir_.string()}, dir_.string(), "-o");  // a folder in the way
  }
}

TEST_F(UnwritableOutput, ResultsDirThatCannotBeMadeIsExitTwoBeforeTheGpu) {
  for (const char* command : {"run", "stress", "acceptance"}) {
    const Outcome in_proc = gpubench({command, "--results-dir", "/proc/nope"});
    EXPECT_EQ(in_proc.exit_code, 2) << in_proc.err;
    EXPECT_NE(in_proc.err.find("cannot write /proc/nope/"), std::string::npos) << "DIR/HOST: " << in_proc.err;
    EXPECT_NE(in_proc.err.find("--results-dir"), std::string::npos) << in_proc.err;
    const Outcome under_a_file = gpubench({command, "--results-dir", (dir_ / "a-file").string()});
    EXPECT_EQ(under_a_file.exit_code, 2) << under_a_file.err;
    EXPECT_NE(under_a_file.err.find("cannot write " + (dir_ / "a-file").string()), std::string::npos)
        << under_a_file.err;
  }
}

TEST_F(UnwritableOutput, WritablePathsPassAndTheRunGoesOnToLookForAGpu) {
  const Outcome run =
      gpubench({"run", "-o", (dir_ / "r.json").string(), "--log-dir", (dir_ / "new" / "logs").string()});
  EXPECT_EQ(run.exit_code, 3) << run.err;
  const Outcome tree = gpubench({"stress", "--results-dir", (dir_ / "runs").string()});
  EXPECT_EQ(tree.exit_code, 3) << tree.err;
  EXPECT_EQ(std::distance(fs::directory_iterator(dir_), fs::directory_iterator()), 3)
      << "nothing made or left behind but this test's a-file, out.txt and err.txt";
  const Outcome same = gpubench({"run", "-o", (dir_ / "x").string(), "--log-dir", (dir_ / "x").string()});
  EXPECT_EQ(same.exit_code, 2) << "the log folder over the results file: " << same.err;
}

}  // namespace
}  // namespace gpubench
