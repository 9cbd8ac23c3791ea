// Dense GEMM throughput through cuBLASLt: FP32 without Tensor Cores, TF32, FP16, BF16 and FP8 E4M3, on a square
// sweep and on the shapes of transformer training, sustained and in short bursts from idle, plus the Tensor
// Core speedup (TF32 over FP32). Inputs are random and quantised to the precision; each figure that gates times
// cuBLASLt's own first choice, the same kernel in every process, and only the search for the most the GPU reaches
// (gemm/max_achievable) times the candidates and keeps the fastest (timed_gemm.hpp says why); a choice is made once
// per process for each device, precision and shape; every product is checked on a sample against an FP64 host
// reference (gemm_verify.hpp).
#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "benchmarks/common/benchmark_failure.hpp"
#include "benchmarks/common/cuda_check.hpp"
#include "benchmarks/common/device_buffer.hpp"
#include "benchmarks/common/event_timer.hpp"
#include "benchmarks/common/family_registration.hpp"
#include "benchmarks/common/gpu_power.hpp"
#include "benchmarks/common/median.hpp"
#include "benchmarks/common/process_resources.hpp"
#include "benchmarks/common/registry.hpp"
#include "benchmarks/common/reporting.hpp"
#include "benchmarks/common/significant_digits.hpp"
#include "benchmarks/common/timed_loop.hpp"
#include "benchmarks/gemm/cublaslt_gemm.hpp"
#include "benchmarks/gemm/gemm_peaks.hpp"
#include "benchmarks/gemm/gemm_problem.hpp"
#include "benchmarks/gemm/gemm_shape_list.hpp"
#include "benchmarks/gemm/shape_search.hpp"
#include "benchmarks/gemm/sustainable_search.hpp"
#include "benchmarks/gemm/timed_gemm.hpp"

