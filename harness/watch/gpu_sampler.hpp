#pragma once
// One GPU's telemetry for `gpubench watch`, read through NVML without a daemon: plain NVML on every GPU, and
// NVML's GPM metrics (Hopper and later) over the time between two GPM samples. Fields a GPU or driver cannot give
// stay absent in the samples (watch_timeline.hpp), and gpm_unavailable() says why GPM's are.
#include <nvml.h>

#include <memory>
#include <string>
#include <vector>

#include "harness/watch/watch_timeline.hpp"

namespace gpubench {

class NvmlLibrary;

class GpuSampler {
 public:
  // `nvml` must outlive the sampler. `cuda_index` is what the timeline calls the GPU.
  GpuSampler(const NvmlLibrary& nvml, int cuda_index, nvmlDevice_t device);
  ~GpuSampler();
  GpuSampler(const GpuSampler&) = delete;
  GpuSampler& operator=(const GpuSampler&) = delete;

  // The GPU's facts, with no samples yet: index, name, dram_peak_gbps, pcie_max_gen/width, slowdown temperature.
  GpuTimeline describe() const;
  // One sample at `t_s`. Rates and GPM shares cover the time since the previous call; the first call has none
  // of them. Never throws for a field NVML cannot read.
  GpuSample sample(double t_s);
  // Xid and ECC events that arrived since the previous call (ECC as growth of the volatile counters).
  std::vector<WatchEvent> take_events(double t_s);
  // Empty when GPM metrics are read; otherwise why not ("GPM is not supported on this GPU", ...). Known at
  // construction for a GPU or driver without GPM; a metric that fails (a virtual GPU) is only found when sample()
  // first computes the metrics, so read it again after sampling. When some metrics work and others fail it names
  // the failing ones ("GPM fields absent: nvlink_tx_gbps (NVLINK_TOTAL_TX_PER_SEC: Not Supported)").
  const std::string& gpm_unavailable() const;
  // Empty when Xid events and ECC counts are both watched; otherwise which of them is not and why, as a line a
  // command can print ("Xid events not watched: nvmlDeviceRegisterEvents: Insufficient Permissions; ECC errors not
  // watched: nvmlDeviceGetTotalEccErrors: Not Supported"). Registering for events can fail without root or on a
  // virtual GPU; ECC counts are not supported where ECC is off.
  const std::string& events_unavailable() const;

 private:
  struct State;
  std::unique_ptr<State> state_;
};

}  // namespace gpubench
