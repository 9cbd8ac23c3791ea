// A metric's clock-event reasons survive the results document being written back (as `check --confirm` writes it),
// so that its `throttled` agrees with them: the recorded run under a competing GEMM, rewritten by check --confirm
// before the reasons were read back, says "throttled": true with no reason.
#include <gtest/gtest.h>

#include <stdexcept>

#include "harness/results/clock_events.hpp"
#include "harness/results/input_error.hpp"
#include "harness/results/results_io.hpp"

namespace gpubench {
namespace {

TEST(MetricTelemetry, ReasonsReadBackAsWrittenAndThrottledAgrees) {
  ResultsDocument run = read_results_file(std::string(GPUBENCH_TEST_DATA) + "/results_h200x1_memory_only.json");
  Metric& m = run.metrics.front();
  m.clock_event_reasons = clock_event_bits({"sw_power_cap", "hw_slowdown"});
  m.throttled = is_throttling(m.clock_event_reasons);
  for (int rewrite = 0; rewrite < 2; ++rewrite) run = results_from_json(to_json(run), "rewritten.json");
  const Metric& back = run.metrics.front();
  EXPECT_EQ(clock_event_names(back.clock_event_reasons), (std::vector<std::string>{"sw_power_cap", "hw_slowdown"}));
  EXPECT_EQ(back.throttled, is_throttling(back.clock_event_reasons));
  EXPECT_TRUE(at_power_cap(back.clock_event_reasons));
}

TEST(MetricTelemetry, AnUnknownReasonReadsBackAsOtherAndANameNotWrittenIsRefused) {
  EXPECT_EQ(clock_event_names(clock_event_bits({"other"})), std::vector<std::string>{"other"});
  EXPECT_THROW(clock_event_bits({"too_hot"}), std::invalid_argument);
  nlohmann::json document = to_json(read_results_file(std::string(GPUBENCH_TEST_DATA) + "/results_h200x1_memory_only.json"));
  document["metrics"][0]["telemetry"]["clock_event_reasons"] = {"too_hot"};
  EXPECT_THROW(results_from_json(document, "edited.json"), InputError);
}

}  // namespace
}  // namespace gpubench