namespace gpubench {
namespace {

constexpr std::uint64_t kSeed = 0x6A09E667F3BCC908ull;

// A burst from idle, as a framework's timing loop measures a GEMM (three warm-ups, then the mean of ten). Under
// sustained load a power-capped GPU lowers its clock within a fraction of a second (an H200 at 700 W: from
// about 1980 MHz to about 1.4 GHz in BF16), so the two figures differ by 10-20 %: the sustained one is what
// a training job gets, the burst one what the chip reaches while its power budget lasts. The pause before each
// burst lets the GPU fall back under its power limit.
constexpr auto kIdleBeforeBurst = std::chrono::milliseconds(1000);
constexpr int kBurstWarmups = 3;
constexpr int kBurstLaunches = 10;
const GemmShape kBurstShape{8192, 8192, 8192};

// A sustained figure's repetition is one window of back-to-back batches: 1 s in the full suite, 0.75 s in the quick
// one. Under load a power-capped GPU's throughput does not hold still: on an H200 at 700 W it dipped by 10-15 % for
// about 0.15 s every 0.9 s (PyTorch's 8192^3 and 4096^3 products timed in 50 ms windows, 2026-12-04). Windows of
// 0.5 s then differed by up to 4.8 % with where they fell against the dips, 1 s windows by 1.9 % and 2 s windows by
// 0.8 %. The quick suite's figures gate at a 5 % tolerance and spread 0.9-1.8 % between healthy runs with two 1 s
// windows. With two 0.75 s windows (1.5 s of timed load a figure, 5 s less of the quick suite's minute) the ten
// sustained figures of the one-H100 baseline's 14 runs, on three nodes, stayed within 0.4-1.2 % of their medians
// (baselines/README.md).
double sustained_window_seconds(Suite suite) { return suite == Suite::Quick ? 0.75 : 1.0; }

// The algorithm choices made in this process, by device, precision, shape and way of choosing. A benchmark's first
// repetition chooses; the later ones, and other benchmarks of the same GEMM, time the algorithm it chose (a search
// made afresh each time would let near-equal candidates win by noise and mix algorithms in the samples).
using ChoiceKey = std::tuple<int, GemmPrecision, std::int64_t, std::int64_t, std::int64_t, AlgorithmChoice>;

struct AlgorithmChoicesOfThisProcess {
  std::map<ChoiceKey, GemmAlgorithmChoice> by_gemm;
};

// Constructs `gemm` with this process's choice for its device, precision, shape and way of choosing, choosing on
// first use.
void emplace_chosen(const BenchmarkContext& context, std::optional<TimedGemm>& gemm, int device,
                    cublasLtHandle_t handle, GemmPrecision precision, const GemmShape& shape, AlgorithmChoice how,
                    cudaStream_t stream) {
  std::map<ChoiceKey, GemmAlgorithmChoice>& choices =
      context.resources->family_state<AlgorithmChoicesOfThisProcess>().by_gemm;
  const ChoiceKey key{device, precision, shape.m, shape.n, shape.k, how};
  const auto known = choices.find(key);
  gemm.emplace(handle, precision, shape, kSeed, stream, how,
               known == choices.end() ? std::nullopt : std::optional<GemmAlgorithmChoice>(known->second));
  choices.emplace(key, gemm->choice());  // keeps an existing entry
}

std::vector<GemmShape> square_shapes(Suite suite) {
  const std::vector<std::int64_t> sizes =
      suite == Suite::Quick ? std::vector<std::int64_t>{4096, 8192} : std::vector<std::int64_t>{1024, 2048, 4096, 8192, 16384};
  std::vector<GemmShape> shapes;
  for (std::int64_t size : sizes) shapes.push_back({size, size, size});
  return shapes;
}

// The linear layers that dominate training a transformer, forward pass, for one batch of 8192 tokens:
// M = tokens, N = output features, K = input features. Llama-2-7B (hidden 4096, MLP 11008) and
// Llama-3-70B (hidden 8192, MLP 28672, grouped-query attention with 8 KV heads of 128). The attention
// output projections are 8192x4096x4096 and 8192x8192x8192, already near or in the square sweep.
// Full suite only: the quick suite keeps to the square 4096 and 8192.
std::vector<GemmShape> transformer_shapes() {
  return {
      {8192, 12288, 4096},   // 7B: fused Q, K, V projection (3 x 4096)
      {8192, 11008, 4096},   // 7B: MLP up (and gate) projection
      {8192, 4096, 11008},   // 7B: MLP down projection
      {8192, 10240, 8192},   // 70B: fused Q, K, V projection (8192 + 2 x 1024)
      {8192, 28672, 8192},   // 70B: MLP up (and gate) projection
      {8192, 8192, 28672},   // 70B: MLP down projection
  };
}

// The user's own shapes (GPUBENCH_GEMM_SHAPES, from `gpubench run --gemm-shapes`), in both suites, less those the
// suite measures anyway. Throws std::invalid_argument for a list that is not one: gpubench-micro exits 2.
std::vector<GemmShape> user_shapes(const std::vector<GemmShape>& measured_anyway) {
  const char* text = std::getenv("GPUBENCH_GEMM_SHAPES");
  if (text == nullptr) return {};
  std::vector<GemmShape> shapes;
  try {
    for (const GemmShape& shape : parse_gemm_shape_list(text)) {
      if (std::find(measured_anyway.begin(), measured_anyway.end(), shape) == measured_anyway.end()) shapes.push_back(shape);
    }
  } catch (const std::invalid_argument& error) {
    throw std::invalid_argument(std::string("GPUBENCH_GEMM_SHAPES: ") + error.what());
  }
  return shapes;
}

struct DeviceArchitecture {
  int major = 0;
  int minor = 0;
  int sm_count = 0;
  int sm_clock_khz = 0;  // the maximum boost clock the device reports
};

DeviceArchitecture read_architecture(int device) {
  DeviceArchitecture arch;
  GPUBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&arch.major, cudaDevAttrComputeCapabilityMajor, device));
  GPUBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&arch.minor, cudaDevAttrComputeCapabilityMinor, device));
  GPUBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&arch.sm_count, cudaDevAttrMultiProcessorCount, device));
  GPUBENCH_CUDA_CHECK(cudaDeviceGetAttribute(&arch.sm_clock_khz, cudaDevAttrClockRate, device));
  return arch;
}

