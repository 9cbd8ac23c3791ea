#pragma once
// The NCCL communicators every benchmark of gpubench-micro's nccl process shares: made on first use and kept,
// since ncclCommInitAll takes far longer than a small collective and Google Benchmark calls each benchmark's body
// several times. After a failure they are aborted and made anew; what NCCL refused is remembered, so the refusal is
// reported without asking again.
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "benchmarks/nccl/collective_kind.hpp"
#include "benchmarks/nccl/nccl_check.hpp"
#include "benchmarks/nccl/nccl_communicators.hpp"
#include "benchmarks/nccl/nccl_debug_log.hpp"

namespace gpubench {

class NcclSession {
 public:
  NcclSession() = default;
  NcclSession(const NcclSession&) = delete;
  NcclSession& operator=(const NcclSession&) = delete;

  // Throws NcclError (refused() when NCCL rejects its settings: every later call throws the same) or CudaError.
  NcclCommunicators& communicators(const std::vector<int>& devices);

  // Ends the communicators after an error (their state is unknown); the next benchmark makes new ones.
  void abandon() noexcept;

  // Why NCCL refused `collective` in this process, or null. A refusal is kept per collective, not per size: which
  // algorithms and protocols NCCL offers a collective depends on the machine and the NCCL_ALGO / NCCL_PROTO it read
  // at start, not on the size, and each refusal costs new communicators.
  const std::string* refusal(Collective collective) const;

  // Remembers NCCL's refusal of `collective` at `bytes` and starts clean (NCCL refused part-way through a group).
  void record_refusal(Collective collective, std::size_t bytes, const std::string& reason);

  NcclDebugLog& debug_log() { return *debug_log_; }

 private:
  std::optional<NcclDebugLog> debug_log_;  // declared first: NCCL may still write to its file until comms go
  std::unique_ptr<NcclCommunicators> communicators_;
  std::optional<NcclError> init_refusal_;
  std::map<Collective, std::string> refusals_;
};

}  // namespace gpubench
