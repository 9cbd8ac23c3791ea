// GPU-to-GPU transfers for every ordered pair of GPUs A-B (data moves from A to B): copy engines one way
// (cudaMemcpyPeerAsync) and both ways at once, SM stores into B's memory and SM loads from A's, a copy staged
// through pinned host memory for contrast, and the latency of one remote load, by pointer chase. Every variant
// but the staged copy runs with peer access enabled for its whole scope (run_with_peer_access, at registration).
// Per GPU, nvbandwidth's concurrent patterns (p2p/copy_patterns.hpp): every peer copying into it at once (all to
// one) and it copying into every peer at once (one to all), by copy engines and by SMs, as one aggregate figure.
//
// Bandwidth: each round's work waits behind a gate (kernels/gate.cuh) on every GPU taking part, all released
// by one host flag, so the time the host takes to enqueue is never timed and both directions of a
// bidirectional copy start together. Events of two GPUs cannot be compared, so each GPU times its own
// stream from its gate's release to its last copy done; a round lasts until the slower one is done.
// Data is random. The receiving GPU generates the bytes its destination must hold from the source's seed,
// so nothing they are compared with crossed the link; destinations are re-poisoned after the warm-up, so the
// bytes checked after the timed rounds were written by timed copies.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <numeric>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "benchmarks/common/copy_gate.hpp"
#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/cuda_event.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/common/event_timer.hpp"
#include "benchmarks/common/family_registration.hpp"
#include "benchmarks/common/gated_lane.hpp"
#include "benchmarks/common/gated_rounds.hpp"
#include "benchmarks/common/host_affinity.hpp"
#include "benchmarks/common/l2_eviction.hpp"
#include "benchmarks/common/pcie_link.hpp"
#include "benchmarks/common/peer_access.hpp"
#include "benchmarks/common/host_buffer_pool.hpp"
#include "benchmarks/common/process_resources.hpp"
#include "benchmarks/common/registry.hpp"
#include "benchmarks/common/reporting.hpp"
#include "benchmarks/common/significant_digits.hpp"
#include "benchmarks/common/throughput.hpp"
#include "benchmarks/common/timed_loop.hpp"
#include "benchmarks/common/topology.hpp"
#include "benchmarks/common/transfer_sizes.hpp"
#include "benchmarks/p2p/copy_patterns.hpp"
#include "benchmarks/p2p/pattern_copies.hpp"
#include "benchmarks/p2p/peer_transfer.hpp"
#include "kernels/latency.cuh"
#include "kernels/p2p_copy.cuh"