// The device's architecture when it runs the precision; otherwise the benchmark is skipped with the reason.
std::optional<DeviceArchitecture> architecture_running(benchmark::State& state, int device, GemmPrecision precision) {
  const DeviceArchitecture arch = read_architecture(device);
  if (const auto reason = unsupported_reason(arch.major, arch.minor, precision)) {
    skip_benchmark(state, *reason);
    return std::nullopt;
  }
  return arch;
}

std::optional<double> peak_for(const DeviceArchitecture& arch, GemmPrecision precision) {
  return gemm_peak_tflops(arch.major, arch.minor, arch.sm_count, arch.sm_clock_khz, precision);
}

// Why this GPU cannot hold the operands (a skip), or nothing. Too little *free* memory is a failure instead:
// something else is using the GPU.
std::optional<std::string> memory_shortfall(std::size_t bytes) {
  constexpr std::size_t kHeadroom = std::size_t{256} << 20;  // cuBLASLt's handle and the CUDA context
  std::size_t free_bytes = 0;
  std::size_t total_bytes = 0;
  GPUBENCH_CUDA_CHECK(cudaMemGetInfo(&free_bytes, &total_bytes));
  const std::string needs = "needs " + std::to_string((bytes + kHeadroom) >> 20) + " MiB of device memory, ";
  if (total_bytes < bytes + kHeadroom) return needs + "the GPU has " + std::to_string(total_bytes >> 20) + " MiB";
  if (free_bytes < bytes + kHeadroom) {
    throw BenchmarkFailure(FailureKind::OutOfMemory, needs + std::to_string(free_bytes >> 20) +
                                                            " MiB free; stop other processes on this GPU");
  }
  return std::nullopt;
}

std::size_t device_bytes(GemmPrecision precision, const GemmShape& shape) {
  return operand_bytes(precision, shape) + kCublasLtWorkspaceBytes;
}

void add_check_params(std::map<std::string, std::string>& params, const GemmCheck& check, const std::string& prefix) {
  params[prefix + "verified_elements"] = std::to_string(check.checked);
  params[prefix + "verify_worst_error"] = significant_digits(check.worst_error, 3);
  params[prefix + "verify_tolerance"] = significant_digits(check.tolerance, 3);
}

enum class GemmTiming { Sustained, Burst };

void run_gemm(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device,
              GemmPrecision precision, const GemmShape& shape, GemmTiming timing) {
  const std::optional<DeviceArchitecture> supported = architecture_running(state, device.index, precision);
  if (!supported) return;
  const DeviceArchitecture& arch = *supported;
  if (const auto reason = memory_shortfall(device_bytes(precision, shape))) {
    skip_benchmark(state, *reason);
    return;
  }
  CudaStream stream;
  const LtHandle handle = create_lt_handle();
  std::optional<TimedGemm> chosen;
  emplace_chosen(context, chosen, device.index, handle.get(), precision, shape, AlgorithmChoice::LibraryFirst,
                 stream.get());
  const TimedGemm& gemm = *chosen;
  const bool burst = timing == GemmTiming::Burst;
  const double window_seconds = sustained_window_seconds(context.suite);
  EventTimer timer;
  std::int64_t launches = 0;
  const double timed_seconds = total_seconds_of_iterations(state, [&] {
    if (burst) {
      stream.synchronize();
      std::this_thread::sleep_for(kIdleBeforeBurst);  // untimed: manual time counts only the burst
      launches += kBurstLaunches;
      return gemm.time_burst(kBurstWarmups, kBurstLaunches, timer, stream.get());
    }
    const TimedGemm::Window timed = gemm.time_window(window_seconds, timer, stream.get());
    launches += timed.launches;
    return timed.seconds;
  });
  report_clocks(state, context, device);

  const GemmCheck check = gemm.verify(stream.get());
  if (check.wrong > 0) {
    fail_benchmark(state, FailureKind::WrongResult, "verification failed: " + std::string(precision_name(precision)) + " " + shape_name(shape) +
                              (burst ? " burst" : "") + ": " + check.summary());
    return;
  }
  FigureLabel label{"tflops", "TFLOP/s", Better::Higher, device.index, gemm.params()};
  add_check_params(label.params, check, "");
  label.params["sm_clock_max_khz"] = std::to_string(arch.sm_clock_khz);
  if (burst) {
    label.params.erase("launches_per_batch");
    label.params["idle_before_burst_ms"] = std::to_string(kIdleBeforeBurst.count());
    label.params["warmup_launches"] = std::to_string(kBurstWarmups);
    label.params["timed_launches"] = std::to_string(kBurstLaunches);
  } else {
    label.params["window_seconds"] = significant_digits(window_seconds, 2);
  }
  const double tflops = gemm_flops(shape) * static_cast<double>(launches) / timed_seconds / 1e12;
  report_figure(state, tflops, peak_for(arch, precision), label);
}

