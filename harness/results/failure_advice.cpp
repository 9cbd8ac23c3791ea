#include "harness/results/failure_advice.hpp"

#include <array>
#include <utility>

namespace gpubench {
namespace {

constexpr const char* kGeneric = "re-run the family alone with --filter and read its log; if it persists, run `gpubench doctor`";
constexpr const char* kGpubenchBug =
    "a gpubench bug, not the GPU: report it with the family's log (its JSON keeps the raw figure of each repetition)";

// One line per kind.
constexpr std::array<std::pair<FailureKind, const char*>, 15> kAdvice = {{
    {FailureKind::Unknown, kGeneric},
    {FailureKind::WrongResult,
     "a wrong result is possible silent data corruption: re-run; if it repeats, run `gpubench stress` on this GPU and "
     "check ECC counters (nvidia-smi -q -d ECC), then take the GPU out of service"},
    {FailureKind::ApiError, kGeneric},
    {FailureKind::OutOfMemory, "free device memory: stop other processes on the GPU (nvidia-smi shows them) and re-run"},
    {FailureKind::NoDevice, "check that the NVIDIA driver is loaded (nvidia-smi) and that CUDA_VISIBLE_DEVICES selects a GPU"},
    {FailureKind::HardwareError, "hardware error: check nvidia-smi -q -d ECC and dmesg for Xid errors; the GPU may need service"},
    {FailureKind::GateTimeout,
     "the GPU did not start the timed work while the benchmark waited, so the timing is void: check for another job on "
     "the GPU (nvidia-smi) and re-run the family alone with --filter"},
    {FailureKind::ImplausibleResult, kGpubenchBug},
    {FailureKind::NoValue, "report it with the family's log"},
    {FailureKind::ChildTimeout,
     "the family exceeded its time limit: check for a hung GPU or another job (nvidia-smi), or raise --timeout"},
    {FailureKind::ChildCrashed,
     "gpubench-micro crashed: its stderr is in the log named in the reason; re-run that family alone with --filter to "
     "reproduce, and check dmesg for Xid errors"},
    {FailureKind::ChildFailed, kGeneric},
    {FailureKind::UnreadableOutput, kGeneric},
    {FailureKind::CatalogueMismatch,
     "a gpubench bug, not the GPU: report it; `gpubench-micro --benchmark_list_tests` shows the benchmarks it has"},
    {FailureKind::StressFinding,
     "take the GPU out of service and run `gpubench doctor`; corruption or errors that repeat mean a hardware fault to "
     "report to the vendor"},
}};

}  // namespace

std::string advice_for_failure(FailureKind kind) {
  for (const auto& [k, advice] : kAdvice) {
    if (k == kind) return advice;
  }
  return kGeneric;
}

}  // namespace gpubench
