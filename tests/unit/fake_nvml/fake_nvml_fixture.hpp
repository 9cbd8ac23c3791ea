#pragma once
// The fixture of the tests on the fake libnvidia-ml.so.1: NVML loaded (the test program's RPATH makes it the fake),
// the fake's control reset to its defaults, and GPU 0's handle. A test changes the control before its calls.
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <memory>
#include <string>

#include "benchmarks/common/nvml_library.hpp"
#include "tests/unit/fake_nvml/fake_nvml.hpp"

namespace gpubench {

class FakeNvmlFixture : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string why;
    nvml_ = NvmlLibrary::load(&why);
    ASSERT_TRUE(nvml_) << why;
    void* library = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_NOLOAD);
    ASSERT_NE(library, nullptr) << "the fake NVML is not the one loaded";
    const auto control = reinterpret_cast<FakeNvmlControl* (*)()>(dlsym(library, "fake_nvml_control"));
    dlclose(library);
    ASSERT_NE(control, nullptr) << "libnvidia-ml.so.1 is not the fake";
    fake_ = control();
    *fake_ = FakeNvmlControl{};
    ASSERT_EQ(nvml_->nvmlDeviceGetHandleByIndex_(0, &device_), NVML_SUCCESS);
  }

  std::unique_ptr<NvmlLibrary> nvml_;
  FakeNvmlControl* fake_ = nullptr;
  nvmlDevice_t device_ = nullptr;
};

}  // namespace gpubench