// TF32 Tensor Cores against FP32 on the CUDA cores, same shape, both timed here, alternating batch by batch so
// both see the same clocks and temperature.
void run_tensor_core_speedup(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device,
                             const GemmShape& shape) {
  const std::optional<DeviceArchitecture> supported = architecture_running(state, device.index, GemmPrecision::Tf32);
  if (!supported) return;
  const DeviceArchitecture& arch = *supported;
  const std::size_t bytes = device_bytes(GemmPrecision::Fp32, shape) + device_bytes(GemmPrecision::Tf32, shape);
  if (const auto reason = memory_shortfall(bytes)) {
    skip_benchmark(state, *reason);
    return;
  }
  CudaStream stream;
  const LtHandle handle = create_lt_handle();
  std::optional<TimedGemm> chosen_fp32;
  std::optional<TimedGemm> chosen_tf32;
  emplace_chosen(context, chosen_fp32, device.index, handle.get(), GemmPrecision::Fp32, shape,
                 AlgorithmChoice::LibraryFirst, stream.get());
  emplace_chosen(context, chosen_tf32, device.index, handle.get(), GemmPrecision::Tf32, shape,
                 AlgorithmChoice::LibraryFirst, stream.get());
  const TimedGemm& fp32 = *chosen_fp32;
  const TimedGemm& tf32 = *chosen_tf32;
  EventTimer timer;
  double fp32_seconds = 0;
  double tf32_seconds = 0;
  std::int64_t fp32_launches = 0;
  std::int64_t tf32_launches = 0;
  // An iteration's time is both batches; the figure uses each precision's own seconds, summed here.
  run_timed_iterations(state, [&] {
    const double fp32_batch = fp32.time_batch(timer, stream.get());
    const double tf32_batch = tf32.time_batch(timer, stream.get());
    fp32_seconds += fp32_batch;
    tf32_seconds += tf32_batch;
    fp32_launches += fp32.launches_per_batch();
    tf32_launches += tf32.launches_per_batch();
    return fp32_batch + tf32_batch;
  });
  report_clocks(state, context, device);

  const GemmCheck fp32_check = fp32.verify(stream.get());
  const GemmCheck tf32_check = tf32.verify(stream.get());
  for (const auto& [name, check] : {std::pair{"fp32", &fp32_check}, std::pair{"tf32", &tf32_check}}) {
    if (check->wrong > 0) {
      fail_benchmark(state, FailureKind::WrongResult, std::string("verification failed: ") + name + " " + shape_name(shape) + ": " + check->summary());
      return;
    }
  }
  const double fp32_tflops = gemm_flops(shape) * static_cast<double>(fp32_launches) / fp32_seconds / 1e12;
  const double tf32_tflops = gemm_flops(shape) * static_cast<double>(tf32_launches) / tf32_seconds / 1e12;
  FigureLabel label{"speedup", "x", Better::Higher, device.index, {}};
  for (const auto& [prefix, gemm] : {std::pair{"fp32_", &fp32}, std::pair{"tf32_", &tf32}}) {
    for (const auto& [key, value] : gemm->params()) label.params[prefix + key] = value;
  }
  add_check_params(label.params, fp32_check, "fp32_");
  add_check_params(label.params, tf32_check, "tf32_");
  label.params["fp32_tflops"] = significant_digits(fp32_tflops, 3);
  label.params["tf32_tflops"] = significant_digits(tf32_tflops, 3);
  const auto fp32_rate = dense_flops_per_clock_per_sm(arch.major, arch.minor, GemmPrecision::Fp32);
  const auto tf32_rate = dense_flops_per_clock_per_sm(arch.major, arch.minor, GemmPrecision::Tf32);
  if (fp32_rate && tf32_rate) label.params["theoretical_speedup"] = std::to_string(*tf32_rate / *fp32_rate);
  report_figure(state, tf32_tflops / fp32_tflops, std::nullopt, label);
}

