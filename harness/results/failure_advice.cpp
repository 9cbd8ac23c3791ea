#include "harness/results/failure_advice.hpp"

namespace gpubench {
namespace {

bool contains(const std::string& text, const char* part) { return text.find(part) != std::string::npos; }

}  // namespace

std::string advice_for_failure(const std::string& reason) {
  if (contains(reason, "verification failed")) {
    return "a wrong result is possible silent data corruption: re-run; if it repeats, run `gpubench stress` on this "
           "GPU and check ECC counters (nvidia-smi -q -d ECC), then take the GPU out of service";
  }
  if (contains(reason, "implausible result")) {
    return "a gpubench bug, not the GPU: report it with the family's log (its JSON keeps the raw figure of each "
           "repetition)";
  }
  if (contains(reason, "out of memory") || contains(reason, "MiB free")) {
    return "free device memory: stop other processes on the GPU (nvidia-smi shows them) and re-run";
  }
  if (contains(reason, "timed out")) {
    return "the family exceeded its time limit: check for a hung GPU or another job (nvidia-smi), or raise --timeout";
  }
  if (contains(reason, "signal")) {
    return "gpubench-micro crashed: its stderr is in the log named in the reason; re-run that family alone with "
           "--filter to reproduce, and check dmesg for Xid errors";
  }
  if (contains(reason, "cudaErrorNoDevice") || contains(reason, "no usable GPU") || contains(reason, "InsufficientDriver")) {
    return "check that the NVIDIA driver is loaded (nvidia-smi) and that CUDA_VISIBLE_DEVICES selects a GPU";
  }
  if (contains(reason, "ECC") || contains(reason, "uncorrectable") || contains(reason, "Xid")) {
    return "hardware error: check nvidia-smi -q -d ECC and dmesg for Xid errors; the GPU may need service";
  }
  return "re-run the family alone with --filter and read its log; if it persists, run `gpubench doctor`";
}

}  // namespace gpubench
