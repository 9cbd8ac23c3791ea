// The pcie family's pieces on a real GPU: pinned and pageable host buffers carry copies both ways intact at
// odd sizes and offsets, the gate holds copies until it is opened (and gives up rather than hang), and the
// measured bandwidth is positive and below the link's theoretical rate when NVML reports the link; the pool
// of pinned buffers hands a returned buffer out again and keeps no more idle than was ever in use at once.
#include <gtest/gtest.h>

#include <chrono>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "benchmarks/common/copy_gate.hpp"
#include "benchmarks/common/cuda_event.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/common/event_timer.hpp"
#include "benchmarks/common/host_affinity.hpp"
#include "benchmarks/common/host_buffer.hpp"
#include "benchmarks/common/nvml_library.hpp"
#include "benchmarks/common/pcie_link.hpp"
#include "benchmarks/common/host_buffer_pool.hpp"
#include "kernels/random_fill.cuh"
#include "tests/gpu/gpu_test_support.hpp"

namespace gpubench {
namespace {

// Polls an event: true once the work before it is done.
bool done(const CudaEvent& event) {
  const cudaError_t status = cudaEventQuery(event.get());
  if (status != cudaErrorNotReady) GPUBENCH_CUDA_CHECK(status);
  return status == cudaSuccess;
}

int current_device() {
  int device = 0;
  GPUBENCH_CUDA_CHECK(cudaGetDevice(&device));
  return device;
}

std::vector<unsigned char> download(const void* device, std::size_t bytes) {
  std::vector<unsigned char> out(bytes);
  GPUBENCH_CUDA_CHECK(cudaMemcpy(out.data(), device, bytes, cudaMemcpyDeviceToHost));
  return out;
}

class PcieCopy : public ::testing::TestWithParam<HostMemory> {};

TEST_P(PcieCopy, BothDirectionsArriveByteForByteAtOddSizesAndOffsets) {
  GPUBENCH_REQUIRE_GPU();
  const HostMemory kind = GetParam();
  const int node = gpu_locality(current_device()).numa_node;
  CudaStream stream;
  for (const std::size_t bytes : {std::size_t{1}, std::size_t{4097}, (std::size_t{3} << 20) + 13}) {
    for (const std::size_t offset : {std::size_t{0}, std::size_t{3}}) {
      SCOPED_TRACE(std::to_string(bytes) + " bytes at host offset " + std::to_string(offset));
      HostBuffer host(bytes + offset, kind, node);
      cudaPointerAttributes attributes{};
      GPUBENCH_CUDA_CHECK(cudaPointerGetAttributes(&attributes, host.get()));
      EXPECT_EQ(attributes.type, kind == HostMemory::Pinned ? cudaMemoryTypeHost : cudaMemoryTypeUnregistered);
      DeviceBuffer<unsigned char> device(bytes);

      // Host to device: the device buffer starts out different, then must equal the host's bytes.
      host.fill_random(bytes + offset);
      GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(device.get(), bytes, 99, stream.get()));
      GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(device.get(), host.get() + offset, bytes, cudaMemcpyHostToDevice, stream.get()));
      stream.synchronize();
      EXPECT_EQ(std::memcmp(download(device.get(), bytes).data(), host.get() + offset, bytes), 0);

      // Device to host: fresh random bytes on the device; the host, refilled with others, must receive them.
      GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(device.get(), bytes, 7 * bytes + offset, stream.get()));
      host.fill_random(3 * bytes);
      GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(host.get() + offset, device.get(), bytes, cudaMemcpyDeviceToHost, stream.get()));
      stream.synchronize();
      EXPECT_EQ(std::memcmp(download(device.get(), bytes).data(), host.get() + offset, bytes), 0);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(HostMemoryKinds, PcieCopy, ::testing::Values(HostMemory::Pinned, HostMemory::Pageable),
                         [](const ::testing::TestParamInfo<HostMemory>& info) { return host_memory_name(info.param); });

TEST(CopyGate, HoldsCopiesOnSeveralStreamsUntilOpenedRoundAfterRound) {
  GPUBENCH_REQUIRE_GPU();
  const std::size_t bytes = std::size_t{8} << 20;
  HostBuffer source(bytes, HostMemory::Pinned, -1), destination(bytes, HostMemory::Pinned, -1);
  DeviceBuffer<unsigned char> device_destination(bytes), device_source(bytes);
  CudaStream gate_stream, h2d_stream, d2h_stream;
  CudaEvent released(cudaEventDisableTiming), h2d_done(cudaEventDisableTiming), d2h_done(cudaEventDisableTiming);
  CopyGate gate;
  for (int round = 0; round < 3; ++round) {
    SCOPED_TRACE("round " + std::to_string(round));
    source.fill_random(round);
    destination.fill_random(100 + round);
    GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(device_source.get(), bytes, 200 + round, nullptr));
    GPUBENCH_CUDA_CHECK(cudaDeviceSynchronize());

    gate.close(gate_stream.get());
    GPUBENCH_CUDA_CHECK(cudaEventRecord(released.get(), gate_stream.get()));
    GPUBENCH_CUDA_CHECK(cudaStreamWaitEvent(h2d_stream.get(), released.get(), 0));
    GPUBENCH_CUDA_CHECK(cudaStreamWaitEvent(d2h_stream.get(), released.get(), 0));
    GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(device_destination.get(), source.get(), bytes, cudaMemcpyHostToDevice, h2d_stream.get()));
    GPUBENCH_CUDA_CHECK(cudaEventRecord(h2d_done.get(), h2d_stream.get()));
    GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(destination.get(), device_source.get(), bytes, cudaMemcpyDeviceToHost, d2h_stream.get()));
    GPUBENCH_CUDA_CHECK(cudaEventRecord(d2h_done.get(), d2h_stream.get()));

    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // 8 MiB would have crossed in well under 1 ms
    EXPECT_FALSE(done(released));
    EXPECT_FALSE(done(h2d_done));
    EXPECT_FALSE(done(d2h_done));
    gate.open();
    GPUBENCH_CUDA_CHECK(cudaEventSynchronize(h2d_done.get()));
    GPUBENCH_CUDA_CHECK(cudaEventSynchronize(d2h_done.get()));
    EXPECT_FALSE(gate.timed_out());
    EXPECT_EQ(std::memcmp(download(device_destination.get(), bytes).data(), source.get(), bytes), 0);
    EXPECT_EQ(std::memcmp(download(device_source.get(), bytes).data(), destination.get(), bytes), 0);
  }
}

