// A tree of runs, as `--results-dir DIR` keeps them and `history DIR` reads them: DIR/HOST/RUN_ID.json, found at
// any depth, without the runs' own log folders.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "harness/results/output_error.hpp"
#include "harness/results/results_io.hpp"
#include "harness/runner/run_record.hpp"
#include "temp_folder.hpp"

namespace gpubench {
namespace {

namespace fs = std::filesystem;

class ResultsTree : public TempFolderTest {
 protected:
  void touch(const fs::path& path) const {
    fs::create_directories(path.parent_path());
    std::ofstream(path) << "{}";
  }
};

ResultsDocument run_on(const std::string& host, const std::string& id) {
  ResultsDocument document;
  document.run.host = host;
  document.run.id = id;
  return document;
}

TEST_F(ResultsTree, ARunIsKeptInItsHostsFolderUnderItsRunId) {
  const fs::path tree = dir_ / "runs" / "nightly";  // neither folder there yet
  const std::string path = results_path_in(tree.string(), run_on("node7", "20261129T170000Z-node7-42"), "");
  EXPECT_EQ(path, (tree / "node7" / "20261129T170000Z-node7-42.json").string());
  EXPECT_TRUE(fs::is_directory(tree / "node7"));
  EXPECT_EQ(results_path_in(tree.string(), run_on("node7", "20261129T170000Z-node7-43"), "-acceptance"),
            (tree / "node7" / "20261129T170000Z-node7-43-acceptance.json").string());
}

TEST_F(ResultsTree, AFolderThatCannotBeMadeIsAnOutputErrorNamingIt) {
  touch(dir_ / "a-file");
  try {
    results_path_in((dir_ / "a-file").string(), run_on("node7", "id"), "");
    ADD_FAILURE() << "made a folder under a file";
  } catch (const OutputError& error) {
    EXPECT_NE(std::string(error.what()).find((dir_ / "a-file" / "node7").string()), std::string::npos) << error.what();
  }
}

TEST_F(ResultsTree, EveryRunIsFoundAtAnyDepthButNotInLogFolders) {
  touch(dir_ / "top.json");
  touch(dir_ / "node1" / "20261129T170000Z-node1-1.json");
  touch(dir_ / "node1" / "20261129T170000Z-node1-1.json.logs" / "memory.json");
  touch(dir_ / "node1" / "20261129T170000Z-node1-1.json.confirm.logs" / "pass1" / "memory.json");
  touch(dir_ / "rack2" / "node2" / "20261130T170000Z-node2-9.json");
  touch(dir_ / "rack2" / "node2" / "notes.txt");
  fs::create_directory_symlink(dir_ / "node1", dir_ / "rack2" / "link-to-node1");  // not followed: no run twice
  std::vector<std::string> left_out;
  EXPECT_EQ(json_files_under(dir_.string(), &left_out),
            (std::vector<std::string>{(dir_ / "node1" / "20261129T170000Z-node1-1.json").string(),
                                      (dir_ / "rack2" / "node2" / "20261130T170000Z-node2-9.json").string(),
                                      (dir_ / "top.json").string()}));
  EXPECT_TRUE(left_out.empty());
  EXPECT_EQ(json_files_in(dir_.string()), std::vector<std::string>{(dir_ / "top.json").string()}) << "one folder only";
}

TEST_F(ResultsTree, AnUnreadableSubfolderIsNamedAndPassedOver) {
  if (geteuid() == 0) GTEST_SKIP() << "root reads every folder";
  touch(dir_ / "node1" / "run.json");
  touch(dir_ / "locked" / "run.json");
  fs::permissions(dir_ / "locked", fs::perms::none);
  std::vector<std::string> left_out;
  EXPECT_EQ(json_files_under(dir_.string(), &left_out), std::vector<std::string>{(dir_ / "node1" / "run.json").string()});
  fs::permissions(dir_ / "locked", fs::perms::owner_all);
  ASSERT_EQ(left_out.size(), 1u);
  EXPECT_NE(left_out[0].find("locked: cannot read the directory"), std::string::npos) << left_out[0];
}

}  // namespace
}  // namespace gpubench
