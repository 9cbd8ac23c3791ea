#pragma once
// A slowdown names its cause: another process on a GPU while a family measured it. Under a competing GEMM, BF16 GEMM
// fell 26-46 % on an H200 and `check --confirm` confirmed it, which read as a failing card. A figure measured while
// another process used its GPU is said to be under contention ("another process (pid 4242, python3, 20.0 GiB) used
// GPU 0 during gemm"): its regression is a regression under contention, told apart from a GPU regression, though it
// fails the check all the same (exit codes do not change). The processes are those the run recorded
// (families[].telemetry.gpuN.processes); a document that recorded none says nothing either way.
#include <string>
#include <vector>

#include "harness/results/results_document.hpp"
#include "harness/verdict/metric_verdict.hpp"

namespace gpubench {

// One sentence per process, family and GPU: "another process (pid 4242, python3, 20.0 GiB) used GPU 0 during gemm".
std::vector<std::string> contention_in(const ResultsDocument& results);

// The same for the family and GPUs of one metric (a pair's two GPUs, every GPU for a figure of no one GPU), joined
// by "; "; "" when no other process was seen there.
std::string contention_during(const ResultsDocument& results, const Metric& metric);

// Sets each verdict's `contention` from the run's recorded processes; a regression's or a noisy figure's on the worse
// side opens its reason with it ("under contention: another process ...; ").
void mark_contention(CheckReport& report, const ResultsDocument& results);

// "regression under contention" for a regression measured under contention, else the verdict's own name.
std::string verdict_text(const MetricVerdict& verdict);

}  // namespace gpubench
