#pragma once
// GPU tests skip, with CUDA's reason, on a machine where CUDA sees no GPU.
#include <gtest/gtest.h>

#include <string>

namespace gpubench::testing {

// Empty when a GPU is usable; otherwise why not.
std::string no_gpu_reason();

}  // namespace gpubench::testing

#define GPUBENCH_REQUIRE_GPU()                                                   \
  do {                                                                           \
    const std::string gpubench_reason_ = ::gpubench::testing::no_gpu_reason();  \
    if (!gpubench_reason_.empty()) GTEST_SKIP() << gpubench_reason_;             \
  } while (false)
