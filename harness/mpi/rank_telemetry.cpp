#include "harness/mpi/rank_telemetry.hpp"

namespace gpubench {

nlohmann::json merge_rank_telemetry(const nlohmann::json& ranks, const std::vector<std::string>& per_rank,
                                    const std::string& root_host) {
  nlohmann::json merged = nlohmann::json::object();
  for (std::size_t rank = 0; rank < per_rank.size() && rank < ranks.size(); ++rank) {
    const std::string host = ranks[rank].value("host", "");
    const nlohmann::json gpus = nlohmann::json::parse(per_rank[rank]);  // items() must not outlive it
    for (const auto& [gpu, telemetry] : gpus.items()) {
      merged[host == root_host ? gpu : host + "/" + gpu] = telemetry;
    }
  }
  return merged;
}

}  // namespace gpubench