TEST(CopyGate, GivesUpAfterItsTimeoutInsteadOfHanging) {
  GPUBENCH_REQUIRE_GPU();
  CudaStream stream;
  CopyGate gate(std::chrono::milliseconds(50));
  const auto start = std::chrono::steady_clock::now();
  gate.close(stream.get());
  stream.synchronize();  // never opened: only the timeout lets this return
  EXPECT_TRUE(gate.timed_out());
  EXPECT_GE(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(50));
}

TEST(PcieBandwidth, IsPositiveAndBelowTheLinkPeak) {
  GPUBENCH_REQUIRE_GPU();
  const int device_index = current_device();
  const GpuLocality locality = gpu_locality(device_index);
  const ScopedCpuBinding binding(locality.cpus);
  const std::size_t bytes = std::size_t{256} << 20;
  HostBuffer host(bytes, HostMemory::Pinned, locality.numa_node);
  host.fill_random(1);
  DeviceBuffer<unsigned char> device(bytes);
  GPUBENCH_CUDA_CHECK(kernels::fill_random_bytes(device.get(), bytes, 2, nullptr));
  CudaStream stream;
  EventTimer timer;
  std::string why_not;
  const std::unique_ptr<NvmlLibrary> nvml = NvmlLibrary::load(&why_not);
  for (const cudaMemcpyKind kind : {cudaMemcpyHostToDevice, cudaMemcpyDeviceToHost}) {
    const bool h2d = kind == cudaMemcpyHostToDevice;
    void* destination = h2d ? static_cast<void*>(device.get()) : host.get();
    const void* source = h2d ? static_cast<const void*>(host.get()) : device.get();
    GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(destination, source, bytes, kind, stream.get()));  // warm-up
    timer.start(stream.get());
    for (int i = 0; i < 4; ++i) GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(destination, source, bytes, kind, stream.get()));
    timer.stop(stream.get());
    const double gbps = 4.0 * bytes / timer.seconds() / 1e9;
    const PcieLinkState link = read_pcie_link(nvml.get(), nvml ? nvml->device_for_cuda_index(device_index) : nullptr);
    const char* name = h2d ? "h2d_gbps" : "d2h_gbps";
    ::testing::Test::RecordProperty(name, std::to_string(gbps));
    EXPECT_GT(gbps, 0.0) << name;
    if (const std::optional<double> peak = link_peak_gbps(link)) {
      EXPECT_LT(gbps, *peak) << name << ": measured " << gbps << " GB/s over a link of " << *peak;
      ::testing::Test::RecordProperty("link_peak_gbps", std::to_string(*peak));
    } else {
      ::testing::Test::RecordProperty("link_peak_gbps", nvml ? "unknown" : why_not);
    }
  }
}

TEST(HostBufferPool, ReusesAReturnedBufferOfTheSameKindAndKeepsNoMoreIdleThanWasEverInUse) {
  GPUBENCH_REQUIRE_GPU();
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  HostBufferPool pool;
  const unsigned char* first = nullptr;
  {
    const HostBufferLease lease = pool.take(kMiB, HostMemory::Pinned, -1);
    EXPECT_EQ(lease->kind(), HostMemory::Pinned);
    first = lease->get();
  }
  EXPECT_EQ(pool.idle_bytes(), kMiB);
  {
    const HostBufferLease again = pool.take(kMiB, HostMemory::Pinned, -1);
    EXPECT_EQ(again->get(), first) << "the idle buffer of that size, kind and node is handed out again";
    const HostBufferLease second = pool.take(kMiB, HostMemory::Pinned, -1);
    EXPECT_NE(second->get(), first);
    const HostBufferLease elsewhere = pool.take(kMiB, HostMemory::Pinned, 0);
    EXPECT_NE(elsewhere->get(), first) << "another NUMA node gets a buffer of its own";
  }
  EXPECT_EQ(pool.idle_bytes(), 3 * kMiB) << "three were in use at once";
  { const HostBufferLease small = pool.take(4096, HostMemory::Pinned, -1); }
  EXPECT_EQ(pool.idle_bytes(), 3 * kMiB) << "over the most ever in use, the smallest idle buffer is freed";
  const unsigned char* pageable = nullptr;
  {
    const HostBufferLease lease = pool.take(kMiB, HostMemory::Pageable, -1);
    EXPECT_EQ(lease->kind(), HostMemory::Pageable) << "an idle pinned buffer of the size does not serve";
    EXPECT_NE(lease->get(), first);
    pageable = lease->get();
  }
  const HostBufferLease pageable_again = pool.take(kMiB, HostMemory::Pageable, -1);
  EXPECT_EQ(pageable_again->get(), pageable) << "a pageable buffer is handed out again, its pages already touched";
}

}  // namespace
}  // namespace gpubench
