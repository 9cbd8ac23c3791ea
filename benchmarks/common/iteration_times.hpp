#pragma once
// The time of each timed iteration, for figures whose iterations are heavy-tailed host-side costs (launch
// calls, host synchronisation, pageable copies the driver stages on this thread): an interrupt or a context
// switch on the host lands in one iteration now and then and drags the mean with it, so the figure is the
// median iteration, which a process reproduces from run to run.
#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace gpubench {

class IterationTimes {
 public:
  void add(double seconds) { seconds_.push_back(seconds); }
  std::size_t count() const { return seconds_.size(); }

  double median_seconds() const {
    if (seconds_.empty()) throw std::logic_error("the median of no iterations");
    std::vector<double> sorted = seconds_;
    std::sort(sorted.begin(), sorted.end());
    const std::size_t mid = sorted.size() / 2;
    return sorted.size() % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
  }

  // For the figure's params: "median of 412 iterations".
  std::string statistic() const { return "median of " + std::to_string(count()) + " iterations"; }

 private:
  std::vector<double> seconds_;
};

}  // namespace gpubench
