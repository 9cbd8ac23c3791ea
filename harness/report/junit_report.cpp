#include "harness/report/junit_report.hpp"

#include "harness/report/xml_text.hpp"

namespace gpubench {

void write_junit(const VerdictList& list, std::ostream& out) {
  const std::size_t tests = list.verdicts.size();
  const int failures = list.count(Tally::Failed);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"" << xml_escape(list.title) << "\" tests=\"" << tests << "\" failures=\"" << failures << "\">\n";
  out << "  <testsuite name=\"" << xml_escape(list.suite) << "\" tests=\"" << tests << "\" failures=\"" << failures
      << "\" errors=\"0\" skipped=\"" << list.count(Tally::Skipped) << "\">\n";
  for (const ListedVerdict& v : list.verdicts) {
    out << "    <testcase classname=\"" << xml_escape(v.group) << "\" name=\"" << xml_escape(v.name) << "\" time=\"0\">";
    if (!v.properties.empty()) {
      out << "\n      <properties>";
      for (const auto& [name, value] : v.properties) {
        out << "\n        <property name=\"" << xml_escape(name) << "\" value=\"" << xml_escape(value) << "\"/>";
      }
      out << "\n      </properties>";
      if (v.tally == Tally::Passed && v.detail.empty()) out << "\n    ";
    }
    if (v.tally == Tally::Failed) {
      out << "\n      <failure type=\"" << xml_escape(v.kind) << "\" message=\"" << xml_escape(v.message) << "\">"
          << xml_escape(v.detail) << "</failure>\n    ";
    } else if (v.tally == Tally::Skipped) {
      out << "\n      <skipped message=\"" << xml_escape(v.message) << "\"/>\n    ";
    } else if (!v.detail.empty()) {
      out << "\n      <system-out>" << xml_escape(v.detail) << "</system-out>\n    ";
    }
    out << "</testcase>\n";
  }
  out << "  </testsuite>\n</testsuites>\n";
}

}  // namespace gpubench
