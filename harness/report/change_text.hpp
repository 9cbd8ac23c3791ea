#pragma once
// A verdict's change as a person reads it, the same in every format of check: "-40.0% worse", "+5.5% better",
// "0.0%" (by the metric's direction: a time that grew is worse, whatever its sign); "" where nothing was compared.
#include <string>

#include "harness/report/text_table.hpp"
#include "harness/verdict/metric_verdict.hpp"

namespace gpubench {

inline std::string change_text(const MetricVerdict& v) {
  if (!v.value || !v.expected) return "";
  const std::string percent = (v.change >= 0 ? "+" : "") + format_number(100 * v.change, 1) + "%";
  if (percent == "+0.0%" || percent == "-0.0%") return "0.0%";
  return percent + (v.worse ? " worse" : " better");
}

}  // namespace gpubench
