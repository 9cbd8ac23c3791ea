#include "harness/report/run_summary.hpp"

#include <cmath>
#include <set>

#include "harness/report/text_table.hpp"
#include "harness/verdict/link_symmetry.hpp"
#include "harness/verdict/sibling_aggregates.hpp"

namespace gpubench {

void print_run_summary(const ResultsDocument& document, std::ostream& out) {
  TextTable metrics;
  metrics.add_column("metric");
  metrics.add_column("value", TextTable::Align::Right);
  metrics.add_column("unit");
  metrics.add_column("of peak", TextTable::Align::Right);
  metrics.add_column("spread", TextTable::Align::Right);
  metrics.add_column("n", TextTable::Align::Right);
  metrics.add_column("SM MHz", TextTable::Align::Right);
  metrics.add_column("note");
  for (const Metric& m : document.metrics) {
    const int decimals = m.value >= 100 ? 1 : (m.value >= 1 ? 2 : 4);
    metrics.add_row({m.id, format_number(m.value, decimals), m.unit,
                     m.efficiency ? format_number(100 * *m.efficiency, 1) + "%" : "",
                     m.statistics.median != 0 ? "±" + format_number(100 * m.statistics.mad / std::fabs(m.statistics.median), 1) + "%" : "",
                     std::to_string(m.statistics.count), m.sm_clock_mhz ? format_number(*m.sm_clock_mhz, 0) : "",
                     m.throttled ? "THROTTLED" : ""});
  }
  if (!metrics.empty()) {
    out << "\nResults (median of repetitions; spread = MAD / median)\n";
    metrics.print(out);
  }
  // A PCIe link that trained below its maximum generation or width, as the pcie family saw it under load (in
  // any repetition: a param that differed between them lists each one's value).
  std::set<std::string> degraded;
  for (const Metric& m : document.metrics) {
    const auto below = m.params.find("link_below_max");
    if (below == m.params.end() || below->second.find("true") == std::string::npos || !m.device) continue;
    const auto value = [&](const char* key) { return m.params.count(key) ? m.params.at(key) : std::string("?"); };
    degraded.insert("GPU " + std::to_string(*m.device) + ": PCIe gen " + value("pcie_current_generation") + " x" +
                    value("pcie_current_width") + " while the link can do gen " + value("pcie_max_generation") + " x" +
                    value("pcie_max_width") + " (reseat the card or check the slot and riser; see `gpubench doctor`)");
  }
  if (!degraded.empty()) {
    out << "\nPCIe links below their maximum\n";
    for (const std::string& line : degraded) out << "  " << line << "\n";
  }
  const std::vector<LinkFinding> links = find_link_asymmetries(document.metrics);
  if (!links.empty()) {
    out << "\nLink asymmetries (a GPU pair below others of its link kind, or below its own reverse direction)\n";
    for (const LinkFinding& f : links) out << "  " << f.metric << ": " << f.reason << "\n";
  }
  const std::vector<SiblingFinding> siblings = find_slow_siblings(document.metrics);
  if (!siblings.empty()) {
    out << "\nGPUs below their siblings (aggregate with every peer at once, under 90 % of the other GPUs' median)\n";
    for (const SiblingFinding& f : siblings) out << "  " << f.metric << ": " << f.reason << "\n";
  }
  if (!document.failures.empty()) {
    out << "\nFailures\n";
    for (const Failure& f : document.failures) {
      out << "  FAIL " << f.benchmark << ": " << f.reason << "\n       try: " << f.advice << "\n";
    }
  }
  if (!document.skipped.empty()) {
    out << "\nSkipped\n";
    for (const Skip& s : document.skipped) out << "  skip " << s.benchmark << ": " << s.reason << "\n";
  }
  out << "\n" << document.metrics.size() << " metrics, " << document.failures.size() << " failures, "
      << document.skipped.size() << " skipped" << (document.run.interrupted ? " (interrupted)" : "") << "\n";
}

}  // namespace gpubench
