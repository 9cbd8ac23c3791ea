#include "harness/baseline/tolerances.hpp"

#include "benchmarks/catalogue.hpp"

namespace gpubench {

double default_tolerance(const std::string& metric_id, const std::string& unit) {
  static const FamilySpec no_family;  // a metric of no family gets the catalogue's defaults
  const FamilySpec* family = family_of(metric_id);
  const FamilySpec& row = family != nullptr ? *family : no_family;
  if (row.small_figure_tolerance && small_figure(metric_id, unit)) return *row.small_figure_tolerance;
  return row.tolerance;
}

}  // namespace gpubench