// The search's sustained ranking, made once per process for each device and precision (its first repetition);
// every repetition then times the finalists as bursts from idle.
struct ShapeSearch {
  std::vector<ShapeThroughput> finalists;
  std::size_t shapes_searched = 0;
};

struct ShapeSearchesOfThisProcess {
  std::map<std::pair<int, GemmPrecision>, ShapeSearch> by_device_and_precision;
};

const ShapeSearch& search_once(const BenchmarkContext& context, int device, cublasLtHandle_t handle,
                               GemmPrecision precision, cudaStream_t stream) {
  auto& searches = context.resources->family_state<ShapeSearchesOfThisProcess>().by_device_and_precision;
  const auto key = std::make_pair(device, precision);
  if (const auto known = searches.find(key); known != searches.end()) return known->second;
  ShapeSearch search;
  std::vector<ShapeThroughput> measured;
  EventTimer timer;
  for (const GemmShape& shape : search_grid()) {
    if (memory_shortfall(device_bytes(precision, shape))) continue;  // larger than this GPU: not a candidate
    std::optional<TimedGemm> gemm;
    emplace_chosen(context, gemm, device, handle, precision, shape, AlgorithmChoice::FastestTimed, stream);
    const double seconds = gemm->time_batch(timer, stream);
    measured.push_back({shape, gemm_flops(shape) * gemm->launches_per_batch() / seconds / 1e12});
    ++search.shapes_searched;
  }
  search.finalists = fastest(std::move(measured), kSearchFinalists);
  return searches.emplace(key, std::move(search)).first->second;
}

// The most this GPU reaches in the precision, on the best shape of the search grid, timed in bursts from idle.
void run_max_achievable(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device,
                        GemmPrecision precision) {
  const std::optional<DeviceArchitecture> supported = architecture_running(state, device.index, precision);
  if (!supported) return;
  const DeviceArchitecture& arch = *supported;
  CudaStream stream;
  const LtHandle handle = create_lt_handle();
  const ShapeSearch& search = search_once(context, device.index, handle.get(), precision, stream.get());
  if (search.finalists.empty()) {
    skip_benchmark(state, "no shape of the search grid fits this GPU's memory");
    return;
  }
  // Made in place: a TimedGemm's cuBLASLt descriptors point into its own operands, so it cannot move.
  std::vector<std::optional<TimedGemm>> finalists(search.finalists.size());
  for (std::size_t i = 0; i < finalists.size(); ++i) {
    emplace_chosen(context, finalists[i], device.index, handle.get(), precision, search.finalists[i].shape,
                   AlgorithmChoice::FastestTimed, stream.get());
  }
  EventTimer timer;
  std::size_t best = 0;
  double best_tflops = 0;
  run_timed_iterations(state, [&] {
    double seconds = 0;
    for (std::size_t i = 0; i < finalists.size(); ++i) {
      stream.synchronize();
      std::this_thread::sleep_for(kIdleBeforeBurst);  // untimed
      const double burst = finalists[i]->time_burst(kBurstWarmups, kBurstLaunches, timer, stream.get());
      const double tflops = gemm_flops(search.finalists[i].shape) * kBurstLaunches / burst / 1e12;
      if (tflops > best_tflops) {
        best_tflops = tflops;
        best = i;
      }
      seconds += burst;
    }
    return seconds;
  });
  report_clocks(state, context, device);
  std::vector<GemmCheck> checks;
  for (std::size_t i = 0; i < finalists.size(); ++i) {
    const GemmCheck& check = checks.emplace_back(finalists[i]->verify(stream.get()));
    if (check.wrong > 0) {
      fail_benchmark(state, FailureKind::WrongResult, "verification failed: " + std::string(precision_name(precision)) + " " +
                                                          shape_name(search.finalists[i].shape) + ": " + check.summary());
      return;
    }
  }
  FigureLabel label{"tflops", "TFLOP/s", Better::Higher, device.index, finalists[best]->params()};
  add_check_params(label.params, checks[best], "");
  label.params.erase("launches_per_batch");
  label.params["best_shape"] = shape_name(search.finalists[best].shape);
  label.params["best_shape_sustained_tflops"] = significant_digits(search.finalists[best].tflops, 4);
  label.params["shapes_searched"] = std::to_string(search.shapes_searched);
  std::string finalist_names;
  for (const ShapeThroughput& f : search.finalists) finalist_names += (finalist_names.empty() ? "" : ",") + shape_name(f.shape);
  label.params["finalists"] = finalist_names;
  label.params["idle_before_burst_ms"] = std::to_string(kIdleBeforeBurst.count());
  label.params["warmup_launches"] = std::to_string(kBurstWarmups);
  label.params["timed_launches"] = std::to_string(kBurstLaunches);
  label.params["sm_clock_max_khz"] = std::to_string(arch.sm_clock_khz);
  report_figure(state, best_tflops, peak_for(arch, precision), label);
}

