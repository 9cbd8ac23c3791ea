#pragma once
// Which algorithm and protocol NCCL says it used for a collective, read from its debug output
// (NCCL_DEBUG=INFO, NCCL_DEBUG_SUBSYS=TUNING). NCCL 2.19 and later print, on rank 0, one line per call; 2.28.9
// on two H200s printed:
//   vm:705:705 [0] NCCL INFO AllReduce: 1073741824 Bytes -> Algo RING proto SIMPLE channel{Lo..Hi}={0..23}
// (other releases write the names in mixed case: "Algo Ring proto Simple").
// Older releases printed the enum values instead of names, with or without the collective's name:
//   host:1234:1234 [0] NCCL INFO AllReduce: 1073741824 Bytes -> Algo 1 proto 2 time 2860.208008
// The format is not an interface NCCL promises, so the parser is lenient (any case, any prefix such as a
// timestamp, trailing fields ignored) and a line it cannot read is simply not an answer.
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "benchmarks/nccl/nccl_combination.hpp"

namespace gpubench {

// The choice reported by the last line of `text` about the collective NCCL calls `collective` ("AllReduce",
// "AllGather") of one of `sizes` bytes (lines about other collectives or sizes are ignored), in lower case
// ("ring", "simple"). Nullopt when no line says. Which size NCCL prints for a collective whose send and receive
// buffers differ (all-gather, reduce-scatter) has not been seen here, only all-reduce lines: pass both the larger
// buffer's bytes and the count's.
std::optional<NcclCombination> choice_from_debug_text(const std::string& text, const std::string& collective,
                                                      const std::vector<std::size_t>& sizes);

}  // namespace gpubench