namespace gpubench {
namespace {

// The staged copy moves this much per step, so the D2H of one chunk overlaps the H2D of the one before.
constexpr std::size_t kStageChunk = 16 * kMiB;
// The latency ring: nodes 4 KiB apart in 256 MiB (65536 nodes, 128 of cudaMalloc's 2 MiB pages).
constexpr std::size_t kRingBytes = 256 * kMiB;
constexpr std::size_t kNodeStride = 4 * kKiB;
constexpr int kLocalLaps = 3;

std::vector<std::size_t> transfer_sizes(Suite suite) {
  if (suite == Suite::Quick) return {16 * kMiB, kGiB};
  return {64 * kKiB, kMiB, 16 * kMiB, 256 * kMiB, kGiB};
}

// How A and B are connected, as NVML names it (NV18, PIX, SYS, ...) where NVML can tell, else CUDA's P2P
// performance rank; and whether peer access was enabled for the measurement.
void add_pair_params(std::map<std::string, std::string>& params, const BenchmarkContext& context,
                     const BenchmarkDevice& from, const BenchmarkDevice& to, bool p2p_enabled) {
  params["from"] = gpu_name(from.index);
  params["to"] = gpu_name(to.index);
  params["p2p_access"] = p2p_enabled ? "true" : "false";
  if (context.nvml != nullptr && from.nvml != nullptr && to.nvml != nullptr) {
    const LinkDescription link = describe_link(*context.nvml, from.nvml, to.nvml);
    if (link.kind != "unknown") {
      params["link"] = link.kind;
      params["link_source"] = "nvml";
      if (link.nvlinks > 0) params["nvlinks"] = std::to_string(link.nvlinks);
      if (link.via_nvswitch) params["link_via"] = "nvswitch";
      return;
    }
  }
  int rank = 0;
  if (cudaDeviceGetP2PAttribute(&rank, cudaDevP2PAttrPerformanceRank, from.index, to.index) == cudaSuccess) {
    params["link"] = "cuda_p2p_rank" + std::to_string(rank);
    params["link_source"] = "cudaDevP2PAttrPerformanceRank (NVML could not name the link)";
  } else {
    cudaGetLastError();  // leave no error for the next check
    params["link"] = "unknown";
  }
}

// Puts `batch` copies, each enqueued by `copy`, behind the gate on `lane`.
void enqueue_batch(CopyGate& gate, GatedLane& lane, std::size_t batch, const std::function<void()>& copy) {
  lane.begin(gate);
  for (std::size_t i = 0; i < batch; ++i) copy();
  lane.end();
}

// One untimed warm-up round, then the destinations poisoned again (so what is verified afterwards was written
// by timed rounds), then one round per iteration.
RoundTimes time_after_warm_up(benchmark::State& state, const GatedRounds& rounds,
                              const std::vector<PeerTransfer*>& transfers) {
  rounds.run();
  for (PeerTransfer* transfer : transfers) transfer->poison();
  return rounds.time(state);
}

FigureLabel bandwidth_label(const BenchmarkContext& context, const BenchmarkDevice& from, const BenchmarkDevice& to,
                            std::size_t bytes, std::size_t batch, bool p2p_enabled) {
  FigureLabel label{"bandwidth", "GB/s", Better::Higher, from.index, {}};
  label.params["bytes"] = std::to_string(bytes);
  label.params["copies_per_iteration"] = std::to_string(batch);
  label.params["timed_from"] = "gate release";
  add_pair_params(label.params, context, from, to, p2p_enabled);
  return label;
}

// True when the gate opened in time and every destination holds what its source held; otherwise fails the
// benchmark with the reason.
bool verified(benchmark::State& state, const CopyGate& gate, const std::vector<PeerTransfer*>& transfers,
              const std::string& how) {
  if (gate.timed_out()) {
    fail_benchmark(state, gate_timeout_failure());
    return false;
  }
  for (const PeerTransfer* transfer : transfers) {
    if (const unsigned long long wrong = transfer->count_mismatches(); wrong != 0) {
      fail_benchmark(state, FailureKind::WrongResult, transfer->mismatch_reason(wrong, how));
      return false;
    }
  }
  return true;
}

// Rounds of `batch` copies of `transfer`, each enqueued by `copy`, on one lane (time_after_warm_up says which).
RoundTimes time_one_lane(benchmark::State& state, CopyGate& gate, GatedLane& lane, PeerTransfer& transfer, std::size_t batch,
                         const std::function<void()>& copy) {
  const GatedRounds rounds(gate, [&] { enqueue_batch(gate, lane, batch, copy); }, [&] { return seconds_of({&lane}); });
  return time_after_warm_up(state, rounds, {&transfer});
}

// Copy engine, one way: cudaMemcpyPeerAsync on a stream of A, so A's copy engine pushes into B's memory.
void run_ce_unidir(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& from,
                   const BenchmarkDevice& to, std::size_t bytes) {
  PeerTransfer transfer(from.index, to.index, bytes, 11);
  GatedLane lane(from.index);
  CopyGate gate;  // declared last, so it is opened before anything waiting behind it is freed
  const std::size_t batch = copies_per_iteration(bytes);
  const RoundTimes times = time_one_lane(state, gate, lane, transfer, batch, [&] {
    GPUBENCH_CUDA_CHECK(
        cudaMemcpyPeerAsync(transfer.destination(), to.index, transfer.source(), from.index, bytes, lane.stream()));
  });
  report_clocks(state, context, from);
  if (!verified(state, gate, {&transfer}, "cudaMemcpyPeerAsync")) return;
  FigureLabel label = bandwidth_label(context, from, to, bytes, batch, true);
  label.params["copy_engine"] = gpu_name(from.index) + " (pushes into " + gpu_name(to.index) + ")";
  report_figure(state, gigabytes_per_second(static_cast<double>(bytes) * batch, state.iterations(), times.round_seconds),
                std::nullopt, label);
}

// Copy engines, both ways at once: A->B on a stream of A and B->A on a stream of B (each GPU's copy engine
// pushes its own data, as in the one-way variant), both behind one gate. The figure is the bytes of both
// directions over the time until both were done; each direction's own rate is in params.
void run_ce_bidir(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& from,
                  const BenchmarkDevice& to, std::size_t bytes) {
  PeerTransfer forward(from.index, to.index, bytes, 21);
  PeerTransfer reverse(to.index, from.index, bytes, 22);
  GatedLane forward_lane(from.index);
  GatedLane reverse_lane(to.index);
  CopyGate gate;  // declared last, so it is opened before anything waiting behind it is freed
  const std::size_t batch = copies_per_iteration(bytes);
  const auto enqueue = [&](GatedLane& lane, const PeerTransfer& transfer) {
    enqueue_batch(gate, lane, batch, [&] {
      GPUBENCH_CUDA_CHECK(cudaMemcpyPeerAsync(transfer.destination(), transfer.to(), transfer.source(), transfer.from(),
                                              bytes, lane.stream()));
    });
  };
  const GatedRounds rounds(
      gate,
      [&] {
        enqueue(forward_lane, forward);
        enqueue(reverse_lane, reverse);
      },
      [&] { return seconds_of({&forward_lane, &reverse_lane}); });
  const RoundTimes times = time_after_warm_up(state, rounds, {&forward, &reverse});
  report_clocks(state, context, from);
  if (!verified(state, gate, {&forward, &reverse}, "cudaMemcpyPeerAsync while copying both ways at once")) return;
  const double moved = static_cast<double>(bytes) * batch;  // in an iteration, each way
  const double forward_gbps = gigabytes_per_second(moved, state.iterations(), times.lane_seconds[0]);
  const double reverse_gbps = gigabytes_per_second(moved, state.iterations(), times.lane_seconds[1]);
  FigureLabel label = bandwidth_label(context, from, to, bytes, batch, true);
  label.params["copy_engine"] = "each GPU pushes its own data";
  label.params["forward_gbps"] = significant_digits(forward_gbps, 4);  // A->B, timed on A
  label.params["reverse_gbps"] = significant_digits(reverse_gbps, 4);  // B->A, timed on B
  label.params["sum_of_directions_gbps"] = significant_digits(forward_gbps + reverse_gbps, 4);
  label.params["figure_basis"] = "bytes both ways over the time until both directions were done";
  report_figure(state, gigabytes_per_second(2 * moved, state.iterations(), times.round_seconds), std::nullopt, label);
}

enum class SmSide { Write, Read };

// SM copy kernel: on A storing into B's memory (Write), or on B loading from A's memory (Read).
void run_sm_copy(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& from,
                 const BenchmarkDevice& to, std::size_t bytes, SmSide side) {
  const int runner = side == SmSide::Write ? from.index : to.index;
  PeerTransfer transfer(from.index, to.index, bytes, side == SmSide::Write ? 31 : 41);
  GatedLane lane(runner);
  kernels::PeerCopyLaunch launch;
  GPUBENCH_CUDA_CHECK(kernels::peer_copy_launch_for_current_device(&launch));  // the lane left `runner` current
  CopyGate gate;  // declared last, so it is opened before anything waiting behind it is freed
  const std::size_t batch = copies_per_iteration(bytes);
  const RoundTimes times = time_one_lane(state, gate, lane, transfer, batch, [&] {
    GPUBENCH_CUDA_CHECK(kernels::launch_peer_copy(transfer.destination(), transfer.source(), bytes, launch, lane.stream()));
  });
  report_clocks(state, context, from);
  const std::string how = side == SmSide::Write ? "SM stores on " + gpu_name(from.index) : "SM loads on " + gpu_name(to.index);
  if (!verified(state, gate, {&transfer}, how)) return;
  FigureLabel label = bandwidth_label(context, from, to, bytes, batch, true);
  label.params["kernel_on"] = side == SmSide::Write ? gpu_name(from.index) + " (16-byte stores into " + gpu_name(to.index) + ")"
                                                    : gpu_name(to.index) + " (16-byte loads from " + gpu_name(from.index) + ")";
  label.params["launch"] = "grid" + std::to_string(launch.grid) + "xblock" + std::to_string(launch.block);
  report_figure(state, gigabytes_per_second(static_cast<double>(bytes) * batch, state.iterations(), times.round_seconds),
                std::nullopt, label);
}

// Without P2P, through pinned host memory: D2H on a stream of A, H2D on a stream of B, in kStageChunk chunks;
// each H2D waits for its chunk's D2H (a cross-GPU event wait), so B reads chunk k while A writes chunk k+1.
// Every copy of a batch has its own staging area, so no chunk is overwritten while B may still read it. B's
// lane starts at its own gate's release and cannot finish before A's, so the round's time is the whole way.
void run_staged_host(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& from,
                     const BenchmarkDevice& to, std::size_t bytes) {
  const bool p2p_possible = peer_access_possible(from.index, to.index);
  const std::size_t batch = copies_per_iteration(bytes);
  const std::size_t chunk = std::min(bytes, kStageChunk);
  const std::size_t chunks = (bytes + chunk - 1) / chunk;
  PeerTransfer transfer(from.index, to.index, bytes, 51);
  const GpuLocality locality = gpu_locality(from.index);
  // Portable, so both GPUs may use it; from the pool, as pinning it anew for each run is slow.
  const HostBufferLease staging =
      context.resources->host_buffer_pool().take(bytes * batch, HostMemory::Pinned, locality.numa_node);
  GatedLane d2h(from.index);
  GatedLane h2d(to.index);
  GPUBENCH_CUDA_CHECK(cudaSetDevice(from.index));
  std::vector<CudaEvent> staged;  // per chunk of each copy of a round: the chunk has reached host memory
  staged.reserve(batch * chunks);
  for (std::size_t i = 0; i < batch * chunks; ++i) staged.emplace_back(cudaEventDisableTiming);
  CopyGate gate;  // declared last, so it is opened before anything waiting behind it is freed
  const auto piece = [&](std::size_t i, std::size_t* offset) {
    *offset = (i % chunks) * chunk;
    return std::min(chunk, bytes - *offset);
  };
  const GatedRounds rounds(
      gate,
      [&] {
        d2h.begin(gate);
        for (std::size_t i = 0; i < batch * chunks; ++i) {
          std::size_t offset = 0;
          const std::size_t n = piece(i, &offset);
          unsigned char* host = staging->get() + (i / chunks) * bytes + offset;
          GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(host, transfer.source() + offset, n, cudaMemcpyDeviceToHost, d2h.stream()));
          staged[i].record(d2h.stream());
        }
        d2h.end();
        h2d.begin(gate);
        for (std::size_t i = 0; i < batch * chunks; ++i) {
          std::size_t offset = 0;
          const std::size_t n = piece(i, &offset);
          const unsigned char* host = staging->get() + (i / chunks) * bytes + offset;
          GPUBENCH_CUDA_CHECK(cudaStreamWaitEvent(h2d.stream(), staged[i].get(), 0));
          GPUBENCH_CUDA_CHECK(cudaMemcpyAsync(transfer.destination() + offset, host, n, cudaMemcpyHostToDevice, h2d.stream()));
        }
        h2d.end();
      },
      [&] { return seconds_of({&d2h, &h2d}); });
  const RoundTimes times = time_after_warm_up(state, rounds, {&transfer});
  const PcieLinkState from_link = read_pcie_link(context.nvml, from.nvml);  // while the links are still up to speed
  const PcieLinkState to_link = read_pcie_link(context.nvml, to.nvml);
  report_clocks(state, context, from);
  if (!verified(state, gate, {&transfer}, "D2H then H2D through pinned host memory")) return;
  FigureLabel label = bandwidth_label(context, from, to, bytes, batch, false);
  label.params["p2p_possible"] = p2p_possible ? "true" : "false";
  label.params["chunk_bytes"] = std::to_string(chunk);
  label.params["staging"] = "pinned host memory (mmap + cudaHostRegister), " + staging->placement();
  label.params["pipeline"] = "D2H on a stream of " + gpu_name(from.index) + ", H2D on a stream of " + gpu_name(to.index) +
                             ", each chunk's H2D waits for its D2H";
  std::optional<double> peak;
  const std::optional<double> from_peak = link_peak_gbps(from_link);
  const std::optional<double> to_peak = link_peak_gbps(to_link);
  if (from_peak && to_peak) {
    peak = std::min(*from_peak, *to_peak);
    label.params["peak_basis"] = "the slower of the two GPUs' PCIe links, one direction";
  }
  report_figure(state, gigabytes_per_second(static_cast<double>(bytes) * batch, state.iterations(), times.round_seconds),
                peak, label);
}

// The ring of the latency benchmark in one GPU's memory, linked in `order` (a permutation of the nodes).
class Ring {
 public:
  Ring(int device, const std::vector<std::uint32_t>& order)
      : memory_(allocate_on<unsigned char>(device, kRingBytes)), start_(std::uint64_t{order.front()} * kNodeStride) {
    DeviceBuffer<std::uint32_t> links(order.size());  // allocate_on left `device` current
    GPUBENCH_CUDA_CHECK(cudaMemcpy(links.get(), order.data(), links.bytes(), cudaMemcpyHostToDevice));
    GPUBENCH_CUDA_CHECK(kernels::build_ring(memory_.get(), kNodeStride, links.get(), order.size(), nullptr));
    GPUBENCH_CUDA_CHECK(cudaDeviceSynchronize());
  }
  const unsigned char* get() const { return memory_.get(); }
  std::uint64_t start() const { return start_; }

