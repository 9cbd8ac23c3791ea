#include "harness/results/clock_events.hpp"

#include <nvml.h>

#include <algorithm>
#include <iterator>
#include <stdexcept>

namespace gpubench {
namespace {

struct Reason {
  std::uint64_t bit;
  const char* name;
  bool throttles;
};

constexpr Reason kReasons[] = {
    {nvmlClocksEventReasonGpuIdle, "gpu_idle", false},
    {nvmlClocksEventReasonApplicationsClocksSetting, "applications_clocks_setting", false},
    {nvmlClocksEventReasonSwPowerCap, "sw_power_cap", true},
    {nvmlClocksThrottleReasonHwSlowdown, "hw_slowdown", true},
    {nvmlClocksEventReasonSyncBoost, "sync_boost", false},
    {nvmlClocksEventReasonSwThermalSlowdown, "sw_thermal_slowdown", true},
    {nvmlClocksThrottleReasonHwThermalSlowdown, "hw_thermal_slowdown", true},
    {nvmlClocksThrottleReasonHwPowerBrakeSlowdown, "hw_power_brake_slowdown", true},
    {nvmlClocksEventReasonDisplayClockSetting, "display_clock_setting", false},
};

}  // namespace

std::vector<std::string> clock_event_names(std::uint64_t reasons) {
  std::vector<std::string> names;
  std::uint64_t known = 0;
  for (const Reason& reason : kReasons) {
    known |= reason.bit;
    if (reasons & reason.bit) names.emplace_back(reason.name);
  }
  if (reasons & ~known) names.push_back("other");
  return names;
}

std::uint64_t clock_event_bits(const std::vector<std::string>& names) {
  std::uint64_t bits = 0;
  for (const std::string& name : names) {
    const Reason* reason = std::find_if(std::begin(kReasons), std::end(kReasons), [&](const Reason& r) { return name == r.name; });
    if (reason != std::end(kReasons)) {
      bits |= reason->bit;
    } else if (name == "other") {
      bits |= std::uint64_t{1} << 63;  // no reason NVML defines
    } else {
      throw std::invalid_argument("'" + name + "' is not a clock-event reason gpubench writes");
    }
  }
  return bits;
}

bool is_throttling(std::uint64_t reasons) {
  for (const Reason& reason : kReasons) {
    if (reason.throttles && (reasons & reason.bit)) return true;
  }
  return false;
}

bool at_power_cap(std::uint64_t reasons) { return (reasons & nvmlClocksEventReasonSwPowerCap) != 0; }

bool is_slowdown(std::uint64_t reasons) {
  return is_throttling(reasons & ~static_cast<std::uint64_t>(nvmlClocksEventReasonSwPowerCap));
}

}  // namespace gpubench
