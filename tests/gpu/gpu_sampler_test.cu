// GpuSampler on the first GPU: two samples 200 ms apart hold the plain NVML fields in range; the GPM fields are
// there (in range) or gpm_unavailable() says why; then, under known loads, GPM reads what the load does: a kernel
// that keeps every SM busy (SM activity), device-to-device copies (DRAM activity x the theoretical peak against
// the copies' own rate) and pinned host-to-device copies (PCIe bytes into the GPU against the copies' payload).
// The figures are printed for the notes: they are what docs/watch.md's conversions are checked against.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>

#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/common/nvml_library.hpp"
#include "harness/watch/gpu_sampler.hpp"
#include "tests/gpu/gpu_test_support.hpp"

namespace gpubench {
namespace {

using Clock = std::chrono::steady_clock;

struct Nvml {
  std::unique_ptr<NvmlLibrary> library;
  nvmlDevice_t device = nullptr;
  std::string why_not;
};

Nvml open_first_gpu() {
  Nvml n;
  n.library = NvmlLibrary::load(&n.why_not);
  if (n.library) {
    GPUBENCH_CUDA_CHECK(cudaSetDevice(0));
    n.device = n.library->device_for_cuda_index(0);
    if (n.device == nullptr) n.why_not = "NVML has no device for CUDA device 0";
  }
  return n;
}

#define GPUBENCH_REQUIRE_NVML(n)                              \
  do {                                                        \
    if ((n).device == nullptr) GTEST_SKIP() << (n).why_not;   \
  } while (false)

void expect_share(const std::optional<double>& x, const char* name) {
  if (x) {
    EXPECT_GE(*x, 0.0) << name;
    EXPECT_LE(*x, 1.0) << name;
  }
}

void expect_rate(const std::optional<double>& x, const char* name) {
  if (x) {
    EXPECT_GE(*x, 0.0) << name;
    EXPECT_LT(*x, 10000.0) << name << " (GB/s)";
  }
}

std::string text(const std::optional<double>& x) { return x ? std::to_string(*x) : std::string("absent"); }

TEST(GpuSampler, TwoSamplesOfTheFirstGpuHoldItsFieldsInRange) {
  GPUBENCH_REQUIRE_GPU();
  const Nvml n = open_first_gpu();
  GPUBENCH_REQUIRE_NVML(n);
  GpuSampler sampler(*n.library, 0, n.device);

  const GpuTimeline facts = sampler.describe();
  EXPECT_EQ(facts.index, 0);
  EXPECT_FALSE(facts.name.empty());
  EXPECT_TRUE(facts.samples.empty());
  ASSERT_TRUE(facts.dram_peak_gbps) << "max memory clock or bus width unread";
  EXPECT_GT(*facts.dram_peak_gbps, 100.0);
  EXPECT_LT(*facts.dram_peak_gbps, 20000.0);
  if (facts.pcie_max_gen) {
    EXPECT_GE(*facts.pcie_max_gen, 1);
    EXPECT_LE(*facts.pcie_max_gen, 6);
  }
  if (facts.pcie_max_width) {
    EXPECT_GE(*facts.pcie_max_width, 1);
    EXPECT_LE(*facts.pcie_max_width, 32);
  }
  if (facts.slowdown_temperature_c) {
    EXPECT_GT(*facts.slowdown_temperature_c, 40.0);
    EXPECT_LT(*facts.slowdown_temperature_c, 130.0);
  }
  std::printf("GPU 0 %s: dram_peak_gbps %s, PCIe max gen %d width %d, slowdown %s C\n", facts.name.c_str(),
              text(facts.dram_peak_gbps).c_str(), facts.pcie_max_gen.value_or(-1), facts.pcie_max_width.value_or(-1),
              text(facts.slowdown_temperature_c).c_str());
  std::printf("gpm_unavailable: '%s'\nevents_unavailable: '%s'\n", sampler.gpm_unavailable().c_str(),
              sampler.events_unavailable().c_str());

  const GpuSample first = sampler.sample(0.0);
  EXPECT_FALSE(first.sm_active) << "the first sample has no interval to compute GPM over";
  EXPECT_FALSE(first.pcie_rx_gbps);
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  const GpuSample s = sampler.sample(0.2);
  EXPECT_EQ(s.t_s, 0.2);
  ASSERT_TRUE(s.utilization);
  expect_share(s.utilization, "utilization");
  ASSERT_TRUE(s.memory_used_gib && s.memory_total_gib);
  EXPECT_GT(*s.memory_total_gib, 1.0);
  EXPECT_LE(*s.memory_used_gib, *s.memory_total_gib);
  ASSERT_TRUE(s.sm_clock_mhz);
  EXPECT_GT(*s.sm_clock_mhz, 0.0);
  EXPECT_LT(*s.sm_clock_mhz, 5000.0);
  ASSERT_TRUE(s.temperature_c);
  EXPECT_GT(*s.temperature_c, 0.0);
  EXPECT_LT(*s.temperature_c, 130.0);
  if (s.power_w) {
    EXPECT_GT(*s.power_w, 0.0);
    EXPECT_LT(*s.power_w, 3000.0);
  }
  EXPECT_TRUE(s.clock_event_reasons);
  if (s.pcie_gen && facts.pcie_max_gen) EXPECT_LE(*s.pcie_gen, *facts.pcie_max_gen);
  if (s.pcie_width && facts.pcie_max_width) EXPECT_LE(*s.pcie_width, *facts.pcie_max_width);

  if (sampler.gpm_unavailable().empty()) {
    for (const auto& [field, name] : {std::pair{&GpuSample::sm_active, "sm_active"},
                                      {&GpuSample::sm_occupancy, "sm_occupancy"},
                                      {&GpuSample::tensor_active, "tensor_active"},
                                      {&GpuSample::dram_active, "dram_active"},
                                      {&GpuSample::fp64_active, "fp64_active"},
                                      {&GpuSample::fp32_active, "fp32_active"},
                                      {&GpuSample::fp16_active, "fp16_active"},
                                      {&GpuSample::pcie_tx_gbps, "pcie_tx_gbps"},
                                      {&GpuSample::pcie_rx_gbps, "pcie_rx_gbps"},
                                      {&GpuSample::nvlink_tx_gbps, "nvlink_tx_gbps"},
                                      {&GpuSample::nvlink_rx_gbps, "nvlink_rx_gbps"}}) {
      EXPECT_TRUE(s.*field) << name << " absent while gpm_unavailable() is empty";
    }
  } else {
    std::printf("GPM fields absent: %s\n", sampler.gpm_unavailable().c_str());
  }
  for (auto field : {&GpuSample::sm_active, &GpuSample::sm_occupancy, &GpuSample::tensor_active,
                     &GpuSample::dram_active, &GpuSample::fp64_active, &GpuSample::fp32_active,
                     &GpuSample::fp16_active}) {
    expect_share(s.*field, "a GPM share");
  }
  for (auto field : {&GpuSample::pcie_tx_gbps, &GpuSample::pcie_rx_gbps, &GpuSample::nvlink_tx_gbps,
                     &GpuSample::nvlink_rx_gbps}) {
    expect_rate(s.*field, "a GPM rate");
  }
  std::printf("idle: utilization %s, memory %s of %s GiB, %s W, SM %s MHz, %s C, reasons %llu, PCIe gen %d x%d, "
              "sm_active %s, dram_active %s, pcie rx %s tx %s GB/s, nvlink rx %s tx %s GB/s\n",
              text(s.utilization).c_str(), text(s.memory_used_gib).c_str(), text(s.memory_total_gib).c_str(),
              text(s.power_w).c_str(), text(s.sm_clock_mhz).c_str(), text(s.temperature_c).c_str(),
              static_cast<unsigned long long>(s.clock_event_reasons.value_or(0)), s.pcie_gen.value_or(-1),
              s.pcie_width.value_or(-1), text(s.sm_active).c_str(), text(s.dram_active).c_str(),
              text(s.pcie_rx_gbps).c_str(), text(s.pcie_tx_gbps).c_str(), text(s.nvlink_rx_gbps).c_str(),
              text(s.nvlink_tx_gbps).c_str());

  // A call sooner than GPM's 100 ms gap gives no GPM fields, and the next one on time does.
  const GpuSample soon = sampler.sample(0.21);
  EXPECT_FALSE(soon.sm_active);
  EXPECT_TRUE(soon.utilization);
  std::this_thread::sleep_for(std::chrono::milliseconds(150));
  const GpuSample later = sampler.sample(0.36);
  if (sampler.gpm_unavailable().empty()) EXPECT_TRUE(later.sm_active);

  const std::vector<WatchEvent> events = sampler.take_events(0.4);
  EXPECT_TRUE(events.empty()) << events.size() << " Xid/ECC events on an idle GPU: " << events[0].detail;
}

__global__ void spin(long long cycles) {
  const long long start = clock64();
  while (clock64() - start < cycles) {
  }
}

// Samples before and after `load` (half a second or more); returns the second sample.
template <class Load>
GpuSample sample_around(GpuSampler& sampler, Load&& load) {
  std::this_thread::sleep_for(std::chrono::milliseconds(150));  // past GPM's gap since any earlier sample
  sampler.sample(0.0);
  const auto start = Clock::now();
  load();
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();
  return sampler.sample(elapsed);
}

TEST(GpuSampler, GpmReadsKnownLoads) {
  GPUBENCH_REQUIRE_GPU();
  const Nvml n = open_first_gpu();
  GPUBENCH_REQUIRE_NVML(n);
  GpuSampler sampler(*n.library, 0, n.device);
  if (!sampler.gpm_unavailable().empty()) GTEST_SKIP() << "GPM: " << sampler.gpm_unavailable();
  const GpuTimeline facts = sampler.describe();
  int sms = 0, clock_khz = 0;
  GPUBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, 0));
  GPUBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&clock_khz, cudaDevAttrClockRate, 0));

  // Every SM busy for about 0.5 s.
  const GpuSample busy = sample_around(sampler, [&] {
    spin<<<sms * 4, 256>>>(static_cast<long long>(clock_khz) * 1000 / 2);
    GPUBENCH_CUDA_CHECK(cudaGetLastError());
    GPUBENCH_CUDA_CHECK(cudaDeviceSynchronize());
  });
  std::printf("spin: utilization %s, sm_active %s, sm_occupancy %s, tensor %s, fp32 %s\n",
              text(busy.utilization).c_str(), text(busy.sm_active).c_str(), text(busy.sm_occupancy).c_str(),
              text(busy.tensor_active).c_str(), text(busy.fp32_active).c_str());
  ASSERT_TRUE(busy.sm_active);
  EXPECT_GT(*busy.sm_active, 0.7);
  EXPECT_LT(busy.tensor_active.value_or(0), 0.05);

  // Device-to-device copies of 1 GiB for about 0.5 s: each moves its bytes twice through DRAM (read and write).
  {
    const std::size_t bytes = std::size_t{1} << 30;
    DeviceBuffer<unsigned char> a(bytes), b(bytes);
    GPUBENCH_CUDA_CHECK(cudaMemset(a.get(), 1, bytes));
    GPUBENCH_CUDA_CHECK(cudaDeviceSynchronize());
    double moved_gbps = 0;
    const GpuSample copying = sample_around(sampler, [&] {
      const auto start = Clock::now();
      int copies = 0;
      while (Clock::now() - start < std::chrono::milliseconds(500)) {
        for (int i = 0; i < 8; ++i, ++copies) {
          GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(b.get(), a.get(), bytes, cudaMemcpyDeviceToDevice));
        }
        GPUBENCH_CUDA_CHECK(cudaDeviceSynchronize());
      }
      const double seconds = std::chrono::duration<double>(Clock::now() - start).count();
      moved_gbps = 2.0 * bytes * copies / seconds / 1e9;
    });
    ASSERT_TRUE(copying.dram_active);
    const double read_gbps = *copying.dram_active * facts.dram_peak_gbps.value_or(0);
    std::printf("d2d copies: %.0f GB/s through DRAM by the clock; dram_active %.3f x %.0f GB/s peak = %.0f GB/s "
                "(ratio %.3f)\n", moved_gbps, *copying.dram_active, facts.dram_peak_gbps.value_or(0), read_gbps,
                read_gbps / moved_gbps);
    EXPECT_GT(*copying.dram_active, 0.3);
    EXPECT_GT(read_gbps, 0.5 * moved_gbps);
    EXPECT_LT(read_gbps, 1.5 * moved_gbps);
  }

  // Pinned host-to-device copies of 256 MiB for about 0.5 s: PCIe bytes into the GPU, headers included.
  {
    const std::size_t bytes = std::size_t{256} << 20;
    void* host = nullptr;
    GPUBENCH_CUDA_CHECK(cudaMallocHost(&host, bytes));
    DeviceBuffer<unsigned char> device(bytes);
    double payload_gbps = 0;
    const GpuSample copying = sample_around(sampler, [&] {
      const auto start = Clock::now();
      int copies = 0;
      while (Clock::now() - start < std::chrono::milliseconds(500)) {
        for (int i = 0; i < 4; ++i, ++copies) {
          GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(device.get(), host, bytes, cudaMemcpyHostToDevice));
        }
        GPUBENCH_CUDA_CHECK(cudaDeviceSynchronize());
      }
      payload_gbps = static_cast<double>(bytes) * copies /
                     std::chrono::duration<double>(Clock::now() - start).count() / 1e9;
    });
    cudaFreeHost(host);
    ASSERT_TRUE(copying.pcie_rx_gbps);
    std::printf("pinned h2d: payload %.1f GB/s; GPM PCIe rx %.1f GB/s, tx %s GB/s (link/payload %.3f)\n",
                payload_gbps, *copying.pcie_rx_gbps, text(copying.pcie_tx_gbps).c_str(),
                *copying.pcie_rx_gbps / payload_gbps);
    EXPECT_GT(*copying.pcie_rx_gbps, 0.5 * payload_gbps);
    EXPECT_LT(*copying.pcie_rx_gbps, 1.5 * payload_gbps);
  }
}

}  // namespace
}  // namespace gpubench
