#pragma once
// Makes NCCL say which algorithm and protocol it used, and reads what it said. NCCL only reports its choice in
// its debug output, so before the process's first NCCL call, and only where the operator set none of them:
//   NCCL_DEBUG=INFO  NCCL_DEBUG_SUBSYS=TUNING  NCCL_DEBUG_FILE=<a file of this process's own under TMPDIR>
// Where the operator set NCCL_DEBUG, their settings stand: the file they named (if any) is read, never emptied
// or removed, and the choice may then be unknown.
#include <cstdint>
#include <string>

namespace gpubench {

class NcclDebugLog {
 public:
  // Sets the variables above where NCCL_DEBUG is unset. Call before any NCCL call in the process: NCCL reads
  // them once.
  static NcclDebugLog configure_environment();

  NcclDebugLog() = default;  // reads nothing
  ~NcclDebugLog();           // removes the file it chose
  NcclDebugLog(NcclDebugLog&& other) noexcept;
  NcclDebugLog& operator=(NcclDebugLog&& other) noexcept;
  NcclDebugLog(const NcclDebugLog&) = delete;
  NcclDebugLog& operator=(const NcclDebugLog&) = delete;

  // What NCCL wrote since the last take or skip ("" when its output goes where it cannot be read).
  std::string take_new_text();
  // Forgets what NCCL wrote since the last take or skip. NCCL writes a line per call (hundreds of MB over a full
  // sweep), so a file of this process's own is emptied here; NCCL goes on writing at its offset, which leaves
  // the file sparse rather than long.
  void skip_new_text();


 private:
  NcclDebugLog(std::string path, bool owned) : path_(std::move(path)), owned_(owned) {}
  void release_owned_space();

  std::string path_;      // "" when NCCL's debug output is not in a file
  bool owned_ = false;    // the file was chosen here: emptied as it is read, removed at the end
  std::uint64_t read_offset_ = 0;
};

}  // namespace gpubench
