// Which GPU processes are the job's: `gpubench watch` follows parent links in /proc from each process NVML lists up
// to the job it started. On a folder laid out like /proc, no GPU.
#include <gtest/gtest.h>

#include <fstream>

#include "harness/watch/watch_session.hpp"
#include "temp_folder.hpp"

namespace gpubench {
namespace {

class JobProcesses : public TempFolderTest {
 protected:
  void process(int pid, const std::string& comm, int parent) {
    std::filesystem::create_directories(dir_ / std::to_string(pid));
    std::ofstream(dir_ / std::to_string(pid) / "stat") << pid << " (" << comm << ") S " << parent << " " << pid
                                                      << " 0 0 -1 4194304 0 0 0 0 10 2 0 0 20 0 3 0\n";
  }
};

TEST_F(JobProcesses, ADescendantAtAnyDepthIsTheJobs) {
  process(100, "torchrun", 1);
  process(200, "python3", 100);
  process(300, "pt_data_worker) (1", 200);  // a name with a parenthesis and a space: fields are read after the last ')'
  process(400, "other job", 1);
  const std::string proc = dir_.string();
  EXPECT_TRUE(descends_from(100, 100, proc));
  EXPECT_TRUE(descends_from(200, 100, proc));
  EXPECT_TRUE(descends_from(300, 100, proc));
  EXPECT_FALSE(descends_from(400, 100, proc));
  EXPECT_FALSE(descends_from(500, 100, proc));  // gone: no stat to read
  EXPECT_FALSE(descends_from(100, 200, proc));  // a parent is not its child's
}

}  // namespace
}  // namespace gpubench
