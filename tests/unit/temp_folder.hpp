#pragma once
// A test fixture with a folder of its own: fresh and empty before each test, removed after it (also when an
// assertion ends the test early). Named after the test suite and this process, so that parallel runs do not meet.
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <string>

namespace gpubench {

class TempFolderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const std::string suite = ::testing::UnitTest::GetInstance()->current_test_info()->test_suite_name();
    dir_ = std::filesystem::temp_directory_path() / ("gpubench-" + suite + "-" + std::to_string(getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path dir_;
};

}  // namespace gpubench
