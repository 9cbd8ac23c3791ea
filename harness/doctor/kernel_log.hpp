#pragma once
// The Xids in a kernel log, in the two forms doctor reads it in: /dev/kmsg's records, and the
// "[seconds] message" lines of dmesg and of `journalctl -k -o short-monotonic`. Text in, events out, so that it
// can be tested on recorded logs; read_kernel_log reads the system.
#include <optional>
#include <string>
#include <vector>

#include "harness/doctor/node_facts.hpp"

namespace gpubench {

// A log that begins this soon after boot holds every message since: the kernel's first is at 0.000000.
constexpr double kLogFromBoot_s = 1.0;

enum class KernelLogFormat {
  // "6,1234,5678901,-;NVRM: Xid ...": priority, sequence number, microseconds since boot, flags; message.
  // Lines that begin with a space continue the record before (key=value pairs) and are skipped.
  Kmsg,
  // "[ 5678.901234] NVRM: Xid ..." (dmesg) or "[ 5678.901234] host kernel: NVRM: Xid ..." (journalctl);
  // lines without a time ("-- No entries --") are skipped.
  Monotonic,
};

struct ParsedKernelLog {
  std::optional<double> first_seconds;  // the time of the first line with one: where the log begins
  std::vector<XidEvent> xids;
};

ParsedKernelLog parse_kernel_log(const std::string& text, KernelLogFormat format);

// The Xid in one message, if it holds one: "NVRM: Xid (PCI:0000:18:00): 79, pid=1234, GPU has fallen off the
// bus." (older drivers leave out "PCI:").
std::optional<XidEvent> parse_xid_message(const std::string& message, double seconds_since_boot);

}  // namespace gpubench