 private:
  DeviceBuffer<unsigned char> memory_;
  std::uint64_t start_;
};

// Remote-load latency: one thread on A follows a randomly ordered ring of 65536 nodes, 4 KiB apart in 256 MiB
// of B's memory. A lap loads each node once, from cold caches: L1 is bypassed and both GPUs' L2 is evicted
// before each lap, so every load goes over the link to B's DRAM (a lap touches only 65536 lines, 8 MiB, which
// would otherwise stay in L2 from one lap to the next). Consecutive nodes lie on unrelated pages of a 256 MiB
// span, so the figure includes whatever TLB misses a random walk over that span causes; the local figure (A
// chasing the same ring in its own memory) has the same layout, so the difference is what the link adds.
void run_latency(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& from,
                 const BenchmarkDevice& to) {
  const std::size_t nodes = kRingBytes / kNodeStride;
  std::vector<std::uint32_t> order(nodes);
  std::iota(order.begin(), order.end(), 0u);
  std::shuffle(order.begin(), order.end(), std::mt19937_64(81));
  const Ring remote(to.index, order);
  const Ring local(from.index, order);
  L2Eviction evict_to(to.index);
  L2Eviction evict_from(from.index);
  auto result = allocate_on<kernels::ChaseResult>(from.index, 1);
  CudaStream stream;  // on A, the reader
  EventTimer timer;
  const auto lap = [&](const Ring& ring) {
    evict_to.run();
    evict_from.run();  // leaves A current
    return timer.time(stream.get(), [&] {
      GPUBENCH_CUDA_CHECK(kernels::launch_pointer_chase(ring.get(), ring.start(), nodes, result.get(), stream.get()));
    });
  };
  // Poisons the result first, so a chase that did not run cannot pass.
  const auto poison_result = [&] {
    GPUBENCH_CUDA_CHECK(cudaSetDevice(from.index));
    GPUBENCH_CUDA_CHECK(cudaMemset(result.get(), 0xFF, sizeof(kernels::ChaseResult)));
  };
  const auto chase_error = [&](const Ring& ring, const char* which) -> std::string {
    kernels::ChaseResult got{};
    GPUBENCH_CUDA_CHECK(cudaMemcpy(&got, result.get(), sizeof got, cudaMemcpyDeviceToHost));
    if (got.end == ring.start() && got.first_return == nodes) return "";
    return std::string("verification failed: the ") + which + " chase of " + std::to_string(nodes) +
           " steps ended at byte offset " + std::to_string(got.end) + " (expected " + std::to_string(ring.start()) +
           ") and first returned to its start at step " + std::to_string(got.first_return) + " (expected " +
           std::to_string(nodes) + ")";
  };

  lap(local);  // warm-up: code, TLB state and clocks as for a measurement
  poison_result();
  std::vector<double> local_ns;
  for (int i = 0; i < kLocalLaps; ++i) local_ns.push_back(lap(local) * 1e9 / nodes);
  std::sort(local_ns.begin(), local_ns.end());
  if (const std::string error = chase_error(local, "local"); !error.empty()) {
    fail_benchmark(state, FailureKind::WrongResult, error);
    return;
  }

  lap(remote);  // warm-up
  poison_result();
  const double timed_seconds = total_seconds_of_iterations(state, [&] { return lap(remote); });
  report_clocks(state, context, from);
  if (const std::string error = chase_error(remote, "remote"); !error.empty()) {
    fail_benchmark(state, FailureKind::WrongResult, error);
    return;
  }

  FigureLabel label{"latency", "ns", Better::Lower, from.index, {}};
  add_pair_params(label.params, context, from, to, true);
  label.params["reader"] = gpu_name(from.index) + " (one thread)";
  label.params["ring_on"] = gpu_name(to.index);
  label.params["ring_bytes"] = std::to_string(kRingBytes);
  label.params["node_stride_bytes"] = std::to_string(kNodeStride);
  label.params["loads_per_lap"] = std::to_string(nodes);
  label.params["caches"] = "L1 bypassed (ld.global.cg), both GPUs' L2 evicted before each lap, each node loaded once per lap";
  label.params["local_latency_ns"] = significant_digits(local_ns[local_ns.size() / 2], 4);  // median of the laps
  report_figure(state, timed_seconds * 1e9 / (static_cast<double>(nodes) * state.iterations()), std::nullopt, label);
}

// One concurrent pattern around `target` among every selected GPU (p2p/copy_patterns.hpp): rounds of every copy at
// once, behind one gate. The figure is every copy's bytes over the time from the gate's release to the last copy's
// end (nvbandwidth's total bandwidth); each copy's own rate is in params. Peer access is enabled between the target
// and each peer for the whole run, or the benchmark skips with the pair that cannot have it.
void run_pattern(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& target,
                 CopyDriver driver, CopyPattern pattern) {
  if (context.devices.size() < 2) {
    skip_benchmark(state, "needs two GPUs; " + std::to_string(context.devices.size()) + " selected");
    return;
  }
  std::vector<int> gpus;
  std::vector<std::unique_ptr<PeerAccess>> access;
  for (const BenchmarkDevice& device : context.devices) {
    gpus.push_back(device.index);
    if (device.index == target.index) continue;
    access.push_back(std::make_unique<PeerAccess>(target.index, device.index));
    if (!access.back()->enabled()) {
      skip_benchmark(state, access.back()->why_not() + "; every peer must take part at once");
      return;
    }
  }
  const std::vector<PeerCopy> copies = pattern_copies(pattern, target.index, gpus);
  PatternCopies gpu_copies(driver, copies, kPatternBytes, 61);
  CopyGate gate;  // declared last, so it is opened before anything waiting behind it is freed
  const std::size_t batch = copies_per_iteration(kPatternBytes);
  const GatedRounds rounds(gate, [&] { gpu_copies.enqueue_round(gate, batch); },
                           [&] { return gpu_copies.lane_seconds(); });
  const RoundTimes times = time_after_warm_up(state, rounds, gpu_copies.transfers());
  report_clocks_of_all(state, context, context.devices);
  if (!verified(state, gate, gpu_copies.transfers(), gpu_copies.how())) return;

  FigureLabel label{"bandwidth", "GB/s", Better::Higher, target.index, {}};
  label.params["pattern"] = std::string(pattern_name(pattern)) + (pattern == CopyPattern::AllToOne
                                                                      ? " (every peer copies into " + gpu_name(target.index) + ")"
                                                                      : " (" + gpu_name(target.index) + " copies into every peer)");
  label.params["driver"] = driver == CopyDriver::CopyEngine ? "copy engine of each sender (cudaMemcpyPeerAsync)"
                                                            : "SMs of each sender (16-byte stores into the peer)";
  label.params["bytes"] = std::to_string(kPatternBytes);  // per copy
  label.params["copies"] = std::to_string(copies.size());
  label.params["copies_per_iteration"] = std::to_string(batch);
  label.params["timed_from"] = "gate release";
  label.params["figure_basis"] = "every copy's bytes over the time until the last copy was done (nvbandwidth's total bandwidth)";
  for (std::size_t i = 0; i < copies.size(); ++i) {
    const double copy_gbps = gigabytes_per_second(static_cast<double>(kPatternBytes) * batch, state.iterations(),
                                                  times.lane_seconds[i]);
    label.params[gpu_name(copies[i].from) + "_to_" + gpu_name(copies[i].to) + "_gbps"] = significant_digits(copy_gbps, 4);
  }
  if (driver == CopyDriver::Sm) {
    label.params["launch"] = "grid" + std::to_string(gpu_copies.launch(0).grid) + "xblock" +
                             std::to_string(gpu_copies.launch(0).block) + " per copy";
  }
  report_figure(state,
                gigabytes_per_second(pattern_round_bytes(copies.size(), kPatternBytes) * batch, state.iterations(),
                                     times.round_seconds),
                std::nullopt, label);
}

// Runs `run` with peer access enabled between the pair for its whole scope, or skips the benchmark with the
// reason it cannot be enabled.
template <class Run>
void run_with_peer_access(benchmark::State& state, const BenchmarkDevice& from, const BenchmarkDevice& to, Run&& run) {
  const PeerAccess access(from.index, to.index);
  if (!access.enabled()) {
    skip_benchmark(state, access.why_not());
    return;
  }
  run();
}

void run_sm_write(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& from,
                  const BenchmarkDevice& to, std::size_t bytes) {
  run_sm_copy(state, context, from, to, bytes, SmSide::Write);
}

void run_sm_read(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& from,
                 const BenchmarkDevice& to, std::size_t bytes) {
  run_sm_copy(state, context, from, to, bytes, SmSide::Read);
}

void register_p2p_benchmarks(const BenchmarkContext& context) {
  using RunWithSize = void (*)(benchmark::State&, const BenchmarkContext&, const BenchmarkDevice&, const BenchmarkDevice&,
                               std::size_t);
  const std::vector<std::size_t> sizes = transfer_sizes(context.suite);
  // Every variant but staged_host, which copies without it, runs with peer access enabled.
  const auto per_size = [&](const std::string& variant, RunWithSize run, bool peer_access) {
    for (std::size_t bytes : sizes) {
      register_per_pair(context, "p2p/" + variant + "/" + size_name(bytes),
                        [&context, run, bytes, peer_access](benchmark::State& state, const BenchmarkDevice& from,
                                                            const BenchmarkDevice& to) {
                          if (peer_access) {
                            run_with_peer_access(state, from, to, [&] { run(state, context, from, to, bytes); });
                          } else {
                            run(state, context, from, to, bytes);
                          }
                        });
    }
  };
  per_size("ce_unidir", run_ce_unidir, true);
  per_size("ce_bidir", run_ce_bidir, true);
  per_size("sm_write", run_sm_write, true);
  per_size("sm_read", run_sm_read, true);
  per_size("staged_host", run_staged_host, false);
  // The quick suite keeps the copy engines' patterns (a few seconds on two GPUs); the full one adds the SMs'.
  std::vector<CopyDriver> drivers = {CopyDriver::CopyEngine};
  if (context.suite == Suite::Full) drivers.push_back(CopyDriver::Sm);
  for (CopyDriver driver : drivers) {
    for (CopyPattern pattern : {CopyPattern::AllToOne, CopyPattern::OneToAll}) {
      register_per_device(context, "p2p/" + pattern_variant(driver, pattern) + "/" + size_name(kPatternBytes),
                          [&context, driver, pattern](benchmark::State& state, const BenchmarkDevice& target) {
                            run_pattern(state, context, target, driver, pattern);
                          });
    }
  }
  register_per_pair(context, "p2p/latency",
                    [&context](benchmark::State& state, const BenchmarkDevice& from, const BenchmarkDevice& to) {
                      run_with_peer_access(state, from, to, [&] { run_latency(state, context, from, to); });
                    });
}

}  // namespace

GPUBENCH_FAMILY("p2p", register_p2p_benchmarks);

}  // namespace gpubench
