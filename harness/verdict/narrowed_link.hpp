#pragma once
// The PCIe link a host<->device figure crossed, where the run recorded it narrower than its maximum: a GPU on an x8
// link copies to and from the host at half the rate of one on x16, so a PCIe figure's regression names the width as
// its likely cause. Only the width is read: the link's generation drops at rest to save power and is no finding.
#include <nlohmann/json.hpp>

#include <string>

namespace gpubench {

// For a `pcie/...` figure of one GPU (gpuN) or of all GPUs (all_gpus): "PCIe link x8 of x16" for each such GPU whose
// `environment.gpus[].pcie` recorded `current_width` below `max_width` ("gpu0 PCIe link x8 of x16, gpu1 ..." for
// all_gpus). Empty for other figures, links at their maximum, or a width not recorded.
std::string narrowed_link(const nlohmann::json& environment, const std::string& metric_id);

// Whether every GPU the `pcie/...` figure crossed has its link recorded at its maximum width; false where a width
// is not recorded.
bool recorded_at_full_width(const nlohmann::json& environment, const std::string& metric_id);

}  // namespace gpubench
