// Where neither the driver's CUDA library nor NVML loads, gpubench says no NVIDIA driver was found, not CUDA's
// "driver version is insufficient", which invites upgrading a driver that is not there.
#include <gtest/gtest.h>

#include "harness/environment/fingerprint.hpp"

namespace gpubench {
namespace {

TEST(NoDriverMessage, SaysNoDriverOnlyWhereNeitherLibraryLoads) {
  const std::string cuda = "cudaErrorInsufficientDriver: CUDA driver version is insufficient for CUDA runtime version";
  EXPECT_EQ(cuda_error_text(cuda, false, false).rfind("no NVIDIA driver found (libcuda.so.1 / libnvidia-ml.so.1 not loadable)", 0), 0u);
  EXPECT_EQ(cuda_error_text(cuda, true, false), cuda) << "a driver that is there but old is CUDA's to describe";
  EXPECT_EQ(cuda_error_text(cuda, false, true), cuda);
}

TEST(NoDriverMessage, ProbeSaysWhatThisMachineHas) {
  const CudaStatus status = probe_cuda();
  if (status.error.empty()) GTEST_SKIP() << "a GPU is visible here: " << status.device_count;
  const bool driver = library_loadable("libcuda.so.1") || library_loadable("libnvidia-ml.so.1");
  EXPECT_EQ(status.error.find("no NVIDIA driver found") != std::string::npos, !driver) << status.error;
}

}  // namespace
}  // namespace gpubench
