// Device memory allocation: what a call costs, and what is left after a fragmenting pattern.
//
// Cost: cudaMalloc and cudaFree against the stream-ordered allocator (cudaMallocFromPoolAsync and cudaFreeAsync
// on a pool of its own that keeps freed memory cached: alloc/device_allocator.hpp), one block of a given size
// allocated and freed per iteration. These are host-side costs, so each call is timed with the host's
// steady_clock and the figure is the median iteration (iteration_times.hpp says why). A warm-up pair comes
// first, so the pool's timed allocations are served from memory it already holds, as in a program's steady state.
//
// Fragmentation: blocks of two sizes in turn, the large ones then freed out of order (alloc/fragmenting_pattern.hpp),
// and the largest block that can still be allocated, found by binary search on allocation success
// (alloc/largest_block.hpp), against the memory no live block uses: what the driver reports free (cudaMemGetInfo)
// and what the pool keeps cached. Holes only cost something when there is nothing else to allocate from, so the
// pattern covers all the free memory but kReserveBytes (as the stress memtest does); with a pattern in an eighth
// of a 141 GB GPU, both allocators found every search's block in the untouched rest, and read 100 % every time.
// It takes about half a minute a GPU, so it runs in the full suite only. Everything is freed and the pool trimmed
// and destroyed before the benchmark ends.
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "benchmarks/alloc/device_allocator.hpp"
#include "benchmarks/alloc/fragmenting_pattern.hpp"
#include "benchmarks/alloc/largest_block.hpp"
#include "benchmarks/common/benchmark_failure.hpp"
#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/family_registration.hpp"
#include "benchmarks/common/host_timer.hpp"
#include "benchmarks/common/iteration_times.hpp"
#include "benchmarks/common/registry.hpp"
#include "benchmarks/common/reporting.hpp"
#include "benchmarks/common/significant_digits.hpp"
#include "benchmarks/common/timed_loop.hpp"
#include "benchmarks/common/transfer_sizes.hpp"

namespace gpubench {
namespace {

// The page size of device allocations on current GPUs: the step of the fragmentation search.
constexpr std::size_t kGranularity = 2 * kMiB;
// Left free while the pattern stands, for the driver and other processes.
constexpr std::size_t kReserveBytes = kGiB;
// cudaMalloc and cudaMallocAsync return blocks aligned to at least this.
constexpr std::uintptr_t kAllocationAlignment = 256;

std::vector<std::size_t> block_sizes(Suite suite) {
  if (suite == Suite::Quick) return {2 * kMiB, 256 * kMiB};
  return {4 * kKiB, 64 * kKiB, 2 * kMiB, 32 * kMiB, 256 * kMiB, kGiB};
}

// Allocations and frees timed per benchmark run: a fixed count, so that every run takes as many samples.
int timed_pairs(Suite suite) { return suite == Suite::Quick ? 100 : 400; }

enum class Call { Allocate, Free };

const char* call_name(AllocatorKind kind, Call call) {
  if (kind == AllocatorKind::CudaMalloc) return call == Call::Allocate ? "cuda_malloc" : "cuda_free";
  return call == Call::Allocate ? "malloc_async" : "free_async";
}

std::string pool_unsupported_reason() { return "this GPU does not support memory pools (cudaMallocAsync)"; }

void run_call_cost(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device,
                   AllocatorKind kind, Call call, std::size_t bytes) {
  if (kind == AllocatorKind::StreamOrdered && !memory_pools_supported()) {
    skip_benchmark(state, pool_unsupported_reason());
    return;
  }
  DeviceAllocator allocator(kind);
  std::size_t allocated = 0;
  std::size_t misaligned = 0;
  // One block allocated and freed; the seconds of each call. The release is waited for, untimed, so that no
  // work is left queued behind a stream-ordered free when the next allocation is timed.
  const auto time_pair = [&] {
    void* block = nullptr;
    const double allocate_seconds = host_seconds([&] { block = allocator.allocate(bytes); });
    if (block == nullptr) {
      throw BenchmarkFailure(FailureKind::OutOfMemory, "could not allocate " + size_name(bytes) + " with " +
                                                           allocator_description(kind));
    }
    ++allocated;
    misaligned += reinterpret_cast<std::uintptr_t>(block) % kAllocationAlignment != 0 ? 1 : 0;
    const double free_seconds = host_seconds([&] { allocator.release(block); });
    allocator.synchronize();
    return std::make_pair(allocate_seconds, free_seconds);
  };
  time_pair();  // warm-up: the pool takes its memory from the driver here
  IterationTimes allocate_times;
  IterationTimes free_times;
  run_timed_iterations(state, [&] {
    const auto [allocate_seconds, free_seconds] = time_pair();
    allocate_times.add(allocate_seconds);
    free_times.add(free_seconds);
    return call == Call::Allocate ? allocate_seconds : free_seconds;
  });
  report_clocks(state, context, device);
  if (misaligned != 0) {
    fail_benchmark(state, FailureKind::WrongResult,
                   "verification failed: " + std::to_string(misaligned) + " of " + std::to_string(allocated) +
                       " blocks not aligned to " + std::to_string(kAllocationAlignment) + " bytes");
    return;
  }
  const IterationTimes& times = call == Call::Allocate ? allocate_times : free_times;
  FigureLabel label{"time_per_call", "us", Better::Lower, device.index, {}};
  label.params["block_bytes"] = std::to_string(bytes);
  label.params["allocator"] = allocator_description(kind);
  label.params["allocate_us"] = significant_digits(allocate_times.median_seconds() * 1e6, 4);
  label.params["free_us"] = significant_digits(free_times.median_seconds() * 1e6, 4);
  label.params["timer"] = "host steady_clock around the one call, a stream-ordered free waited for untimed";
  label.params["statistic"] = times.statistic();
  report_figure(state, times.median_seconds() * 1e6, std::nullopt, label);
}

std::size_t driver_free_bytes() {
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  GPUBENCH_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  return free_bytes;
}

// The blocks of a pattern. Those still held when it goes (an exception on its way) are released unchecked; the
// allocator, which outlives it, waits for the releases.
class HeldBlocks {
 public:
  explicit HeldBlocks(DeviceAllocator& allocator) : allocator_(allocator) {}
  ~HeldBlocks() {
    for (void* block : blocks_) {
      if (block != nullptr) allocator_.release_unchecked(block);
    }
  }
  HeldBlocks(const HeldBlocks&) = delete;
  HeldBlocks& operator=(const HeldBlocks&) = delete;