// gemm/max_sustainable (sustainable_search.hpp says why these shapes): the search runs once per process for each
// device and precision, in its first repetition, with the GPU under load from start to end; every repetition then
// times the winner in one window, as the sustained figures are timed (the lock-in).
constexpr double kSoakWindowSeconds = 0.5;
constexpr double kSoakMinSeconds = 2.0;
constexpr double kSoakMaxSeconds = 15.0;
constexpr double kSoakSettledChange = 0.005;  // a window within 0.5 % of the one before: the clock has settled
// A scout times slices of about 50 ms for 0.3 s and keeps its fastest slice. A power-capped H200 dips by 10-15 % for
// about 0.15 s every 0.9 s (sustained_window_seconds above), so some slices of every scout miss the dip, and every
// shape is ranked by its throughput between dips, the same footing for all.
constexpr double kScoutSeconds = 0.3;
constexpr double kScoutSliceSeconds = 0.05;
constexpr int kConfirmWindows = 2;
constexpr double kSustainableWindowSeconds = 1.0;

struct SustainableSearch {
  GemmShape best;
  std::vector<ShapeThroughput> confirmed;  // fastest first, mean of kConfirmWindows windows each
  std::size_t scouted = 0;
  std::size_t refined = 0;
  double soak_seconds = 0;
  double search_seconds = 0;
};

struct SustainableSearchesOfThisProcess {
  std::map<std::pair<int, GemmPrecision>, SustainableSearch> by_device_and_precision;
};

// Load until the throughput stops falling (the clock under the power limit has settled as the GPU warmed); returns
// the seconds it took.
double soak(const TimedGemm& gemm, EventTimer& timer, cudaStream_t stream) {
  double soaked = 0;
  double previous = 0;
  while (soaked < kSoakMaxSeconds) {
    const TimedGemm::Window window = gemm.time_window(kSoakWindowSeconds, timer, stream);
    soaked += window.seconds;
    const double rate = static_cast<double>(window.launches) / window.seconds;
    if (soaked >= kSoakMinSeconds && previous > 0 && rate >= previous * (1 - kSoakSettledChange)) break;
    previous = rate;
  }
  return soaked;
}

double fastest_slice_tflops(const TimedGemm& gemm, const GemmShape& shape, EventTimer& timer, cudaStream_t stream) {
  double best = 0;
  for (double scouted = 0; scouted < kScoutSeconds;) {
    const TimedGemm::Window slice = gemm.time_window(kScoutSliceSeconds, timer, stream);
    scouted += slice.seconds;
    best = std::max(best, gemm_flops(shape) * static_cast<double>(slice.launches) / slice.seconds / 1e12);
  }
  return best;
}

