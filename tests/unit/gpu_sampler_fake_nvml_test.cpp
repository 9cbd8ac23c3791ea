// GpuSampler against a fake libnvidia-ml.so.1 (tests/unit/fake_nvml), so that it runs without a GPU: the plain
// fields and their units, GPM's two samples swapped at each call and no sooner than 100 ms apart, its percent and
// MiB/s turned into shares and GB/s, the theoretical DRAM peak, what gpm_unavailable() and events_unavailable()
// say when a call fails (and a watch session, once its samples show it), fields left absent by a failing call, Xid
// events and ECC growth.
#include <gtest/gtest.h>

#include <chrono>
#include <optional>
#include <string>
#include <thread>

#include "harness/watch/gpu_sampler.hpp"
#include "harness/watch/watch_session.hpp"
#include "tests/unit/fake_nvml/fake_nvml_fixture.hpp"

namespace gpubench {
namespace {

void expect_near(const std::optional<double>& x, double expected) {
  ASSERT_TRUE(x) << "absent, expected " << expected;
  EXPECT_NEAR(*x, expected, 1e-12);
}

class FakeNvml : public FakeNvmlFixture {
 protected:
  void SetUp() override {
    ASSERT_NO_FATAL_FAILURE(FakeNvmlFixture::SetUp());
    fake_->metric_values = {{NVML_GPM_METRIC_SM_UTIL, 45.0},          {NVML_GPM_METRIC_SM_OCCUPANCY, 100.4},
                            {NVML_GPM_METRIC_ANY_TENSOR_UTIL, 2.0},   {NVML_GPM_METRIC_DRAM_BW_UTIL, 80.0},
                            {NVML_GPM_METRIC_FP64_UTIL, 0.0},         {NVML_GPM_METRIC_FP32_UTIL, 30.0},
                            {NVML_GPM_METRIC_FP16_UTIL, 1.0},         {NVML_GPM_METRIC_PCIE_TX_PER_SEC, 1000.0},
                            {NVML_GPM_METRIC_PCIE_RX_PER_SEC, 56144.0}, {NVML_GPM_METRIC_NVLINK_TOTAL_TX_PER_SEC, 0.0},
                            {NVML_GPM_METRIC_NVLINK_TOTAL_RX_PER_SEC, 0.0}};
  }

