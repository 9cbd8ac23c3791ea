#pragma once
// Every NCCL call is checked; a failure becomes an exception that names the call, NCCL's error and its last
// warning (the why: "no algorithm/protocol available ..."), and the line.
#include <nccl.h>

#include <stdexcept>
#include <string>

namespace gpubench {

class NcclError : public std::runtime_error {
 public:
  NcclError(const char* call, ncclResult_t status, ncclComm_t comm, const char* file, int line)
      : std::runtime_error(std::string(call) + " failed: " + ncclGetErrorString(status) + last_warning(comm) + " at " +
                           file + ":" + std::to_string(line)),
        status_(status) {}

  ncclResult_t status() const { return status_; }

  // NCCL refused what it was asked, as it does for an algorithm/protocol combination it does not offer on this
  // machine or an NCCL_ALGO/NCCL_PROTO value it does not accept: the benchmark cannot run here (a skip), which
  // is not a failure of the GPUs.
  bool refused() const { return status_ == ncclInvalidUsage; }

 private:
  static std::string last_warning(ncclComm_t comm) {
    const char* text = ncclGetLastError(comm);
    return text != nullptr && *text != '\0' ? std::string("; NCCL: ") + text : std::string();
  }

  ncclResult_t status_;
};

}  // namespace gpubench

// `comm` is the communicator the call concerns, or nullptr (initialisation, group calls).
#define GPUBENCH_NCCL_CHECK(call, comm)                                                \
  do {                                                                                 \
    const ncclResult_t gpubench_nccl_status_ = (call);                                 \
    if (gpubench_nccl_status_ != ncclSuccess) {                                        \
      throw ::gpubench::NcclError(#call, gpubench_nccl_status_, (comm), __FILE__, __LINE__); \
    }                                                                                  \
  } while (false)
