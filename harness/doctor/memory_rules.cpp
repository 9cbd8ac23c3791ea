// GPU memory health: ECC mode and error counts, row remapping (Ampere and later) and page retirement (before).
#include "harness/doctor/rule_support.hpp"

namespace gpubench {
namespace {

bool ecc_known_off(const GpuFacts& gpu) { return gpu.ecc_mode.value && !gpu.ecc_mode.value->enabled; }

std::string ecc_report_command(const GpuFacts& gpu) {
  return "`nvidia-smi -q -d ECC,ROW_REMAPPER,PAGE_RETIREMENT -i " + gpu.pci_bus_id + "`";
}

void judge_ecc_mode(const GpuFacts& gpu, GpuCheck& check) {
  if (!gpu.ecc_mode.value) return check.cannot_check("the ECC mode", gpu.ecc_mode.why_not);
  const EccMode& mode = *gpu.ecc_mode.value;
  if (mode.enabled) return;
  if (mode.enabled_after_reset) {
    check.flag(Severity::Warning, "ECC is off until the next GPU reset or reboot (it is set to turn on then): memory errors go undetected meanwhile",
               "reset the GPU (`nvidia-smi -r -i " + gpu.pci_bus_id + "` once no process uses it) or reboot");
    return;
  }
  check.flag(Severity::Warning, "ECC is off: memory errors go undetected and can silently corrupt results",
             "as root `nvidia-smi -i " + gpu.pci_bus_id + " -e 1`, then reset the GPU or reboot; doctor itself changes nothing");
}

void judge_uncorrectable(const GpuFacts& gpu, GpuCheck& check) {
  if (ecc_known_off(gpu)) return check.skip();
  const Reading<std::uint64_t>& since_load = gpu.ecc_volatile_uncorrected;
  const Reading<std::uint64_t>& lifetime = gpu.ecc_aggregate_uncorrected;
  if (!since_load.value && !lifetime.value) return check.cannot_check("the ECC error counts", since_load.why_not);
  const std::string fix = "drain the GPU; " + ecc_report_command(gpu) +
                          " and Xid errors in `dmesg` say what failed; reset the GPU so pending remaps take effect, and "
                          "return it (RMA) if errors come back or a remap failed";
  if (since_load.value && *since_load.value > 0) {
    check.flag(Severity::Critical,
               std::to_string(*since_load.value) + " uncorrectable ECC errors since the driver loaded" +
                   (lifetime.value ? " (" + std::to_string(*lifetime.value) + " over the GPU's life)" : "") +
                   ": data in GPU memory was lost; programs that hit it were stopped",
               fix);
  } else if (lifetime.value && *lifetime.value > 0) {
    // Counted before this driver load: memory repaired since (remapped rows, retired pages) works normally.
    check.flag(Severity::Warning,
               std::to_string(*lifetime.value) + " uncorrectable ECC errors over the GPU's life, none since the driver loaded",
               "make sure the memory was repaired (the row-remap and retired-page findings) and watch whether the count grows");
  }
}

void judge_correctable(const GpuFacts& gpu, GpuCheck& check, const HealthLimits& limits) {
  if (ecc_known_off(gpu)) return check.skip();
  const Reading<std::uint64_t>& since_load = gpu.ecc_volatile_corrected;
  if (!since_load.value) {
    // The uncorrectable check already said the counters cannot be read.
    if (!gpu.ecc_volatile_uncorrected.value && !gpu.ecc_aggregate_uncorrected.value) return check.skip();
    return check.cannot_check("the correctable ECC error count", since_load.why_not);
  }
  if (*since_load.value < limits.correctable_ecc_errors) return;
  check.flag(Severity::Warning,
             std::to_string(*since_load.value) + " correctable ECC errors since the driver loaded (threshold " +
                 std::to_string(limits.correctable_ecc_errors) + "): the memory is wearing or marginal",
             "watch whether the count keeps growing; " + ecc_report_command(gpu) + " shows remapped rows or retired pages, and "
             "NVIDIA's field diagnostic decides on a return");
}

void judge_row_remapping(const GpuFacts& gpu, GpuCheck& check) {
  if (!gpu.remapped_rows.value) {
    if (gpu.retired_pages.value) return check.skip();  // a GPU before Ampere: page retirement instead
    return check.cannot_check("row remapping or page retirement", gpu.remapped_rows.why_not + "; " + gpu.retired_pages.why_not);
  }
  const RemappedRows& rows = *gpu.remapped_rows.value;
  const std::string counts = std::to_string(rows.uncorrectable) + " rows remapped after uncorrectable errors, " +
                             std::to_string(rows.correctable) + " after correctable ones";
  if (rows.failed) {
    check.flag(Severity::Critical, "a row remap has failed: the memory has a fault it has no spare row left to repair (" + counts + ")",
               "drain the node and return the GPU (RMA); NVIDIA's field diagnostic confirms it");
  }
  if (rows.pending) {
    check.flag(Severity::Critical, "row remapping is pending: faulty memory rows are repaired only at the next GPU reset (" + counts + ")",
               "drain the GPU and reset it (`nvidia-smi -r -i " + gpu.pci_bus_id + "` once no process uses it) or reboot");
  }
  if (!rows.failed && !rows.pending && rows.uncorrectable + rows.correctable > 0) {
    check.flag(Severity::Info, counts + "; the repairs took effect", "nothing to do unless the count keeps growing");
  }
}

void judge_page_retirement(const GpuFacts& gpu, GpuCheck& check) {
  if (!gpu.retired_pages.value) return check.skip();  // Ampere and later remap rows; the check above covers both unreadable
  const RetiredPages& pages = *gpu.retired_pages.value;
  const std::string counts = std::to_string(pages.double_bit) + " pages retired after uncorrectable errors, " +
                             std::to_string(pages.single_bit) + " after repeated correctable ones";
  if (pages.pending) {
    check.flag(Severity::Critical, "page retirement is pending: faulty pages stay in use until the next GPU reset (" + counts + ")",
               "drain the GPU and reset it (`nvidia-smi -r -i " + gpu.pci_bus_id + "` once no process uses it) or reboot");
  } else if (pages.double_bit + pages.single_bit > 0) {
    check.flag(Severity::Info, counts, "nothing to do unless the count keeps growing");
  }
}

}  // namespace

// One check_each_gpu a check, alike on purpose (as in gpu_rules.cpp): name, passing text and judge side by side.
void judge_gpu_memory(const NodeFacts& facts, const HealthLimits& limits, std::vector<Finding>& out) {
  check_each_gpu(facts, "ecc.disabled", "ECC on", judge_ecc_mode, out);
  check_each_gpu(facts, "ecc.uncorrectable_errors", "no uncorrectable ECC errors", judge_uncorrectable, out);
  check_each_gpu(facts, "ecc.correctable_errors",
                 "fewer than " + std::to_string(limits.correctable_ecc_errors) + " correctable ECC errors since the driver loaded",
                 [&limits](const GpuFacts& gpu, GpuCheck& check) { judge_correctable(gpu, check, limits); }, out);
  check_each_gpu(facts, "memory.row_remap", "no pending or failed row remap", judge_row_remapping, out);
  check_each_gpu(facts, "memory.retired_pages", "no page retirement pending", judge_page_retirement, out);
}

}  // namespace gpubench
