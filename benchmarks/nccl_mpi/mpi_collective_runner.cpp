#include "benchmarks/nccl_mpi/mpi_collective_runner.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <utility>

#include "benchmarks/common/copy_gate.hpp"
#include "benchmarks/nccl/collective_bench.hpp"
#include "benchmarks/nccl/collective_table.hpp"
#include "benchmarks/nccl/nccl_check.hpp"
#include "benchmarks/nccl/nccl_tuning_line.hpp"

namespace gpubench {
namespace {

// A bound on samples per repetition, should a clock ever read zero.
constexpr long long kMaxSamplesPerRepetition = 10'000'000;

MpiCollectiveOutcome not_measured(MpiCollectiveOutcome::Kind kind, std::string reason) {
  MpiCollectiveOutcome outcome;
  outcome.kind = kind;
  outcome.reason = std::move(reason);
  return outcome;
}

MpiCollectiveOutcome failed(FailureKind failure, std::string reason) {
  MpiCollectiveOutcome outcome = not_measured(MpiCollectiveOutcome::Kind::Failed, std::move(reason));
  outcome.failure = failure;
  return outcome;
}

}  // namespace

MpiCollectiveRunner::MpiCollectiveRunner(const MpiWorld& world, int device, NcclDebugLog& debug_log, NcclCombination forced,
                                       int repetitions, double min_seconds)
    : world_(world),
      device_(device),
      debug_log_(debug_log),
      forced_(std::move(forced)),
      repetitions_(repetitions),
      min_seconds_(min_seconds) {}

std::string MpiCollectiveRunner::agreed_reason(const std::string& mine) const {
  std::string reason;
  const std::vector<std::string> all = world_.gather_text(mine, 0);
  for (const std::string& text : all) {
    if (!text.empty()) {
      reason = text;
      break;
    }
  }
  unsigned long long length = reason.size();
  world_.broadcast(&length, sizeof length, 0);
  reason.resize(length);
  world_.broadcast(reason.data(), reason.size(), 0);
  return reason;
}

NcclCommunicators* MpiCollectiveRunner::communicators(std::string* refusal) {
  if (communicators_ && !communicators_->aborted()) return communicators_.get();
  communicators_.reset();
  struct {
    int status;
    ncclUniqueId id;
  } root{};
  if (world_.rank() == 0) root.status = static_cast<int>(ncclGetUniqueId(&root.id));
  world_.broadcast(&root, sizeof root, 0);
  if (root.status != ncclSuccess) {
    throw NcclError("ncclGetUniqueId (on rank 0)", static_cast<ncclResult_t>(root.status), nullptr, __FILE__, __LINE__);
  }
  std::string reason;
  try {
    communicators_ = NcclCommunicators::for_rank(root.id, world_.size(), world_.rank(), device_);
  } catch (const NcclError& error) {
    if (!error.refused()) throw;
    reason = error.what();
  }
  if (world_.max(reason.empty() ? 0 : 1) != 0) {
    if (communicators_) communicators_->abort();
    *refusal = agreed_reason(reason);
    init_refusal_ = *refusal;
    return nullptr;
  }
  return communicators_.get();
}

MpiCollectiveOutcome MpiCollectiveRunner::run(const SweepPoint& point) {
  using Kind = MpiCollectiveOutcome::Kind;
  const std::size_t bytes = point.bytes;
  const Placement placement = point.placement;
  if (world_.size() < 2) return not_measured(Kind::Skipped, "needs two GPUs; 1 rank running");
  if (init_refusal_) return not_measured(Kind::Skipped, *init_refusal_);
  if (const auto it = refused_.find({point.collective, bytes}); it != refused_.end()) {
    return not_measured(Kind::Skipped, it->second);
  }
  const CollectiveSpec& spec = collective_spec(point.collective);
  const CallShape shape = call_shape(spec, bytes, world_.size());
  if (shape.block == 0) {  // as gpubench-micro's nccl family skips it, with the same reason
    return not_measured(Kind::Skipped, too_small_reason(spec, bytes, world_.size()));
  }
  std::string refusal;
  NcclCommunicators* communicators = this->communicators(&refusal);
  if (communicators == nullptr) return not_measured(Kind::Skipped, refusal);

  CollectiveBench bench(*communicators, spec, shape, placement);
  CopyGate gate;  // declared after the buffers, so it is opened before they are freed
  try {
    // NCCL's tuning is the same on every rank, so a refused combination is refused by all ranks alike.
    std::string refused;
    try {
      bench.warm_up();
    } catch (const NcclError& error) {
      if (!error.refused()) throw;
      refused = error.what();
    }
    if (world_.max(refused.empty() ? 0 : 1) != 0) {
      communicators->abort();
      const std::string& reason = refused_[{spec.kind, bytes}] = agreed_reason(refused);
      return not_measured(Kind::Skipped, reason);
    }
    std::optional<NcclCombination> used;  // NCCL reports its choice on rank 0 only, and none for send/recv
    if (world_.rank() == 0) {
      const std::string text = debug_log_.take_new_text();
      if (spec.tuning_name != nullptr) {
        used = choice_from_debug_text(text, spec.tuning_name, {shape.bytes(), shape.block * sizeof(float)});
      }
    }

    const int calls = calls_per_sample(bytes, world_.size(), placement);
    std::vector<CollectiveMeasurement> repetitions;
    for (int repetition = 0; repetition < repetitions_; ++repetition) {
      double timed_seconds = 0;
      long long samples = 0;
      // Every rank adds the same maxima, so every rank stops after the same sample.
      while (timed_seconds < min_seconds_ && samples < kMaxSamplesPerRepetition) {
        if (placement == Placement::InPlace) bench.refresh_inputs();
        bench.enqueue_timed(gate, calls);
        world_.barrier();
        gate.open();
        const std::vector<double> seconds = bench.elapsed_seconds();
        timed_seconds += world_.max(*std::max_element(seconds.begin(), seconds.end()));
        ++samples;
      }
      CollectiveMeasurement measurement = measurement_of(spec, shape, placement, world_.size(), forced_, used, "mpi");
      measurement.mean_seconds = timed_seconds / (static_cast<double>(samples) * calls);
      measurement.calls_per_sample = calls;
      repetitions.push_back(measurement);
    }
    debug_log_.skip_new_text();
    if (world_.max(gate.timed_out() ? 1 : 0) != 0) {
      return failed(FailureKind::GateTimeout, "a timing gate gave up waiting, so the calls started before the clock: NCCL "
                                              "waited for the GPU while enqueuing the collective, or a rank was very late");
    }

    const std::vector<RankCheck> mine = bench.check();
    if (mine.size() != 1) throw std::logic_error("gpubench-mpi drives one GPU per process");
    const std::vector<char> gathered = world_.gather(mine.data(), sizeof(RankCheck), 0);
    std::string wrong;
    if (world_.rank() == 0) {
      std::vector<RankCheck> checks(static_cast<std::size_t>(world_.size()));
      std::memcpy(checks.data(), gathered.data(), gathered.size());
      wrong = describe_mismatches(spec.kind, checks, shape.recv_count);
    }
    if (world_.max(wrong.empty() ? 0 : 1) != 0) return failed(FailureKind::WrongResult, wrong);

    MpiCollectiveOutcome outcome;
    for (const CollectiveMeasurement& measurement : repetitions) outcome.busbw_samples.push_back(busbw_gbps(measurement));
    std::sort(repetitions.begin(), repetitions.end(), [](const CollectiveMeasurement& a, const CollectiveMeasurement& b) {
      return a.mean_seconds > b.mean_seconds;  // slowest first: ascending busbw
    });
    outcome.median = repetitions[repetitions.size() / 2];
    return outcome;
  } catch (...) {
    gate.open();
    communicators->abort();  // kernels still waiting on a peer return, so the buffers can be freed
    throw;
  }
}

}  // namespace gpubench
