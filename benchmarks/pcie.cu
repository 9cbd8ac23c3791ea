// Host<->device copies over PCIe: pinned and pageable host memory, each way and both ways at once, on each
// GPU and on every GPU together, and each GPU's own rate while every GPU copies (nvbandwidth's host_to_all and
// all_to_host). Host memory sits on the GPU's NUMA node and the timing thread runs on the
// GPU's CPUs wherever the platform says which those are. Pinned copies wait behind a gate kernel, so that
// both directions (and all GPUs) start together and the time to enqueue them is not counted. Pageable copies
// cannot wait behind a gate (the host does part of the copy), so they are timed between events as enqueued.
// Every copy is checked byte for byte after the timed runs; the peak is the link's rate in one direction.
// Pinned host buffers come from a pool (pinned_host_pool.hpp): pinning them anew for each of Google Benchmark's
// runs took most of the family's time.
#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "benchmarks/common/copy_gate.hpp"
#include "benchmarks/common/copy_job.hpp"
#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/cuda_event.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/common/event_timer.hpp"
#include "benchmarks/common/family_registration.hpp"
#include "benchmarks/common/gated_rounds.hpp"
#include "benchmarks/common/host_affinity.hpp"
#include "benchmarks/common/host_buffer.hpp"
#include "benchmarks/common/pcie_link.hpp"
#include "benchmarks/common/host_buffer_pool.hpp"
#include "benchmarks/common/process_resources.hpp"
#include "benchmarks/common/registry.hpp"
#include "benchmarks/common/reporting.hpp"
#include "benchmarks/common/significant_digits.hpp"
#include "benchmarks/common/throughput.hpp"
#include "benchmarks/common/timed_loop.hpp"
#include "benchmarks/common/transfer_sizes.hpp"

namespace gpubench {
namespace {

constexpr std::size_t kAllGpusBytes = kGiB;
// nvbandwidth's default buffer, for host_to_all and all_to_host.
constexpr std::size_t kHostPatternBytes = 512 * kMiB;

// 4 KiB to 1 GiB in x4 steps; the quick suite keeps four of them for pinned copies, which gate at every size,
// and 1 GiB alone for pageable ones: those are the node's (its CPUs and memory), judged by no verdict, and `gpubench
// watch` takes its pageable ceilings from 1 GiB only.
std::vector<std::size_t> transfer_sizes(Suite suite, HostMemory kind) {
  if (suite == Suite::Quick) {
    if (kind == HostMemory::Pageable) return {kGiB};
    return {4 * kKiB, kMiB, 64 * kMiB, kGiB};
  }
  std::vector<std::size_t> sizes;
  for (std::size_t bytes = 4 * kKiB; bytes <= kGiB; bytes *= 4) sizes.push_back(bytes);
  return sizes;
}

// Pinned copies on the current GPU, one lane per direction, each lane on its own stream behind one gate.
// A round times each lane from the gate's release to its last copy done.
class GatedCopies {
 public:
  GatedCopies(HostBufferPool& pool, const std::vector<Direction>& directions, std::size_t bytes, int numa_node,
              std::uint64_t seed) {
    for (Direction direction : directions) {
      lanes_.push_back(std::make_unique<Lane>(pool, direction, bytes, numa_node, seed++));
    }
  }

  const CopyJob& job(std::size_t lane) const { return lanes_[lane]->job; }

  // Enqueues the gate and, behind it, `batch` copies on each lane. Nothing here waits for the GPU.
  void enqueue_round(CopyGate& gate, std::size_t batch) {
    gate.close(gate_stream_.get());
    released_.record(gate_stream_.get());
    for (const auto& lane : lanes_) {
      GPUBENCH_CUDA_CHECK(cudaStreamWaitEvent(lane->stream.get(), released_.get(), 0));
      for (std::size_t i = 0; i < batch; ++i) lane->job.enqueue(lane->stream.get());
      lane->done.record(lane->stream.get());
    }
  }