  static void wait_for_gpm() { std::this_thread::sleep_for(std::chrono::milliseconds(110)); }
};

TEST_F(FakeNvml, DescribesTheGpuWithItsTheoreticalDramPeak) {
  const GpuSampler sampler(*nvml_, 3, device_);
  const GpuTimeline gpu = sampler.describe();
  EXPECT_EQ(gpu.index, 3);
  EXPECT_EQ(gpu.name, "NVIDIA H200");
  ASSERT_TRUE(gpu.dram_peak_gbps);
  EXPECT_NEAR(*gpu.dram_peak_gbps, 4916.736, 1e-9);  // 3201 MHz x 2 x 6144 bits / 8
  EXPECT_EQ(gpu.pcie_max_gen, 5);
  EXPECT_EQ(gpu.pcie_max_width, 16);
  EXPECT_EQ(gpu.slowdown_temperature_c, 87.0);
  EXPECT_EQ(gpu.power_limit_w, 700.0);
  EXPECT_EQ(gpu.default_power_limit_w, 700.0);
  EXPECT_TRUE(gpu.samples.empty());
  EXPECT_TRUE(sampler.gpm_unavailable().empty()) << sampler.gpm_unavailable();
  EXPECT_TRUE(sampler.events_unavailable().empty()) << sampler.events_unavailable();
}

TEST_F(FakeNvml, PlainFieldsInTheTimelinesUnits) {
  GpuSampler sampler(*nvml_, 0, device_);
  const GpuSample s = sampler.sample(1.5);
  EXPECT_EQ(s.t_s, 1.5);
  EXPECT_EQ(s.utilization, 0.73);
  ASSERT_TRUE(s.memory_used_gib && s.memory_total_gib);
  EXPECT_NEAR(*s.memory_used_gib, 70.2, 0.01);  // v2: the driver's reserved memory is not the job's
  EXPECT_NEAR(*s.memory_total_gib, 140.4, 0.01);
  EXPECT_EQ(s.power_w, 350.0);
  EXPECT_EQ(s.sm_clock_mhz, 1980.0);
  EXPECT_EQ(s.temperature_c, 45.0);
  EXPECT_EQ(s.clock_event_reasons, 0x4u);
  EXPECT_EQ(s.pcie_gen, 5);
  EXPECT_EQ(s.pcie_width, 16);
  EXPECT_FALSE(s.sm_active) << "the first sample has no GPM interval";
}

TEST_F(FakeNvml, GpmSwapsItsTwoSamplesAndConvertsPercentAndMibPerSecond) {
  GpuSampler sampler(*nvml_, 0, device_);
  const int probe = fake_->next_serial - 1;  // the constructor's probe
  EXPECT_EQ(probe, 0);
  EXPECT_EQ(fake_->samples_allocated, 2);
  sampler.sample(0);  // serial 1
  wait_for_gpm();
  const GpuSample s = sampler.sample(0.11);  // serial 2, over (1, 2)
  expect_near(s.sm_active, 0.45);
  EXPECT_EQ(s.sm_occupancy, 1.0) << "a hair over 100 % is a share of 1";
  expect_near(s.tensor_active, 0.02);
  expect_near(s.dram_active, 0.8);
  EXPECT_EQ(s.fp64_active, 0.0);
  expect_near(s.fp32_active, 0.3);
  expect_near(s.fp16_active, 0.01);
  ASSERT_TRUE(s.pcie_rx_gbps);
  EXPECT_NEAR(*s.pcie_rx_gbps, 58.87, 0.01);  // 56,144 MiB/s, the back-to-back pinned copies
  expect_near(s.pcie_tx_gbps, 1.048576);
  EXPECT_EQ(s.nvlink_tx_gbps, 0.0);
  EXPECT_EQ(s.nvlink_rx_gbps, 0.0);

  // Too soon for GPM: its fields are absent, and the next interval still starts at the last sample taken.
  const GpuSample soon = sampler.sample(0.12);
  EXPECT_FALSE(soon.sm_active);
  EXPECT_TRUE(soon.utilization);
  wait_for_gpm();
  EXPECT_TRUE(sampler.sample(0.25).sm_active);  // serial 3, over (2, 3)
  wait_for_gpm();
  EXPECT_TRUE(sampler.sample(0.36).sm_active);  // serial 4, over (3, 4)
  const std::vector<std::pair<int, int>> intervals{{1, 2}, {2, 3}, {3, 4}};
  EXPECT_EQ(fake_->metric_intervals, intervals);
  EXPECT_TRUE(sampler.gpm_unavailable().empty()) << sampler.gpm_unavailable();
}

TEST_F(FakeNvml, GpmUnsupportedOrRefusedIsSaidAndItsFieldsStayAbsent) {
  fake_->gpm_supported = 0;
  {
    GpuSampler sampler(*nvml_, 0, device_);
    EXPECT_NE(sampler.gpm_unavailable().find("GPM is not supported on this GPU"), std::string::npos)
        << sampler.gpm_unavailable();
    sampler.sample(0);
    wait_for_gpm();
    const GpuSample s = sampler.sample(0.11);
    EXPECT_FALSE(s.sm_active);
    EXPECT_FALSE(s.pcie_rx_gbps);
    EXPECT_TRUE(s.utilization);
  }
  fake_->gpm_supported = 1;
  fake_->failing["nvmlGpmSampleGet"] = NVML_ERROR_NO_PERMISSION;
  {
    GpuSampler sampler(*nvml_, 0, device_);
    EXPECT_EQ(sampler.gpm_unavailable(), "nvmlGpmSampleGet: Insufficient Permissions");
  }
  EXPECT_EQ(fake_->samples_allocated, 0) << "the sample buffers are freed";
}

TEST_F(FakeNvml, AFailingMetricIsNamedAndOnlyItsFieldIsAbsent) {
  fake_->metric_failures[NVML_GPM_METRIC_NVLINK_TOTAL_TX_PER_SEC] = NVML_ERROR_NOT_SUPPORTED;
  GpuSampler sampler(*nvml_, 0, device_);
  EXPECT_TRUE(sampler.gpm_unavailable().empty()) << "found only when the metrics are first computed";
  sampler.sample(0);
  wait_for_gpm();
  const GpuSample s = sampler.sample(0.11);
  EXPECT_FALSE(s.nvlink_tx_gbps);
  EXPECT_TRUE(s.nvlink_rx_gbps);
  EXPECT_TRUE(s.sm_active);
  EXPECT_EQ(sampler.gpm_unavailable(),
            "GPM fields absent where they failed: nvlink_tx_gbps (NVLINK_TOTAL_TX_PER_SEC: Not Supported)");

  // Every metric failing (a virtual GPU): no GPM metric could be read.
  for (const auto& [metric, value] : fake_->metric_values) fake_->metric_failures[metric] = NVML_ERROR_NOT_SUPPORTED;
  GpuSampler virtual_gpu(*nvml_, 0, device_);
  virtual_gpu.sample(0);
  wait_for_gpm();
  EXPECT_FALSE(virtual_gpu.sample(0.11).sm_active);
  EXPECT_EQ(virtual_gpu.gpm_unavailable().rfind("no GPM metric could be read: sm_active (SM_UTIL: Not Supported), ",
                                                0),
            0u)
      << virtual_gpu.gpm_unavailable();
}

TEST_F(FakeNvml, AWatchSessionSaysWhyGpmFieldsAreAbsentOnceTheJobsSamplesShowIt) {
  fake_->metric_failures[NVML_GPM_METRIC_NVLINK_TOTAL_TX_PER_SEC] = NVML_ERROR_NOT_SUPPORTED;
  WatchSession session(nvml_.get(), "", {{0, device_}}, 1.0 / 6, {});
  EXPECT_TRUE(session.gpm_unavailable().empty()) << "no metric has been computed yet";
  session.run(nullptr, 0.4, {});
  ASSERT_GE(session.timeline().gpus.at(0).samples.size(), 2u);
  EXPECT_EQ(session.gpm_unavailable().at(0),
            "GPM fields absent where they failed: nvlink_tx_gbps (NVLINK_TOTAL_TX_PER_SEC: Not Supported)");
}

TEST_F(FakeNvml, AGpmSampleThatFailsRestartsTheIntervalAndIsCounted) {
  GpuSampler sampler(*nvml_, 0, device_);
  sampler.sample(0);
  wait_for_gpm();
  fake_->failing["nvmlGpmSampleGet"] = NVML_ERROR_GPU_IS_LOST;
  EXPECT_FALSE(sampler.sample(0.11).sm_active);
  fake_->failing.clear();
  wait_for_gpm();
  EXPECT_FALSE(sampler.sample(0.22).sm_active) << "a new interval starts here";
  wait_for_gpm();
  EXPECT_TRUE(sampler.sample(0.33).sm_active);
  EXPECT_NE(sampler.gpm_unavailable().find("GPM samples failed 1 times"), std::string::npos)
      << sampler.gpm_unavailable();
  EXPECT_NE(sampler.gpm_unavailable().find("GPU is lost"), std::string::npos);
}

TEST_F(FakeNvml, FailingCallsLeaveTheirFieldsAbsentWithoutThrowing) {
  for (const char* call : {"nvmlDeviceGetUtilizationRates", "nvmlDeviceGetPowerUsage", "nvmlDeviceGetClockInfo",
                           "nvmlDeviceGetTemperature", "nvmlDeviceGetCurrentClocksEventReasons",
                           "nvmlDeviceGetCurrPcieLinkGeneration", "nvmlDeviceGetCurrPcieLinkWidth",
                           "nvmlDeviceGetMemoryInfo_v2", "nvmlDeviceGetName", "nvmlDeviceGetMemoryBusWidth",
                           "nvmlDeviceGetTemperatureThreshold", "nvmlDeviceGetMaxPcieLinkGeneration"}) {
    fake_->failing[call] = NVML_ERROR_NOT_SUPPORTED;
  }
  GpuSampler sampler(*nvml_, 0, device_);
  const GpuTimeline gpu = sampler.describe();
  EXPECT_TRUE(gpu.name.empty());
  EXPECT_FALSE(gpu.dram_peak_gbps);
  EXPECT_FALSE(gpu.slowdown_temperature_c);
  EXPECT_FALSE(gpu.pcie_max_gen);
  EXPECT_EQ(gpu.pcie_max_width, 16);
  const GpuSample s = sampler.sample(0);
  EXPECT_FALSE(s.utilization);
  EXPECT_FALSE(s.power_w);
  EXPECT_FALSE(s.sm_clock_mhz);
  EXPECT_FALSE(s.temperature_c);
  EXPECT_FALSE(s.clock_event_reasons) << "unread, not 0";
  EXPECT_FALSE(s.pcie_gen);
  EXPECT_FALSE(s.pcie_width);
  // Memory falls back to v1, which counts the driver's reserved memory as used.
  ASSERT_TRUE(s.memory_used_gib);
  EXPECT_NEAR(*s.memory_used_gib, 70.73, 0.01);
  fake_->failing["nvmlDeviceGetMemoryInfo"] = NVML_ERROR_NOT_SUPPORTED;
  EXPECT_FALSE(sampler.sample(1).memory_used_gib);
}

TEST_F(FakeNvml, XidEventsAndEccGrowthArriveOnceEach) {
  GpuSampler sampler(*nvml_, 2, device_);
  EXPECT_EQ(fake_->event_sets, 1);
  EXPECT_TRUE(sampler.take_events(0.5).empty());
  fake_->pending_xids = {79, 13};
  fake_->ecc_corrected = 5;  // from 3
  const std::vector<WatchEvent> events = sampler.take_events(1.5);
  ASSERT_EQ(events.size(), 3u);
  EXPECT_EQ(events[0].kind, "xid");
  EXPECT_EQ(events[0].code, 79);
  EXPECT_EQ(events[0].gpu, 2);
  EXPECT_EQ(events[0].t_s, 1.5);
  EXPECT_NE(events[0].detail.find("fallen off the bus"), std::string::npos) << events[0].detail;
  EXPECT_EQ(events[1].code, 13);
  EXPECT_EQ(events[2].kind, "ecc_corrected");
  EXPECT_EQ(events[2].code, 2);
  EXPECT_EQ(events[2].detail, "volatile corrected ECC errors rose from 3 to 5");
  EXPECT_TRUE(sampler.take_events(2.5).empty());
  fake_->ecc_corrected = 0;  // the volatile counters reset (a driver reload): no event, a new start
  EXPECT_TRUE(sampler.take_events(3.5).empty());
  fake_->ecc_corrected = 1;
  fake_->ecc_uncorrected = 1;
  const std::vector<WatchEvent> later = sampler.take_events(4.5);
  ASSERT_EQ(later.size(), 2u);
  EXPECT_EQ(later[0].kind, "ecc_corrected");
  EXPECT_EQ(later[0].code, 1);
  EXPECT_EQ(later[1].kind, "ecc_uncorrected");
}

TEST_F(FakeNvml, EventsThatCannotBeWatchedAreSaid) {
  fake_->failing["nvmlDeviceRegisterEvents"] = NVML_ERROR_NO_PERMISSION;
  fake_->failing["nvmlDeviceGetTotalEccErrors"] = NVML_ERROR_NOT_SUPPORTED;
  {
    GpuSampler sampler(*nvml_, 0, device_);
    EXPECT_EQ(sampler.events_unavailable(),
              "Xid events not watched: nvmlDeviceRegisterEvents: Insufficient Permissions; ECC errors not watched: "
              "nvmlDeviceGetTotalEccErrors: Not Supported");
    EXPECT_EQ(sampler.describe().events_unwatched, sampler.events_unavailable()) << "the timeline says so too";
    EXPECT_EQ(fake_->event_sets, 0) << "the set is freed when registering fails";
    fake_->pending_xids = {79};
    EXPECT_TRUE(sampler.take_events(1).empty());
  }
  EXPECT_EQ(fake_->event_sets, 0);
}

}  // namespace
}  // namespace gpubench
