// NVLink error counters that rose while acceptance loaded every link: what the since-boot rule (link_rules.cpp)
// cannot tell, whether the errors come now, under traffic and heat.
#include <string>

#include "harness/doctor/rule_support.hpp"

namespace gpubench {
namespace {

const NvLinkFacts* same_link(const std::vector<NvLinkFacts>& links, unsigned link) {
  for (const NvLinkFacts& l : links) {
    if (l.link == link) return &l;
  }
  return nullptr;
}

void add(std::string& list, unsigned link, const std::string& what) {
  list += (list.empty() ? "" : ", ") + ("link " + std::to_string(link) + ": " + what);
}

void judge_link_growth(const GpuFacts& earlier, const GpuFacts& gpu, GpuCheck& check, double load_seconds,
                       const HealthLimits& limits) {
  if (!earlier.nvlinks.value || !gpu.nvlinks.value) return check.skip();
  std::string went_down, recovered, replayed, crc_fast, crc_seen;
  bool any_active = false;
  for (const NvLinkFacts& before : *earlier.nvlinks.value) {
    if (!before.active) continue;
    any_active = true;
    const NvLinkFacts* after = same_link(*gpu.nvlinks.value, before.link);
    if (after == nullptr || !after->active) {
      add(went_down, before.link, "active before, not after");
      continue;
    }
    if (!before.errors.value || !after->errors.value) continue;
    const NvLinkCounters& b = *before.errors.value;
    const NvLinkCounters& a = *after->errors.value;
    const auto grew = [](const std::optional<std::uint64_t>& x, const std::optional<std::uint64_t>& y) {
      return x && y ? rise(*x, *y) : std::uint64_t{0};
    };
    if (const std::uint64_t n = grew(b.recovery, a.recovery)) add(recovered, before.link, std::to_string(n));
    if (const std::uint64_t n = grew(b.replay, a.replay)) add(replayed, before.link, std::to_string(n));
    const std::uint64_t crc = grew(b.crc_flit, a.crc_flit) + grew(b.crc_data, a.crc_data);
    if (crc == 0) continue;
    if (load_seconds > 0 && static_cast<double>(crc) / load_seconds >= limits.nvlink_crc_errors_per_second) {
      add(crc_fast, before.link, std::to_string(crc));
    } else {
      add(crc_seen, before.link, std::to_string(crc));
    }
  }
  if (!any_active) return check.skip();
  const std::string during = " during the run (" + std::to_string(static_cast<long long>(load_seconds)) + " s of load)";
  const std::string counters = "`nvidia-smi nvlink -e -i " + gpu.pci_bus_id + "` shows the counters";
  if (!went_down.empty()) {
    check.flag(Severity::Critical, "NVLinks went down" + during + " (" + went_down + ")",
               "drain the GPU; `nvidia-smi nvlink -s -i " + gpu.pci_bus_id + "` shows the links; run NVIDIA's field diagnostic");
  }
  if (!recovered.empty()) {
    check.flag(Severity::Critical, "NVLink recovery errors" + during + " (" + recovered + "): links retrained under load",
               "drain the GPU and run NVIDIA's field diagnostic; " + counters + "; errors that recur on a link point to the GPU or baseboard (RMA)");
  }
  if (!replayed.empty()) {
    check.flag(Severity::Warning, "NVLink replay errors" + during + " (" + replayed + "): data was sent again under load",
               counters + "; run acceptance again to see whether they keep coming");
  }
  if (!crc_fast.empty()) {
    check.flag(Severity::Warning, "NVLink CRC errors" + during + " (" + crc_fast + "), " +
                                      std::to_string(static_cast<long long>(limits.nvlink_crc_errors_per_second)) +
                                      "/s or more: a marginal link under load",
               counters + "; run acceptance again to see whether they keep coming");
  }
  if (!crc_seen.empty() && recovered.empty() && replayed.empty() && crc_fast.empty()) {
    check.flag(Severity::Info, "NVLink CRC errors" + during + " (" + crc_seen + "), with no replay or recovery: within what links absorb", "");
  }
}

}  // namespace

std::vector<Finding> judge_nvlink_error_growth(const NodeFacts& before, const NodeFacts& after, double load_seconds,
                                               const HealthLimits& limits) {
  std::vector<Finding> findings;
  check_each_gpu(after, "nvlink.errors_during_run", "no NVLink error counter rose during the run", [&](const GpuFacts& gpu, GpuCheck& check) {
    const GpuFacts* earlier = same_gpu(before, gpu.index);
    if (earlier == nullptr) return check.skip();
    judge_link_growth(*earlier, gpu, check, load_seconds, limits);
  }, findings);
  return findings;
}

}  // namespace gpubench