  // Waits for the round's copies; per lane, the seconds from the gate's release to its last copy done.
  std::vector<double> lane_seconds() const {
    std::vector<double> seconds;
    for (const auto& lane : lanes_) seconds.push_back(lane->done.seconds_since(released_));
    return seconds;
  }

  unsigned long long count_mismatches(std::size_t lane) const {
    return lanes_[lane]->job.count_mismatches(lanes_[lane]->stream.get());
  }

 private:
  struct Lane {
    Lane(HostBufferPool& pool, Direction direction, std::size_t bytes, int numa_node, std::uint64_t seed)
        : job(pool, direction, bytes, HostMemory::Pinned, numa_node, seed, stream.get()) {}
    CudaStream stream;
    CopyJob job;
    CudaEvent done;
  };

  CudaStream gate_stream_;
  CudaEvent released_;
  std::vector<std::unique_ptr<Lane>> lanes_;
};

// The link's generation and width in params, under `prefix` (empty, or "gpuN_" for figures of several GPUs).
void add_link_params(std::map<std::string, std::string>& params, const std::string& prefix, const PcieLinkState& link) {
  if (!link.current_generation && !link.current_width && !link.max_generation && !link.max_width) {
    params[prefix + "pcie_link"] = "unknown (NVML unavailable)";
    return;
  }
  const auto put = [&](const char* key, const std::optional<unsigned>& value) {
    if (value) params[prefix + key] = std::to_string(*value);
  };
  put("pcie_current_generation", link.current_generation);
  put("pcie_current_width", link.current_width);
  put("pcie_max_generation", link.max_generation);
  put("pcie_max_width", link.max_width);
  params[prefix + "link_below_max"] = link_below_max(link) ? "true" : "false";
}

// Where the host side of a copy ran and lived: for params.
void add_placement_params(std::map<std::string, std::string>& params, const std::string& prefix, const GpuLocality& locality,
                          const HostBuffer& buffer) {
  params[prefix + "numa_node"] = locality.numa_node < 0 ? "unknown" : std::to_string(locality.numa_node);
  params[prefix + "host_placement"] = buffer.placement();
}

FigureLabel bandwidth_label(const std::optional<int>& device, std::size_t bytes, std::size_t batch, HostMemory kind) {
  FigureLabel label{"bandwidth", "GB/s", Better::Higher, device, {}};
  label.params["bytes"] = std::to_string(bytes);
  label.params["copies_per_iteration"] = std::to_string(batch);
  label.params["host_memory"] = kind == HostMemory::Pinned ? "pinned (mmap + cudaHostRegister)" : "pageable (mmap)";
  label.params["timed_from"] = kind == HostMemory::Pinned ? "gate release" : "enqueue";
  return label;
}

// The label of a figure of one GPU: the copy, where its host side ran and lived, and the link.
FigureLabel one_gpu_label(const BenchmarkDevice& device, std::size_t bytes, std::size_t batch, const GpuLocality& locality,
                          const ScopedCpuBinding& binding, const HostBuffer& host, const PcieLinkState& link) {
  FigureLabel label = bandwidth_label(device.index, bytes, batch, host.kind());
  add_placement_params(label.params, "", locality, host);
  label.params["cpus"] = binding.note();
  add_link_params(label.params, "", link);
  return label;
}

std::string mismatch_reason(unsigned long long wrong, const CopyJob& job, const std::string& where) {
  return "verification failed: " + std::to_string(wrong) + " differing 8-byte words in " + std::to_string(job.bytes()) +
         " bytes copied " + direction_name(job.direction()) + " (" + host_memory_name(job.host().kind()) + ")" + where;
}

// After the timed copies of one direction on one GPU: the failure when `wrong` words of `job`'s copy differ,
// otherwise the figure.
void report_one_direction(benchmark::State& state, const BenchmarkDevice& device, const CopyJob& job,
                          unsigned long long wrong, std::size_t batch, double timed_seconds, const GpuLocality& locality,
                          const ScopedCpuBinding& binding, const PcieLinkState& link) {
  if (wrong != 0) {
    fail_benchmark(state, FailureKind::WrongResult, mismatch_reason(wrong, job, ""));
    return;
  }
  const FigureLabel label = one_gpu_label(device, job.bytes(), batch, locality, binding, job.host(), link);
  const double gbps = gigabytes_per_second(static_cast<double>(job.bytes()) * batch, state.iterations(), timed_seconds);
  report_figure(state, gbps, link_peak_gbps(link), label);
}

// One direction, pinned: behind a gate, timed from its release.
void run_pinned(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device, Direction direction,
                std::size_t bytes) {
  const GpuLocality locality = gpu_locality(device.index);
  const ScopedCpuBinding binding(locality.cpus);
  GatedCopies copies(context.resources->host_buffer_pool(), {direction}, bytes, locality.numa_node, 11);
  CopyGate gate;  // declared last, so it is opened before anything waiting behind it is freed
  const std::size_t batch = copies_per_iteration(bytes);
  const GatedRounds rounds(gate, [&] { copies.enqueue_round(gate, batch); }, [&] { return copies.lane_seconds(); });
  rounds.run();  // warm-up
  const double timed_seconds = rounds.time(state).round_seconds;
  const PcieLinkState link = read_pcie_link(context.nvml, device.nvml);  // while the link is still up to speed
  report_clocks(state, context, device);
  if (gate.timed_out()) {
    fail_benchmark(state, gate_timeout_failure());
    return;
  }
  report_one_direction(state, device, copies.job(0), copies.count_mismatches(0), batch, timed_seconds, locality, binding,
                       link);
}

// One direction, pageable: the driver stages through its own pinned buffers, partly on this thread, so the
// copies are timed between events as they are enqueued.
void run_pageable(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device,
                  Direction direction, std::size_t bytes) {
  const GpuLocality locality = gpu_locality(device.index);
  const ScopedCpuBinding binding(locality.cpus);
  CudaStream stream;
  const CopyJob job(context.resources->host_buffer_pool(), direction, bytes, HostMemory::Pageable, locality.numa_node, 21,
                    stream.get());
  EventTimer timer;
  const std::size_t batch = copies_per_iteration(bytes);
  const auto timed_batch = [&] {
    return timer.time(stream.get(), [&] {
      for (std::size_t i = 0; i < batch; ++i) job.enqueue(stream.get());
    });
  };
  timed_batch();  // warm-up
  const double timed_seconds = total_seconds_of_iterations(state, timed_batch);
  const PcieLinkState link = read_pcie_link(context.nvml, device.nvml);
  report_clocks(state, context, device);
  report_one_direction(state, device, job, job.count_mismatches(stream.get()), batch, timed_seconds, locality, binding,
                       link);
}

// Both directions at once, pinned, released by one gate; reports `reported`'s rate, the other and the total
// in params. An iteration lasts until both directions are done.
void run_bidirectional(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device,
                       Direction reported, std::size_t bytes) {
  const GpuLocality locality = gpu_locality(device.index);
  const ScopedCpuBinding binding(locality.cpus);
  GatedCopies copies(context.resources->host_buffer_pool(), {Direction::HostToDevice, Direction::DeviceToHost}, bytes,
                     locality.numa_node, 31);
  CopyGate gate;  // declared last, so it is opened before anything waiting behind it is freed
  const std::size_t batch = copies_per_iteration(bytes);
  const GatedRounds rounds(gate, [&] { copies.enqueue_round(gate, batch); }, [&] { return copies.lane_seconds(); });
  rounds.run();  // warm-up
  const RoundTimes times = rounds.time(state);
  const PcieLinkState link = read_pcie_link(context.nvml, device.nvml);
  report_clocks(state, context, device);
  if (gate.timed_out()) {
    fail_benchmark(state, gate_timeout_failure());
    return;
  }
  for (std::size_t lane = 0; lane < 2; ++lane) {
    if (const unsigned long long wrong = copies.count_mismatches(lane); wrong != 0) {
      fail_benchmark(state, FailureKind::WrongResult, mismatch_reason(wrong, copies.job(lane), " while copying both ways at once"));
      return;
    }
  }
  const double moved_per_lane = static_cast<double>(bytes) * batch;  // in an iteration
  const double h2d_gbps = gigabytes_per_second(moved_per_lane, state.iterations(), times.lane_seconds[0]);
  const double d2h_gbps = gigabytes_per_second(moved_per_lane, state.iterations(), times.lane_seconds[1]);
  FigureLabel label = one_gpu_label(device, bytes, batch, locality, binding, copies.job(0).host(), link);
  label.params["h2d_gbps"] = significant_digits(h2d_gbps, 4);
  label.params["d2h_gbps"] = significant_digits(d2h_gbps, 4);
  label.params["total_gbps"] =
      significant_digits(gigabytes_per_second(2 * moved_per_lane, state.iterations(), times.round_seconds), 4);
  report_figure(state, reported == Direction::HostToDevice ? h2d_gbps : d2h_gbps, link_peak_gbps(link), label);
}

// The same copies of kAllGpusBytes on every selected GPU at once, released by one gate shared by all.
// The figure is the bytes moved by all GPUs in all `directions` over the time until the last one finished.
void run_all_gpus(benchmark::State& state, const BenchmarkContext& context, const std::vector<BenchmarkDevice>& devices,
                  const std::vector<Direction>& directions) {
  std::vector<GpuLocality> localities;
  std::vector<std::unique_ptr<GatedCopies>> copies;
  for (const BenchmarkDevice& device : devices) {
    GPUBENCH_CUDA_CHECK(cudaSetDevice(device.index));
    localities.push_back(gpu_locality(device.index));
    copies.push_back(std::make_unique<GatedCopies>(context.resources->host_buffer_pool(), directions, kAllGpusBytes,
                                                   localities.back().numa_node,
                                                   41 + 8 * static_cast<std::uint64_t>(device.index)));
  }
  CopyGate gate;  // declared last, so it is opened before anything waiting behind it is freed
  const GatedRounds rounds(
      gate,
      [&] {
        for (std::size_t gpu = 0; gpu < devices.size(); ++gpu) {
          GPUBENCH_CUDA_CHECK(cudaSetDevice(devices[gpu].index));
          copies[gpu]->enqueue_round(gate, 1);
        }
      },
      [&] {  // every GPU's lanes in turn: lane `lane` of GPU `gpu` at gpu * directions.size() + lane
        std::vector<double> seconds;
        for (const auto& gpu_copies : copies) {
          for (double lane_seconds : gpu_copies->lane_seconds()) seconds.push_back(lane_seconds);
        }
        return seconds;
      });
  rounds.run();  // warm-up
  const RoundTimes times = rounds.time(state);
  std::vector<PcieLinkState> links;
  for (const BenchmarkDevice& device : devices) links.push_back(read_pcie_link(context.nvml, device.nvml));
  report_clocks_of_all(state, context, devices);
  if (gate.timed_out()) {
    fail_benchmark(state, gate_timeout_failure());
    return;
  }
  for (std::size_t gpu = 0; gpu < devices.size(); ++gpu) {
    GPUBENCH_CUDA_CHECK(cudaSetDevice(devices[gpu].index));
    for (std::size_t lane = 0; lane < directions.size(); ++lane) {
      if (const unsigned long long wrong = copies[gpu]->count_mismatches(lane); wrong != 0) {
        fail_benchmark(state, FailureKind::WrongResult, mismatch_reason(wrong, copies[gpu]->job(lane),
                                              " on gpu" + std::to_string(devices[gpu].index) + " while all GPUs copied"));
        return;
      }
    }
  }

  FigureLabel label = bandwidth_label(std::nullopt, kAllGpusBytes, 1, HostMemory::Pinned);
  label.params["gpus"] = std::to_string(devices.size());
  std::optional<double> peak = 0.0;
  for (std::size_t gpu = 0; gpu < devices.size(); ++gpu) {
    const std::string prefix = "gpu" + std::to_string(devices[gpu].index) + "_";
    for (std::size_t lane = 0; lane < directions.size(); ++lane) {
      const double lane_seconds = times.lane_seconds[gpu * directions.size() + lane];
      label.params[prefix + direction_name(directions[lane]) + "_gbps"] =
          significant_digits(gigabytes_per_second(kAllGpusBytes, state.iterations(), lane_seconds), 4);
    }
    add_placement_params(label.params, prefix, localities[gpu], copies[gpu]->job(0).host());
    add_link_params(label.params, prefix, links[gpu]);
    const std::optional<double> link_peak = link_peak_gbps(links[gpu]);
    peak = peak && link_peak ? std::optional<double>(*peak + *link_peak * directions.size()) : std::nullopt;
  }
  label.params["cpus"] = "unbound (one thread drives every GPU)";
  label.params["peak_basis"] = "sum of the GPUs' own links (a shared switch uplink or root port can allow less)";
  const double moved_per_iteration = static_cast<double>(kAllGpusBytes) * devices.size() * directions.size();
  report_figure(state, gigabytes_per_second(moved_per_iteration, state.iterations(), times.round_seconds), peak, label);
}

// nvbandwidth's host_to_all / all_to_host (one direction, pinned): `target` copies `bytes` while every other selected
// GPU copies twice as much the same way at once, all released by one gate, so the measured copy runs under the other
// GPUs' traffic from start to end. The figure is the target's own rate (nvbandwidth reports the measured copy's,
// not a total); the others' rates are in params.
void run_host_pattern(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& target,
                      Direction direction, std::size_t bytes) {
  if (context.devices.size() < 2) {
    skip_benchmark(state, "needs two GPUs (with one, pcie/" + std::string(direction_name(direction)) +
                              " measures the copy alone); " + std::to_string(context.devices.size()) + " selected");
    return;
  }
  std::vector<GpuLocality> localities;
  std::vector<std::unique_ptr<GatedCopies>> copies;  // in the order of context.devices
  std::size_t measured = 0;
  for (const BenchmarkDevice& device : context.devices) {
    if (device.index == target.index) measured = copies.size();
    GPUBENCH_CUDA_CHECK(cudaSetDevice(device.index));
    localities.push_back(gpu_locality(device.index));
    copies.push_back(std::make_unique<GatedCopies>(context.resources->host_buffer_pool(), std::vector<Direction>{direction},
                                                   device.index == target.index ? bytes : 2 * bytes,
                                                   localities.back().numa_node,
                                                   71 + static_cast<std::uint64_t>(device.index)));
  }
  CopyGate gate;  // declared last, so it is opened before anything waiting behind it is freed
  const GatedRounds rounds(
      gate,
      [&] {
        for (std::size_t gpu = 0; gpu < copies.size(); ++gpu) {
          GPUBENCH_CUDA_CHECK(cudaSetDevice(context.devices[gpu].index));
          copies[gpu]->enqueue_round(gate, 1);
        }
      },
      [&] {
        std::vector<double> seconds;
        for (const auto& gpu_copies : copies) seconds.push_back(gpu_copies->lane_seconds().front());
        return seconds;
      });
  rounds.run();  // warm-up
  const RoundTimes times = rounds.time(state);
  const PcieLinkState link = read_pcie_link(context.nvml, target.nvml);
  report_clocks_of_all(state, context, context.devices);
  if (gate.timed_out()) {
    fail_benchmark(state, gate_timeout_failure());
    return;
  }
  for (std::size_t gpu = 0; gpu < copies.size(); ++gpu) {
    GPUBENCH_CUDA_CHECK(cudaSetDevice(context.devices[gpu].index));
    if (const unsigned long long wrong = copies[gpu]->count_mismatches(0); wrong != 0) {
      fail_benchmark(state, FailureKind::WrongResult,
                     mismatch_reason(wrong, copies[gpu]->job(0), " on gpu" + std::to_string(context.devices[gpu].index) +
                                                                     " while every GPU copied at once"));
      return;
    }
  }
  FigureLabel label = bandwidth_label(target.index, bytes, 1, HostMemory::Pinned);
  add_placement_params(label.params, "", localities[measured], copies[measured]->job(0).host());
  add_link_params(label.params, "", link);
  label.params["cpus"] = "unbound (one thread drives every GPU)";
  label.params["other_gpus_copy"] = std::to_string(2 * bytes) + " bytes each, the same way at once (as nvbandwidth)";
  for (std::size_t gpu = 0; gpu < copies.size(); ++gpu) {
    if (gpu == measured) continue;
    label.params["gpu" + std::to_string(context.devices[gpu].index) + "_gbps"] =
        significant_digits(gigabytes_per_second(2.0 * bytes, state.iterations(), times.lane_seconds[gpu]), 4);
  }
  report_figure(state, gigabytes_per_second(static_cast<double>(bytes), state.iterations(), times.lane_seconds[measured]),
                link_peak_gbps(link), label);
}

void register_pcie_benchmarks(const BenchmarkContext& context) {
  for (Direction direction : {Direction::HostToDevice, Direction::DeviceToHost}) {
    for (HostMemory kind : {HostMemory::Pinned, HostMemory::Pageable}) {
      for (std::size_t bytes : transfer_sizes(context.suite, kind)) {
        const std::string name =
            std::string("pcie/") + direction_name(direction) + "/" + host_memory_name(kind) + "/" + size_name(bytes);
        const auto run = kind == HostMemory::Pinned ? run_pinned : run_pageable;
        register_per_device(context, name,
                            [&context, run, direction, bytes](benchmark::State& state, const BenchmarkDevice& device) {
                              run(state, context, device, direction, bytes);
                            });
      }
    }
  }
  for (Direction reported : {Direction::HostToDevice, Direction::DeviceToHost}) {
    for (std::size_t bytes : transfer_sizes(context.suite, HostMemory::Pinned)) {
      const std::string name = std::string("pcie/bidirectional_") + direction_name(reported) + "/pinned/" + size_name(bytes);
      register_per_device(context, name,
                          [&context, reported, bytes](benchmark::State& state, const BenchmarkDevice& device) {
                            run_bidirectional(state, context, device, reported, bytes);
                          });
    }
  }
  // Full suite only: the quick suite's host copies of every GPU at once are pcie/<direction>/pinned/1GiB/all_gpus.
  if (context.suite == Suite::Full) {
    for (Direction direction : {Direction::HostToDevice, Direction::DeviceToHost}) {
      const std::string variant = direction == Direction::HostToDevice ? "host_to_all" : "all_to_host";
      register_per_device(context, "pcie/" + variant + "/pinned/" + size_name(kHostPatternBytes),
                          [&context, direction](benchmark::State& state, const BenchmarkDevice& target) {
                            run_host_pattern(state, context, target, direction, kHostPatternBytes);
                          });
    }
  }
  const std::vector<std::pair<std::string, std::vector<Direction>>> all_gpu_variants = {
      {"h2d", {Direction::HostToDevice}},
      {"d2h", {Direction::DeviceToHost}},
      {"bidirectional", {Direction::HostToDevice, Direction::DeviceToHost}},
  };
  for (const auto& [variant, directions] : all_gpu_variants) {
    register_all_devices(context, "pcie/" + variant + "/pinned/" + size_name(kAllGpusBytes),
                         [&context, directions = directions](benchmark::State& state,
                                                             const std::vector<BenchmarkDevice>& devices) {
                           run_all_gpus(state, context, devices, directions);
                         });
  }
}

}  // namespace

GPUBENCH_FAMILY("pcie", register_pcie_benchmarks);

}  // namespace gpubench
