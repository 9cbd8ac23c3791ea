// Per-GPU state: persistence mode, the PCIe link, clock-event (throttle) reasons, temperature, power limit
// and other processes on the GPU.
#include <nvml.h>

#include "harness/doctor/rule_support.hpp"

namespace gpubench {
namespace {

std::string link_text(unsigned generation, unsigned width) {
  return "gen " + std::to_string(generation) + " x" + std::to_string(width);
}

void judge_persistence(const GpuFacts& gpu, GpuCheck& check) {
  if (!gpu.persistence_mode.value) return check.cannot_check("persistence mode", gpu.persistence_mode.why_not);
  if (*gpu.persistence_mode.value) return;
  check.flag(Severity::Warning,
             "persistence mode is off: the driver tears the GPU down whenever no process uses it, so each program "
             "start pays the initialisation again and the first measurements run on a GPU still waking up",
             "run the persistence daemon (systemctl enable --now nvidia-persistenced), or as root `nvidia-smi -i " +
                 gpu.pci_bus_id + " -pm 1`; doctor itself changes nothing");
}

void judge_pcie_link(const GpuFacts& gpu, GpuCheck& check) {
  if (!gpu.pcie.value) return check.cannot_check("the PCIe link", gpu.pcie.why_not);
  const PcieLink& rest = *gpu.pcie.value;
  if (rest.max_generation == 0 || rest.max_width == 0) return check.cannot_check("the PCIe link", "no maximum generation or width reported");
  const std::string max = link_text(rest.max_generation, rest.max_width);
  const std::string fix = "reseat the GPU and its riser or cables, check the slot's link-speed and bifurcation settings in the "
                          "BIOS, and look for PCIe (AER) errors in `dmesg`; `lspci -vv -s " + gpu.pci_bus_id +
                          "` shows LnkCap (possible) against LnkSta (trained)";
  if (gpu.pcie_under_load.value) {
    const PcieLink& busy = *gpu.pcie_under_load.value;
    if (busy.current_generation >= rest.max_generation && busy.current_width >= rest.max_width) return;
    check.flag(Severity::Warning,
               "PCIe link runs at " + link_text(busy.current_generation, busy.current_width) + " while copying to the GPU, below its maximum " +
                   max + ": host-device copies are slower than the slot allows",
               fix);
    return;
  }
  const bool slow = rest.current_generation < rest.max_generation;
  const bool narrow = rest.current_width < rest.max_width;
  if (!slow && !narrow) return;
  const std::string found = "PCIe link at " + link_text(rest.current_generation, rest.current_width) + ", below its maximum " + max;
  const bool idle_known = gpu.clock_event_reasons.value.has_value();
  const bool idle = idle_known && (*gpu.clock_event_reasons.value & nvmlClocksEventReasonGpuIdle) != 0;
  const std::string not_loaded = gpu.pcie_under_load.why_not.empty() ? "" : " (doctor could not read it under load: " + gpu.pcie_under_load.why_not + ")";
  if (narrow) {
    check.flag(Severity::Warning, found + ": fewer lanes than the slot offers" + not_loaded, fix);
  } else if (idle) {
    // An idle GPU lowers its link generation to save power; only a reading under load tells a fault apart.
    check.flag(Severity::Info,
               found + " while the GPU is idle; idle GPUs lower the link generation to save power" + not_loaded,
               "re-check under load: `nvidia-smi -i " + gpu.pci_bus_id +
                   " --query-gpu=pcie.link.gen.current,pcie.link.gen.max,pcie.link.width.current,pcie.link.width.max --format=csv` "
                   "while a copy runs (e.g. `gpubench run --filter pcie`)");
  } else {
    const std::string state = idle_known ? " while the GPU is busy" : "; an idle GPU lowers its generation to save power, so re-check it under load";
    check.flag(Severity::Warning, found + state + not_loaded, fix);
  }
}

void judge_clock_events(const GpuFacts& gpu, GpuCheck& check) {
  if (!gpu.clock_event_reasons.value) return check.cannot_check("clock-event (throttle) reasons", gpu.clock_event_reasons.why_not);
  const std::uint64_t reasons = *gpu.clock_event_reasons.value;
  const std::string watch = "watch the reasons change with `nvidia-smi -q -d PERFORMANCE -i " + gpu.pci_bus_id + "`";
  if (reasons & nvmlClocksThrottleReasonHwThermalSlowdown) {
    check.flag(Severity::Critical, "hardware thermal slowdown is active: the GPU cut its clocks by half or more because it is too hot",
               "check the cooling: fans, airflow, inlet temperature, blocked filters or heat sinks (the BMC's sensor log names the hot part); " + watch);
  }
  if (reasons & nvmlClocksThrottleReasonHwPowerBrakeSlowdown) {
    check.flag(Severity::Critical, "hardware power-brake slowdown is active: the system asserted the power brake, cutting clocks by half or more",
               "check the power supplies and their redundancy, and the BMC's event log for power events; " + watch);
  }
  // HW slowdown is also set by the two above; alone it means a power-draw spike or an unnamed hardware cause.
  if ((reasons & nvmlClocksThrottleReasonHwSlowdown) &&
      !(reasons & (nvmlClocksThrottleReasonHwThermalSlowdown | nvmlClocksThrottleReasonHwPowerBrakeSlowdown))) {
    check.flag(Severity::Critical, "hardware slowdown is active: clocks cut by half or more (temperature, power brake or a power-draw spike)",
               "check the BMC's event log, the cooling and the power supplies; " + watch);
  }
  if (reasons & nvmlClocksEventReasonSwThermalSlowdown) {
    check.flag(Severity::Warning, "software thermal slowdown is active: the driver lowers clocks to keep the GPU or its memory below their maximum temperature",
               "improve the cooling; `nvidia-smi -q -d TEMPERATURE -i " + gpu.pci_bus_id + "` shows the temperatures against their limits");
  }
  if ((reasons & nvmlClocksEventReasonSwPowerCap) && (reasons & nvmlClocksEventReasonGpuIdle)) {
    check.flag(Severity::Warning, "software power cap is active while the GPU is idle: an idle GPU should draw far below its power limit",
               "compare the power draw with the limit (`nvidia-smi -q -d POWER -i " + gpu.pci_bus_id + "`): a limit set far too low, or a "
               "power reading stuck high, shows this");
  }
}

void judge_temperature(const GpuFacts& gpu, GpuCheck& check, const HealthLimits& limits) {
  if (!gpu.temperature_c.value) return check.cannot_check("the temperature", gpu.temperature_c.why_not);
  if (!gpu.slowdown_temperature_c.value) return check.cannot_check("the slowdown temperature", gpu.slowdown_temperature_c.why_not);
  const unsigned now = *gpu.temperature_c.value;
  const unsigned slowdown = *gpu.slowdown_temperature_c.value;
  const std::string found = std::to_string(now) + " °C against a slowdown temperature of " + std::to_string(slowdown) + " °C";
  const std::string fix = "check the cooling: fans, airflow, inlet temperature, blocked filters; compare with the other GPUs of the node";
  if (now >= slowdown) {
    check.flag(Severity::Critical, found + ": the GPU slows itself down to cool off", fix);
  } else if (now + limits.temperature_margin_c >= slowdown) {
    check.flag(Severity::Warning, found + ": within " + std::to_string(limits.temperature_margin_c) + " °C of slowing down", fix);
  }
}

void judge_power_limit(const GpuFacts& gpu, GpuCheck& check) {
  if (!gpu.power_limit_mw.value || !gpu.default_power_limit_mw.value) {
    return check.cannot_check("the power limit", gpu.power_limit_mw.why_not.empty() ? gpu.default_power_limit_mw.why_not : gpu.power_limit_mw.why_not);
  }
  const unsigned limit = *gpu.power_limit_mw.value;
  const unsigned board_default = *gpu.default_power_limit_mw.value;
  if (limit >= board_default) return;
  check.flag(Severity::Warning,
             "power limit " + std::to_string(limit / 1000) + " W, below the board's default of " + std::to_string(board_default / 1000) +
                 " W: compute-bound work runs slower than on a GPU at its default",
             "if not intended, restore it as root with `nvidia-smi -i " + gpu.pci_bus_id + " -pl " + std::to_string(board_default / 1000) +
                 "` (a node-level power cap in the BMC can also lower it); doctor itself changes nothing");
}

void judge_other_processes(const GpuFacts& gpu, GpuCheck& check) {
  if (!gpu.other_processes.value) return check.cannot_check("the processes on the GPU", gpu.other_processes.why_not);
  const std::vector<GpuProcess>& processes = *gpu.other_processes.value;
  if (processes.empty()) return;
  std::string list;
  for (const GpuProcess& p : processes) {
    list += (list.empty() ? "" : ", ") + std::string("pid ") + std::to_string(p.pid);
    std::string details = p.name;
    if (p.used_memory_bytes) details += (details.empty() ? "" : ", ") + format_bytes(*p.used_memory_bytes);
    if (!details.empty()) list += " (" + details + ")";
  }
  check.flag(Severity::Warning,
             std::to_string(processes.size()) + (processes.size() == 1 ? " other process uses" : " other processes use") +
                 " this GPU: " + list + "; benchmarks would share the GPU with them and measure less",
             "wait for them or stop them (`nvidia-smi --query-compute-apps=pid,process_name,used_memory --format=csv`), or pick idle GPUs with --devices");
}

}  // namespace

// One check_each_gpu a check, alike on purpose (as in memory_rules.cpp): name, passing text and judge side by side.
void judge_gpu_state(const NodeFacts& facts, const HealthLimits& limits, std::vector<Finding>& out) {
  check_each_gpu(facts, "persistence.disabled", "persistence mode on", judge_persistence, out);
  check_each_gpu(facts, "pcie.link_below_max", "PCIe link at its maximum generation and width", judge_pcie_link, out);
  check_each_gpu(facts, "clocks.throttling", "no thermal, power-brake or hardware slowdown", judge_clock_events, out);
  check_each_gpu(facts, "temperature.near_slowdown",
                 "more than " + std::to_string(limits.temperature_margin_c) + " °C below the slowdown temperature",
                 [&limits](const GpuFacts& gpu, GpuCheck& check) { judge_temperature(gpu, check, limits); }, out);
  check_each_gpu(facts, "power.limit_below_default", "power limit at the board's default", judge_power_limit, out);
  check_each_gpu(facts, "processes.other", "no other compute process", judge_other_processes, out);
}

}  // namespace gpubench
