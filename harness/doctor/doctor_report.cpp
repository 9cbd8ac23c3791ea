#include "harness/doctor/doctor_report.hpp"

#include <algorithm>
#include <cctype>

#include "benchmarks/common/device_selection.hpp"

namespace gpubench {
namespace {

std::string where(const Finding& finding) {
  return finding.gpus.empty() ? "node" : "GPU " + format_device_list(finding.gpus);
}

std::string severity_label(Severity severity) {
  std::string label = severity_name(severity);
  if (severity >= Severity::Warning) {
    for (char& c : label) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  }
  return label;
}

}  // namespace

void print_findings(const std::vector<Finding>& findings, std::ostream& out) {
  int counts[4] = {};
  std::size_t where_width = 0;
  std::size_t check_width = 0;
  for (const Finding& f : findings) {
    ++counts[static_cast<int>(f.severity)];
    where_width = std::max(where_width, where(f).size());
    check_width = std::max(check_width, f.check.size());
  }
  out << "gpubench doctor: " << counts[static_cast<int>(Severity::Critical)] << " critical, "
      << counts[static_cast<int>(Severity::Warning)] << " warning, " << counts[static_cast<int>(Severity::Info)] << " info, "
      << counts[static_cast<int>(Severity::Ok)] << " ok\n";
  const std::size_t severity_width = 8;  // "CRITICAL"
  const std::string indent(severity_width + where_width + check_width + 6, ' ');
  for (const Finding& f : findings) {
    const std::string label = severity_label(f.severity);
    const std::string place = where(f);
    out << label << std::string(severity_width - label.size() + 2, ' ') << place << std::string(where_width - place.size() + 2, ' ')
        << f.check << std::string(check_width - f.check.size() + 2, ' ') << f.finding << "\n";
    if (!f.fix.empty()) out << indent << "fix: " << f.fix << "\n";
  }
}

nlohmann::json findings_json(const std::vector<Finding>& findings) {
  nlohmann::json array = nlohmann::json::array();
  for (const Finding& f : findings) {
    array.push_back({{"severity", severity_name(f.severity)}, {"check", f.check}, {"gpus", f.gpus}, {"finding", f.finding}, {"fix", f.fix}});
  }
  return array;
}

}  // namespace gpubench