  void add(void* block) { blocks_.push_back(block); }
  void release(std::size_t index) {
    allocator_.release(blocks_[index]);
    blocks_[index] = nullptr;
  }
  void release_all() {
    for (std::size_t index = 0; index < blocks_.size(); ++index) {
      if (blocks_[index] != nullptr) release(index);
    }
  }

 private:
  DeviceAllocator& allocator_;
  std::vector<void*> blocks_;
};

struct Fragmentation {
  std::size_t pattern_bytes = 0;   // allocated by the pattern
  std::size_t freed_bytes = 0;     // freed again, leaving holes
  std::size_t driver_free = 0;     // cudaMemGetInfo after the frees
  std::size_t pool_reserved = 0;   // held by the pool then (0 for cudaMalloc)
  std::size_t pool_cached = 0;     // of that, what no live block uses
  std::size_t unused = 0;          // driver_free + pool_cached: the most the search asked for
  std::size_t largest = 0;         // the largest block that could be allocated
  bool largest_writable = false;   // that block, allocated once more, written end to end
};

// Whether a block of `bytes` can be allocated once more and written to its last byte.
bool writable_block(DeviceAllocator& allocator, std::size_t bytes) {
  void* block = allocator.allocate(bytes);
  if (block == nullptr) return false;
  allocator.synchronize();  // a stream-ordered block is usable on other streams once its allocation is done
  constexpr unsigned char kMark = 0x5A;
  GPUBENCH_CUDA_CHECK(cudaMemset(block, kMark, bytes));
  unsigned char last = 0;
  GPUBENCH_CUDA_CHECK(cudaMemcpy(&last, static_cast<unsigned char*>(block) + bytes - 1, 1, cudaMemcpyDeviceToHost));
  allocator.release(block);
  allocator.synchronize();
  return last == kMark;
}

Fragmentation fragment_and_search(AllocatorKind kind, std::size_t budget) {
  DeviceAllocator allocator(kind);
  HeldBlocks held(allocator);
  const FragmentingPattern pattern = fragmenting_pattern(budget, kGranularity);
  for (std::size_t bytes : pattern.block_bytes) {
    void* block = allocator.allocate(bytes);
    if (block == nullptr) {
      throw BenchmarkFailure(FailureKind::OutOfMemory, "the fragmenting pattern could not allocate " +
                                                           size_name(bytes) + " within its " + size_name(budget));
    }
    held.add(block);
  }
  for (std::size_t index : pattern.freed) held.release(index);
  allocator.synchronize();

  Fragmentation result;
  result.pattern_bytes = pattern.allocated_bytes();
  result.freed_bytes = pattern.freed_bytes();
  result.driver_free = driver_free_bytes();
  result.pool_reserved = allocator.pool_reserved_bytes();
  result.pool_cached = allocator.pool_cached_bytes();
  result.unused = unused_bytes(result.driver_free, result.pool_cached);
  result.largest = largest_allocatable(result.unused, kGranularity,
                                       [&](std::size_t bytes) { return allocator.can_allocate(bytes); });
  result.largest_writable = result.largest > 0 && writable_block(allocator, result.largest);
  held.release_all();
  allocator.synchronize();
  return result;
}

void run_fragmentation(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device,
                       AllocatorKind kind) {
  if (kind == AllocatorKind::StreamOrdered && !memory_pools_supported()) {
    skip_benchmark(state, pool_unsupported_reason());
    return;
  }
  const std::size_t free_at_start = driver_free_bytes();
  const std::size_t budget =
      free_at_start > kReserveBytes ? (free_at_start - kReserveBytes) / kGranularity * kGranularity : 0;
  if (budget < 64 * kGranularity) {
    throw BenchmarkFailure(FailureKind::OutOfMemory, "only " + std::to_string(free_at_start >> 20) +
                                                         " MiB of device memory free; stop other processes");
  }
  Fragmentation last;
  run_timed_iterations(state, [&] { return host_seconds([&] { last = fragment_and_search(kind, budget); }); });
  const std::size_t free_at_end = driver_free_bytes();
  report_clocks(state, context, device);
  if (last.largest == 0) {
    fail_benchmark(state, FailureKind::OutOfMemory,
                   "after the fragmenting pattern not even " + size_name(kGranularity) + " could be allocated");
    return;
  }
  if (!last.largest_writable) {
    fail_benchmark(state, FailureKind::WrongResult, "verification failed: the largest block found, " +
                                                        std::to_string(last.largest) +
                                                        " bytes, could not be allocated again and written end to end");
    return;
  }
  FigureLabel label{"largest_block_share", "%", Better::Higher, device.index, {}};
  label.params["definition"] =
      "largest allocatable block / (free memory cudaMemGetInfo reports + what the pool keeps cached), after the "
      "pattern";
  label.params["allocator"] = allocator_description(kind);
  label.params["pattern"] = "large and small blocks in turn, the large freed from both ends inwards";
  label.params["pattern_bytes"] = std::to_string(last.pattern_bytes);
  label.params["freed_bytes"] = std::to_string(last.freed_bytes);
  label.params["budget"] = "free memory less " + size_name(kReserveBytes) + ": " + std::to_string(budget) + " bytes";
  label.params["driver_free_bytes"] = std::to_string(last.driver_free);
  label.params["pool_reserved_bytes"] = std::to_string(last.pool_reserved);
  label.params["pool_cached_bytes"] = std::to_string(last.pool_cached);
  label.params["unused_bytes"] = std::to_string(last.unused);
  label.params["largest_block_bytes"] = std::to_string(last.largest);
  label.params["search_granularity"] = size_name(kGranularity);
  label.params["free_before_bytes"] = std::to_string(free_at_start);
  label.params["free_after_bytes"] = std::to_string(free_at_end);
  report_figure(state, largest_block_share_percent(last.largest, last.unused), 100.0, label);
}

void register_alloc_benchmarks(const BenchmarkContext& context) {
  const int pairs = timed_pairs(context.suite);
  for (AllocatorKind kind : {AllocatorKind::CudaMalloc, AllocatorKind::StreamOrdered}) {
    for (Call call : {Call::Allocate, Call::Free}) {
      for (std::size_t bytes : block_sizes(context.suite)) {
        register_per_device(
            context, std::string("alloc/") + call_name(kind, call) + "/" + size_name(bytes),
            [&context, kind, call, bytes](benchmark::State& state, const BenchmarkDevice& device) {
              run_call_cost(state, context, device, kind, call, bytes);
            },
            pairs);
      }
    }
  }
  // Covering all free memory, the pattern and its search take about 28 s a GPU on an H200 for the two allocators
  // (the call costs take under a second): the full suite's.
  if (context.suite != Suite::Full) return;
  for (AllocatorKind kind : {AllocatorKind::CudaMalloc, AllocatorKind::StreamOrdered}) {
    register_per_device(
        context, std::string("alloc/fragmentation/") + allocator_name(kind),
        [&context, kind](benchmark::State& state, const BenchmarkDevice& device) {
          run_fragmentation(state, context, device, kind);
        },
        1);
  }
}

}  // namespace

GPUBENCH_FAMILY("alloc", register_alloc_benchmarks);

}  // namespace gpubench
