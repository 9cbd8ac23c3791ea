#pragma once
// Reads the Xids the NVIDIA driver logged since boot from the first kernel log this process may read:
// /dev/kmsg (the kernel's ring buffer, read without waiting), then `journalctl -k -o short-monotonic`, then
// `dmesg`. The ring buffer holds only the newest messages: when it no longer reaches back to boot, the journal,
// which keeps them all, is preferred where it can be read.
#include "harness/doctor/node_facts.hpp"

namespace gpubench {

// why_not names every source tried and why each could not be read.
Reading<XidHistory> read_xid_history();

}  // namespace gpubench