const SustainableSearch& search_sustainable_once(const BenchmarkContext& context, int device, int sm_count,
                                                 cublasLtHandle_t handle, GemmPrecision precision, cudaStream_t stream) {
  auto& searches = context.resources->family_state<SustainableSearchesOfThisProcess>().by_device_and_precision;
  const auto key = std::make_pair(device, precision);
  if (const auto known = searches.find(key); known != searches.end()) return known->second;
  const auto started = std::chrono::steady_clock::now();
  SustainableSearch search;
  EventTimer timer;
  const std::vector<GemmShape> scouts = scout_shapes(sm_count);
  if (!memory_shortfall(device_bytes(precision, kBurstShape))) {  // soaked on the common 8192^3
    std::optional<TimedGemm> load;
    emplace_chosen(context, load, device, handle, precision, kBurstShape, AlgorithmChoice::LibraryFirst, stream);
    search.soak_seconds = soak(*load, timer, stream);
  }
  std::vector<GemmShape> measured;
  std::vector<ShapeThroughput> throughputs;
  const auto scout = [&](const std::vector<GemmShape>& shapes) {
    std::size_t count = 0;
    for (const GemmShape& shape : shapes) {
      measured.push_back(shape);
      if (memory_shortfall(device_bytes(precision, shape))) continue;  // larger than this GPU: not a candidate
      std::optional<TimedGemm> gemm;
      emplace_chosen(context, gemm, device, handle, precision, shape, AlgorithmChoice::LibraryFirst, stream);
      throughputs.push_back({shape, fastest_slice_tflops(*gemm, shape, timer, stream)});
      ++count;
    }
    return count;
  };
  search.scouted = scout(scouts);
  search.refined = scout(refine_shapes(fastest(throughputs, kRefinedScouts), measured, sm_count));
  for (const ShapeThroughput& finalist : fastest(throughputs, kConfirmedShapes)) {
    std::optional<TimedGemm> gemm;
    emplace_chosen(context, gemm, device, handle, precision, finalist.shape, AlgorithmChoice::FastestTimed, stream);
    double seconds = 0;
    std::int64_t launches = 0;
    for (int w = 0; w < kConfirmWindows; ++w) {
      const TimedGemm::Window window = gemm->time_window(kSustainableWindowSeconds, timer, stream);
      seconds += window.seconds;
      launches += window.launches;
    }
    search.confirmed.push_back({finalist.shape, gemm_flops(finalist.shape) * static_cast<double>(launches) / seconds / 1e12});
  }
  const std::size_t confirmed = search.confirmed.size();
  search.confirmed = fastest(std::move(search.confirmed), confirmed);
  if (!search.confirmed.empty()) search.best = search.confirmed.front().shape;
  search.search_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
  return searches.emplace(key, std::move(search)).first->second;
}

// The most this GPU holds in the precision at its power limit, on the best shape of the sustainable search.
void run_max_sustainable(benchmark::State& state, const BenchmarkContext& context, const BenchmarkDevice& device,
                         GemmPrecision precision) {
  const std::optional<DeviceArchitecture> supported = architecture_running(state, device.index, precision);
  if (!supported) return;
  const DeviceArchitecture& arch = *supported;
  CudaStream stream;
  const LtHandle handle = create_lt_handle();
  const SustainableSearch& search =
      search_sustainable_once(context, device.index, arch.sm_count, handle.get(), precision, stream.get());
  if (search.confirmed.empty()) {
    skip_benchmark(state, "no shape of the sustainable search fits this GPU's memory");
    return;
  }
  std::optional<TimedGemm> chosen;
  emplace_chosen(context, chosen, device.index, handle.get(), precision, search.best, AlgorithmChoice::FastestTimed,
                 stream.get());
  const TimedGemm& gemm = *chosen;
  EventTimer timer;
  std::int64_t launches = 0;
  std::vector<double> watts;
  const double timed_seconds = total_seconds_of_iterations(state, [&] {
    const TimedGemm::Window timed = gemm.time_window(kSustainableWindowSeconds, timer, stream.get());
    launches += timed.launches;
    if (const auto now = board_power_watts(context, device)) watts.push_back(*now);  // at the window's end, still loaded
    return timed.seconds;
  });
  report_clocks(state, context, device);
  const GemmCheck check = gemm.verify(stream.get());
  if (check.wrong > 0) {
    fail_benchmark(state, FailureKind::WrongResult, "verification failed: " + std::string(precision_name(precision)) + " " +
                                                        shape_name(search.best) + ": " + check.summary());
    return;
  }
  FigureLabel label{"tflops", "TFLOP/s", Better::Higher, device.index, gemm.params()};
  add_check_params(label.params, check, "");
  label.params["best_shape"] = shape_name(search.best);
  label.params["window_seconds"] = significant_digits(kSustainableWindowSeconds, 2);
  label.params["shapes_scouted"] = std::to_string(search.scouted);
  label.params["shapes_refined"] = std::to_string(search.refined);
  std::string confirmed;
  for (const ShapeThroughput& c : search.confirmed) {
    confirmed += (confirmed.empty() ? "" : ",") + shape_name(c.shape) + ":" + significant_digits(c.tflops, 4);
  }
  label.params["confirmed_tflops"] = confirmed;
  label.params["soak_seconds"] = significant_digits(search.soak_seconds, 2);
  label.params["search_seconds"] = significant_digits(search.search_seconds, 3);
  if (!watts.empty()) label.params["power_w"] = significant_digits(median(watts), 4);
  if (const auto limit = enforced_power_limit_watts(context, device)) label.params["power_limit_w"] = significant_digits(*limit, 4);
  label.params["sm_clock_max_khz"] = std::to_string(arch.sm_clock_khz);
  const double tflops = gemm_flops(search.best) * static_cast<double>(launches) / timed_seconds / 1e12;
  report_figure(state, tflops, peak_for(arch, precision), label);
}

