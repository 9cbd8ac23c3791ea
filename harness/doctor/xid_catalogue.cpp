#include "harness/doctor/xid_catalogue.hpp"

#include <algorithm>
#include <iterator>

namespace gpubench {
namespace {

// The steps the fixes share, as literals so that the table below stays a constant.
#define DRAIN_AND_DIAGNOSE "drain the GPU and run NVIDIA's field diagnostic (`dcgmi diag -r 3`)"
#define RETURN_IF_RECURS "return the GPU (RMA) if it recurs"
#define PROGRAM_FIRST(cause)                                                                                       \
  "usually the program's own fault, " cause ": restart it, and find the cause with compute-sanitizer; if different " \
  "programs hit it on this GPU only, " DRAIN_AND_DIAGNOSE

// Sorted by code. The rows read alike on purpose: each is one entry of NVIDIA's catalogue with its own fix.
const XidKind kCatalogue[] = {
    {8, "GPU stopped processing (a channel timed out)", Severity::Warning,
     "restart the program; if it recurs on this GPU with different programs, " DRAIN_AND_DIAGNOSE},
    {13, "Graphics Engine Exception", Severity::Warning,
     PROGRAM_FIRST("most often an out-of-range access or an illegal instruction in a kernel")},
    {31, "GPU memory page fault", Severity::Warning,
     PROGRAM_FIRST("most often an illegal address in a kernel or a freed buffer still in use")},
    {32, "Invalid or corrupted push buffer stream", Severity::Warning,
     "the driver found the GPU's command stream corrupted, most often by PCIe errors or host memory faults: check the "
     "PCIe AER and replay findings and the host's memory (EDAC) errors; if it recurs, " DRAIN_AND_DIAGNOSE},
    {43, "GPU stopped processing (a program's channel was reset after its own fault)", Severity::Warning,
     "the GPU stays usable: restart the program; if different programs hit it on this GPU, " DRAIN_AND_DIAGNOSE},
    {45, "Preemptive cleanup, due to previous errors", Severity::Info,
     "follows another Xid, or a program stopped while it used the GPU: act on the Xid before it; alone it needs nothing"},
    {48, "Double Bit ECC Error", Severity::Critical,
     "an uncorrectable memory error: drain the GPU and reset it (`nvidia-smi -r`, or reboot) so that the faulty row is "
     "remapped (a page retired before Ampere); `nvidia-smi -q -d ECC,ROW_REMAPPER,PAGE_RETIREMENT` shows the counts; " RETURN_IF_RECURS},
    {61, "Internal micro-controller breakpoint/warning", Severity::Critical,
     "the GPU's internal micro-controller stopped at a breakpoint: drain and reset the GPU or reboot, update the driver; "
     "if it recurs, collect `nvidia-bug-report.sh` for NVIDIA support"},
    {62, "Internal micro-controller halt", Severity::Critical,
     "the GPU's internal micro-controller halted: drain and reset the GPU or reboot, update the driver; if it recurs, "
     "collect `nvidia-bug-report.sh` for NVIDIA support and " RETURN_IF_RECURS},
    {63, "ECC page retirement or row remapping recording event", Severity::Warning,
     "a faulty memory row was marked for remapping (a page for retirement before Ampere); it takes effect at the next "
     "GPU reset: drain and reset the GPU when convenient; the memory.row_remap finding says whether it is pending"},
    {64, "ECC page retirement or row remapper recording failure", Severity::Critical,
     "a faulty memory row could not be remapped (no spare row left, or the record failed): drain the GPU, reset it, and "
     "return it (RMA) if `nvidia-smi -q -d ROW_REMAPPER` still shows a remap failure"},
    {68, "NVDEC0 Exception (video decoder)", Severity::Warning,
     "the video decoder failed, most often on the program's input: restart the program; if it recurs on this GPU only, " DRAIN_AND_DIAGNOSE},
    {69, "Graphics Engine class error", Severity::Warning,
     "the graphics engine was given a command it does not accept, from the program or the driver: restart the program "
     "and update the driver; if it recurs, " DRAIN_AND_DIAGNOSE},
    {74, "NVLink Error", Severity::Critical,
     "an NVLink failed: drain the GPU; `nvidia-smi nvlink -s` and `nvidia-smi nvlink -e` show the links and their "
     "errors; reset the GPUs or reboot to retrain the links (on NVSwitch systems check nvidia-fabricmanager), and "
     "return the GPU or baseboard if the same link fails again"},
    {79, "GPU has fallen off the bus", Severity::Critical,
     "the GPU stopped answering on PCIe: drain the node and power-cycle it (a warm reboot is often not enough); check "
     "the PCIe AER findings, the GPU's seating and power cables, and the BMC's event log for power and temperature "
     "events; " RETURN_IF_RECURS},
    {92, "High single-bit ECC error rate", Severity::Warning,
     "correctable memory errors come fast: watch the ECC counts and remapped rows (`nvidia-smi -q -d ECC,ROW_REMAPPER`); "
     DRAIN_AND_DIAGNOSE " and plan a return if the rate stays high"},
    {94, "Contained ECC error", Severity::Warning,
     "an uncorrectable memory error was contained: only the programs using that memory were stopped; restart them, and "
     "reset the GPU when convenient so that the row is remapped; " RETURN_IF_RECURS},
    {95, "Uncontained ECC error", Severity::Critical,
     "an uncorrectable memory error could not be contained and every program on the GPU was stopped: drain the GPU and "
     "reset it before further use (the row is remapped then); " RETURN_IF_RECURS},
    {109, "Context Switch Timeout Error", Severity::Warning,
     "the GPU did not switch between programs in time, often a kernel that runs very long or hangs: restart the "
     "program; if it recurs with different programs, " DRAIN_AND_DIAGNOSE},
    {119, "GSP RPC Timeout", Severity::Critical,
     "the GPU System Processor (GSP firmware) stopped answering the driver: drain and reset the GPU or reboot, and "
     "update the driver; if it recurs, collect `nvidia-bug-report.sh` for NVIDIA support"},
    {120, "GSP Error", Severity::Critical,
     "the GPU System Processor (GSP firmware) reported an error: drain and reset the GPU or reboot, and update the "
     "driver; if it recurs, collect `nvidia-bug-report.sh` for NVIDIA support"},
    {121, "C2C Link corrected error", Severity::Warning,
     "the NVLink-C2C link between the Grace CPU and the GPU corrected errors and kept working: watch whether they "
     "recur, and contact NVIDIA support if they grow"},
    {122, "SPI PMU RPC read failure", Severity::Warning,
     "reading the GPU's firmware flash (SPI) failed: reset the GPU; if it recurs, update the VBIOS or contact NVIDIA support"},
    {123, "SPI PMU RPC write failure", Severity::Critical,
     "writing the GPU's firmware flash (SPI) failed: drain and reset the GPU; if it recurs, contact NVIDIA support and "
     RETURN_IF_RECURS},
    {140, "Unrecovered ECC Error", Severity::Critical,
     "the GPU could not recover from memory errors: drain the GPU and reset it before further use; " RETURN_IF_RECURS},
    {143, "GPU Initialization Failure", Severity::Critical,
     "the driver could not initialise the GPU: read the driver's messages just before it in the kernel log, check the "
     "GPU's power and seating, update the driver and VBIOS, and reboot; " RETURN_IF_RECURS},
    {154, "GPU Recovery Action Changed", Severity::Critical,
     "the driver says what the GPU needs now, in the message (GPU reset, node reboot, drain): do that; "
     "`nvidia-smi -q` shows the pending action as well"},
};

}  // namespace

const char* const kUnknownXidFix =
    "look the code up in NVIDIA's Xid catalogue (docs.nvidia.com/deploy/xid-errors); if it recurs, " DRAIN_AND_DIAGNOSE;

const XidKind* find_xid_kind(int code) {
  const auto found = std::lower_bound(std::begin(kCatalogue), std::end(kCatalogue), code,
                                      [](const XidKind& kind, int wanted) { return kind.code < wanted; });
  return found != std::end(kCatalogue) && found->code == code ? found : nullptr;
}

}  // namespace gpubench
