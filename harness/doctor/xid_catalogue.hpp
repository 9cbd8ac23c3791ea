#pragma once
// What doctor knows of each Xid the NVIDIA driver logs: NVIDIA's name for it, how bad it is for the GPU, and
// the fix to try. Names and actions follow NVIDIA's Xid documentation (docs.nvidia.com/deploy/xid-errors: the
// Xid catalogue for Ampere and newer, "Analyzing Xid Errors with the Xid Catalog", and the older Xid table) and
// its dynamic page retirement notes for 48, 63 and 64 (docs.nvidia.com/deploy/dynamic-page-retirement); the
// wording and the severities are gpubench's: critical where the GPU must be drained and reset, rebooted or
// returned; a warning where a program died or the cause may be the program's; info for what only follows others.
#include "harness/doctor/finding.hpp"

namespace gpubench {

struct XidKind {
  int code = 0;
  const char* name = "";  // NVIDIA's description
  Severity severity = Severity::Warning;  // for an Xid inside the window doctor looks at
  const char* fix = "";
};

// The catalogue's entry for `code`, or null for an Xid it does not know.
const XidKind* find_xid_kind(int code);

// For the Xids the catalogue does not know.
extern const char* const kUnknownXidFix;

}  // namespace gpubench
