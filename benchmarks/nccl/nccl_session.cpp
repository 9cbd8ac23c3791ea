#include "benchmarks/nccl/nccl_session.hpp"

#include "benchmarks/common/transfer_sizes.hpp"

namespace gpubench {

NcclCommunicators& NcclSession::communicators(const std::vector<int>& devices) {
  if (init_refusal_) throw *init_refusal_;
  if (communicators_ && !communicators_->aborted()) return *communicators_;
  communicators_.reset();
  if (!debug_log_) debug_log_ = NcclDebugLog::configure_environment();  // before NCCL's first call
  try {
    communicators_ = NcclCommunicators::for_devices(devices);
  } catch (const NcclError& error) {
    if (error.refused()) init_refusal_ = error;
    throw;
  }
  return *communicators_;
}

void NcclSession::abandon() noexcept {
  if (communicators_) communicators_->abort();
}

const std::string* NcclSession::refusal(Collective collective) const {
  const auto it = refusals_.find(collective);
  return it == refusals_.end() ? nullptr : &it->second;
}

void NcclSession::record_refusal(Collective collective, std::size_t bytes, const std::string& reason) {
  refusals_[collective] = "NCCL refused " + std::string(collective_id_name(collective)) + " at " + size_name(bytes) +
                          " in this process: " + reason;
  abandon();
}

}  // namespace gpubench