void register_gemm_benchmarks(const BenchmarkContext& context) {
  std::vector<GemmShape> shapes = square_shapes(context.suite);
  if (context.suite == Suite::Full) {
    for (const GemmShape& shape : transformer_shapes()) shapes.push_back(shape);
  }
  for (const GemmShape& shape : user_shapes(shapes)) shapes.push_back(shape);
  for (GemmPrecision precision : kGemmPrecisions) {
    for (const GemmShape& shape : shapes) {
      register_per_device(context, std::string("gemm/") + precision_name(precision) + "/" + shape_name(shape),
                          [&context, precision, shape](benchmark::State& state, const BenchmarkDevice& device) {
                            run_gemm(state, context, device, precision, shape, GemmTiming::Sustained);
                          },
                          1);
    }
  }
  // Bursts at 8192^3, where the common public figures are quoted: every precision in the full suite, the one
  // that draws the most power (BF16) in the quick one, since each burst waits a second first.
  for (GemmPrecision precision : kGemmPrecisions) {
    if (context.suite == Suite::Quick && precision != GemmPrecision::Bf16) continue;
    register_per_device(context, std::string("gemm/burst/") + precision_name(precision) + "/" + shape_name(kBurstShape),
                        [&context, precision](benchmark::State& state, const BenchmarkDevice& device) {
                          run_gemm(state, context, device, precision, kBurstShape, GemmTiming::Burst);
                        },
                        1);
  }
  // The maximum achievable matmul, full suite only (about a minute a precision): the Tensor Core precisions, as
  // CUDA-core FP32 at 16384^3 takes a fifth of a second a product.
  if (context.suite == Suite::Full) {
    for (GemmPrecision precision : kGemmPrecisions) {
      if (precision == GemmPrecision::Fp32) continue;
      register_per_device(context, std::string("gemm/max_achievable/") + precision_name(precision),
                          [&context, precision](benchmark::State& state, const BenchmarkDevice& device) {
                            run_max_achievable(state, context, device, precision);
                          },
                          1);
    }
  }
  // The maximum sustainable matmul, full suite only (about 40 s a precision): the Tensor Core precisions.
  if (context.suite == Suite::Full) {
    for (GemmPrecision precision : kGemmPrecisions) {
      if (precision == GemmPrecision::Fp32) continue;
      register_per_device(context, std::string("gemm/max_sustainable/") + precision_name(precision),
                          [&context, precision](benchmark::State& state, const BenchmarkDevice& device) {
                            run_max_sustainable(state, context, device, precision);
                          },
                          1);
    }
  }
  const GemmShape speedup_shape{8192, 8192, 8192};
  register_per_device(context, "gemm/tensor_core_speedup/" + shape_name(speedup_shape),
                      [&context, speedup_shape](benchmark::State& state, const BenchmarkDevice& device) {
                        run_tensor_core_speedup(state, context, device, speedup_shape);
                      });
}

}  // namespace

GPUBENCH_FAMILY("gemm", register_gemm_benchmarks);

}  // namespace gpubench
