#pragma once
// The arithmetic of the overlap family, apart from the GPU: the four arrangements of the same work (a kernel and
// a pair of copies), how much of the shorter part running both at once hides, and the bytes the copies move.
#include <algorithm>
#include <cstddef>

namespace gpubench {

// Seconds of each arrangement, for one iteration or summed over several.
struct OverlapTimes {
  double compute_alone = 0;  // the kernel on its stream, nothing else running
  double copies_alone = 0;   // the H2D copy then the D2H copy on their stream, nothing else running
  double serial = 0;         // the kernel then the copies, on one stream
  double concurrent = 0;     // the kernel on one stream and the copies on another, started together

  OverlapTimes& operator+=(const OverlapTimes& other) {
    compute_alone += other.compute_alone;
    copies_alone += other.copies_alone;
    serial += other.serial;
    concurrent += other.concurrent;
    return *this;
  }
  double sum() const { return compute_alone + copies_alone + serial + concurrent; }
};

// The share of the shorter part (compute or copies, each timed alone) that running them together hid, in
// percent: (serial - concurrent) / min(compute alone, copies alone). 100 when the concurrent run took no longer
// than the longer part alone (the copies were hidden entirely, or the kernel was), 0 when it took as long as
// the serial one. A concurrent run slower than the serial one (the parts slowed each other down) counts as 0:
// every figure is >= 0; the times themselves are reported beside it. Timing noise can put it slightly over 100.
inline double overlap_efficiency_percent(const OverlapTimes& times) {
  const double shorter = std::min(times.compute_alone, times.copies_alone);
  if (shorter <= 0) return 0;
  return std::max(0.0, 100.0 * (times.serial - times.concurrent) / shorter);
}

// Bytes one arrangement moves over the link: `copy_bytes` host to device and as many back.
inline double overlap_copy_bytes(std::size_t copy_bytes) { return 2.0 * static_cast<double>(copy_bytes); }

}  // namespace gpubench
