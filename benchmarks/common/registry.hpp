#pragma once
// Registration helpers shared by every family: one benchmark per (variant, GPU), named
// "family/variant/params/gpuN", timed with CUDA events (manual time), repeated by the harness.
#include <benchmark/benchmark.h>

#include <functional>
#include <string>

#include "benchmarks/common/context.hpp"

namespace gpubench {

using DeviceBenchmark = std::function<void(benchmark::State&, const BenchmarkDevice&)>;
using MultiDeviceBenchmark = std::function<void(benchmark::State&, const std::vector<BenchmarkDevice>&)>;

// Registers `body` once per selected GPU. Every benchmark skips with context.no_gpu_reason when there is
// no GPU, so the list of names is the same on every machine. Each repetition runs for min_time_seconds(),
// or for exactly `fixed_iterations` iterations when that is positive (for iterations that wait untimed).
void register_per_device(const BenchmarkContext& context, const std::string& name, DeviceBenchmark body,
                         int fixed_iterations = 0);

// Registers `body` once for all selected GPUs together, named name + suffix ("/all_gpus" unless a family's
// ids say otherwise, as NCCL's do); its figure belongs to no single GPU (FigureLabel::device left empty). Returns
// the registration, for a family to set its own minimum time.
benchmark::internal::Benchmark* register_all_devices(const BenchmarkContext& context, const std::string& name,
                                                    MultiDeviceBenchmark body, const std::string& suffix = "/all_gpus");

using PairBenchmark = std::function<void(benchmark::State&, const BenchmarkDevice& from, const BenchmarkDevice& to)>;

// Registers `body` once per ordered pair of distinct selected GPUs, named "family/variant/params/gpuA-gpuB"
// (data moves from A to B). With fewer than two GPUs it registers one "gpu0-gpu1" benchmark that skips
// with the reason, so the list of names does not depend on the machine.
void register_per_pair(const BenchmarkContext& context, const std::string& name, PairBenchmark body);

// Minimum timed seconds per repetition: 0.5 s in the full suite; 0.05 s in the quick one, which must end within a
// minute on one GPU. Each repetition times at least this long, and the first one also searches for the iteration
// count, from one iteration up, so a figure of three repetitions costs more than 3 x this (docs/time-model.md).
double min_time_seconds(Suite suite);

// NCCL's collectives keep 0.1 s in the quick suite: their deciding figures (1 GiB all-reduce and all-to-all) need
// two GPUs, and were never measured at less (only one-GPU machines were lent when the rest went to 0.05 s).
double collective_min_time_seconds(Suite suite);

}  // namespace gpubench
