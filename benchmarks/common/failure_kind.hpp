#pragma once
// What kind of failure a benchmark, a family or a stress run had: advice is chosen by kind, never from the
// reason's wording. gpubench-micro (and gpubench-mpi) set WrongResult to GateTimeout, reported in the label of the
// failed run (benchmarks/common/run_outcome.hpp); the harness sets the rest. Results documents keep the kind by
// its name ("wrong_result"); a document older than the field reads as Unknown.
#include <optional>
#include <string>

namespace gpubench {

enum class FailureKind {
  Unknown,            // a document or a gpubench-micro older than the kinds, or a failure nobody classified
  WrongResult,        // the benchmark's check of its own output found wrong data
  ApiError,           // CUDA, cuBLAS, NCCL or another call the benchmark made returned an error
  OutOfMemory,        // too little free device memory (another process holds it) or an allocation failed
  NoDevice,           // CUDA found no usable device or driver
  HardwareError,      // an uncorrectable ECC error or another fault of the GPU itself
  GateTimeout,        // a wait inside the benchmark (a copy or timing gate) gave up, so its timing is void
  ImplausibleResult,  // a figure no measurement gives (negative, far past the peak): a gpubench bug
  NoValue,            // the benchmark ended without a figure and without an error: a gpubench bug
  ChildTimeout,       // the family's gpubench-micro ran past its time limit and was stopped
  ChildCrashed,       // the family's gpubench-micro was ended by a signal
  ChildFailed,        // the family's gpubench-micro could not start or exited non-zero
  UnreadableOutput,   // the family's gpubench-micro wrote output that is not readable Google Benchmark JSON
  CatalogueMismatch,  // gpubench-micro lists no benchmark for a family of the catalogue: a gpubench bug
  StressFinding,      // `gpubench stress` found corruption, errors or a limit broken on a GPU
};

const char* to_string(FailureKind kind);
// The kind named by to_string, or nothing for any other text.
std::optional<FailureKind> parse_failure_kind(const std::string& text);

}  // namespace gpubench
