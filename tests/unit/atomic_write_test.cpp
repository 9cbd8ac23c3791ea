// The atomic writer: a failed write throws OutputError naming the path and leaves nothing behind; a symbolic
// link is written through, not replaced.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <stdexcept>

#include "harness/results/output_error.hpp"
#include "harness/results/results_io.hpp"
#include "temp_folder.hpp"

namespace gpubench {
namespace {

namespace fs = std::filesystem;

class AtomicWrite : public TempFolderTest {
 protected:
  std::size_t entries(const fs::path& folder) const { return std::distance(fs::directory_iterator(folder), {}); }
};

void expect_output_error(const std::string& path, const std::string& why) {
  try {
    write_json_atomically({{"a", 1}}, path);
    ADD_FAILURE() << "wrote " << path;
  } catch (const OutputError& error) {
    EXPECT_NE(std::string(error.what()).find(path), std::string::npos) << error.what();
    EXPECT_NE(std::string(error.what()).find(why), std::string::npos) << error.what();
  }
}

TEST_F(AtomicWrite, AFailedWriteNamesThePathAndLeavesNothing) {
  expect_output_error((dir_ / "missing" / "out.json").string(), "no folder");
  fs::create_directory(dir_ / "folder");
  expect_output_error((dir_ / "folder").string(), "is a directory");
  ASSERT_EQ(mkfifo((dir_ / "fifo").c_str(), 0600), 0);
  expect_output_error((dir_ / "fifo").string(), "is a FIFO");
  expect_output_error("/dev/null", "is a character device");
  EXPECT_EQ(entries(dir_), 2u);
  EXPECT_EQ(entries(dir_ / "folder"), 0u);
}

TEST_F(AtomicWrite, AWriterThatThrowsLeavesTheOldFileAndNoTemporary) {
  const std::string path = (dir_ / "out.json").string();
  write_json_atomically({{"a", 1}}, path);
  EXPECT_THROW(write_text_atomically(path, [](std::ostream&) { throw std::runtime_error("half way"); }), std::runtime_error);
  EXPECT_EQ(read_json_file(path)["a"], 1);
  EXPECT_EQ(entries(dir_), 1u);
}

TEST_F(AtomicWrite, ASymbolicLinkIsWrittenThroughAndKept) {
  fs::create_directory(dir_ / "shared");
  write_json_atomically({{"a", 1}}, (dir_ / "shared" / "b.json").string());
  fs::create_symlink(fs::path("shared") / "b.json", dir_ / "link.json");
  write_json_atomically({{"a", 2}}, (dir_ / "link.json").string());
  EXPECT_TRUE(fs::is_symlink(dir_ / "link.json"));
  EXPECT_EQ(read_json_file((dir_ / "shared" / "b.json").string())["a"], 2);
  EXPECT_EQ(entries(dir_ / "shared"), 1u);
}

TEST_F(AtomicWrite, TextThatIsNotUtf8IsReplacedRatherThanLosingTheDocument) {
  const std::string path = (dir_ / "out.json").string();
  write_json_atomically({{"host", "node\xff"}}, path);
  EXPECT_EQ(read_json_file(path)["host"], "node\xEF\xBF\xBD");
}

}  // namespace
}  // namespace gpubench
