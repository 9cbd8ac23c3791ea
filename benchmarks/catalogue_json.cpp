#include "benchmarks/catalogue_json.hpp"

namespace gpubench {

nlohmann::json catalogue_json(const std::vector<FamilySpec>& families) {
  nlohmann::json out = nlohmann::json::array();
  for (const FamilySpec& family : families) {
    nlohmann::json variants = nlohmann::json::array();
    for (const FamilyVariant& variant : family.variants) {
      variants.push_back({{"name", variant.name}, {"environment", variant.environment}});
    }
    out.push_back({{"name", family.name},
                   {"description", family.description},
                   {"in_quick", family.in_quick},
                   {"quick_repetitions", family.quick_repetitions},
                   {"full_repetitions", family.full_repetitions},
                   {"timeout_s", family.timeout.count()},
                   {"variants", variants},
                   {"tolerance", family.tolerance},
                   {"small_figure_tolerance", family.small_figure_tolerance ? nlohmann::json(*family.small_figure_tolerance)
                                                                            : nlohmann::json(nullptr)},
                   {"acceptance", family.acceptance},
                   {"node_bound", family.node_bound}});
  }
  return out;
}

}  // namespace gpubench
