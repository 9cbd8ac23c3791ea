// The other processes on a GPU, read from a fake libnvidia-ml.so.1 (tests/unit/fake_nvml), so that it runs without a
// GPU: compute and graphics lists merged by pid, and what `run` records beside a family: every process NVML lists but
// gpubench and the processes it started, with its name and the most memory it held.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <string>
#include <thread>

#include "harness/environment/gpu_processes.hpp"
#include "harness/results/other_processes.hpp"
#include "harness/runner/telemetry_sampler.hpp"
#include "tests/unit/fake_nvml/fake_nvml_fixture.hpp"

namespace gpubench {
namespace {

nvmlProcessInfo_t process(unsigned pid, unsigned long long memory) {
  nvmlProcessInfo_t info{};
  info.pid = pid;
  info.usedGpuMemory = memory;
  return info;
}

using FakeNvmlProcesses = FakeNvmlFixture;

TEST_F(FakeNvmlProcesses, MergesComputeAndGraphicsByPid) {
  fake_->compute_processes = {process(4242, 20ull << 30), process(77, NVML_VALUE_NOT_AVAILABLE)};
  fake_->graphics_processes = {process(4242, 1ull << 30), process(5000, 2ull << 30)};
  fake_->process_names = {{4242, "python3"}, {5000, "Xorg"}};
  const GpuProcessReading reading = read_gpu_processes(*nvml_, device_);
  ASSERT_TRUE(reading.processes) << reading.error;
  ASSERT_EQ(reading.processes->size(), 3u);
  const GpuProcess& both = reading.processes->at(0);
  EXPECT_EQ(both.pid, 4242u);
  EXPECT_EQ(both.name, "python3");
  EXPECT_EQ(both.kind, "compute+graphics");
  EXPECT_EQ(both.used_memory_bytes, 20ull << 30);
  EXPECT_FALSE(reading.processes->at(1).used_memory_bytes) << "NVML could not say";
  EXPECT_EQ(reading.processes->at(1).name, "");
  EXPECT_EQ(reading.processes->at(2).kind, "graphics");
}

TEST_F(FakeNvmlProcesses, OneListReadIsEnoughAndNeitherIsAnError) {
  fake_->failing["nvmlDeviceGetGraphicsRunningProcesses"] = NVML_ERROR_NOT_SUPPORTED;
  fake_->compute_processes = {process(4242, 1ull << 30)};
  EXPECT_EQ(read_gpu_processes(*nvml_, device_).processes->size(), 1u);
  fake_->failing["nvmlDeviceGetComputeRunningProcesses"] = NVML_ERROR_NO_PERMISSION;
  const GpuProcessReading neither = read_gpu_processes(*nvml_, device_);
  EXPECT_FALSE(neither.processes);
  EXPECT_NE(neither.error.find("nvmlDeviceGetComputeRunningProcesses"), std::string::npos) << neither.error;
}

TEST_F(FakeNvmlProcesses, TheSamplerRecordsOtherProcessesButNotGpubenchOrItsChildren) {
  const pid_t child = fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    pause();  // a stand-in for gpubench-micro, ended by the test
    _exit(0);
  }
  const unsigned self = static_cast<unsigned>(getpid());
  fake_->compute_processes = {process(self, 1ull << 30), process(static_cast<unsigned>(child), 70ull << 30),
                              process(1, 20ull << 30)};
  fake_->process_names = {{1, "competing-gemm"}};
  TelemetrySampler sampler(nvml_.get(), {{0, device_}}, std::chrono::milliseconds(50));
  sampler.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const nlohmann::json telemetry = sampler.stop();
  kill(child, SIGKILL);
  waitpid(child, nullptr, 0);
  const auto recorded = other_processes_in(telemetry.at("gpu0"), "test", "gpu0.");
  ASSERT_TRUE(recorded) << telemetry.dump();
  ASSERT_EQ(recorded->size(), 1u) << telemetry.dump();
  EXPECT_EQ(recorded->front().pid, 1u);
  EXPECT_EQ(describe(recorded->front()), "pid 1, competing-gemm, 20.0 GiB");
  EXPECT_GE(recorded->front().samples, 2);
  EXPECT_LE(recorded->front().first_seen_s, recorded->front().last_seen_s);
}

TEST_F(FakeNvmlProcesses, AnIdleGpuRecordsAnEmptyListAndAnUnreadableOneNone) {
  TelemetrySampler idle(nvml_.get(), {{0, device_}}, std::chrono::milliseconds(50));
  idle.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(80));
  EXPECT_EQ(idle.stop().at("gpu0").at("processes"), nlohmann::json::array());
  fake_->failing["nvmlDeviceGetComputeRunningProcesses"] = NVML_ERROR_NOT_SUPPORTED;
  fake_->failing["nvmlDeviceGetGraphicsRunningProcesses"] = NVML_ERROR_NOT_SUPPORTED;
  TelemetrySampler unreadable(nvml_.get(), {{0, device_}}, std::chrono::milliseconds(50));
  unreadable.start();
  std::this_thread::sleep_for(std::chrono::milliseconds(80));
  EXPECT_FALSE(unreadable.stop().at("gpu0").contains("processes")) << "not read is not the same as none seen";
}

}  // namespace
}  // namespace gpubench
