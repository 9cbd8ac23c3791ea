#include "harness/report/junit_report.hpp"

#include <cstdio>

#include "harness/report/utc_time.hpp"
#include "harness/report/xml_text.hpp"

namespace gpubench {
namespace {

// Seconds as JUnit's time attribute: a decimal, to the millisecond; 0 where not known.
std::string junit_time(const std::optional<double>& seconds) {
  char text[64];
  std::snprintf(text, sizeof text, "%.3f", seconds.value_or(0.0));
  return text;
}

// timestamp="2026-11-29T17:05:48": the schema's pattern has no zone, so the UTC time loses its "Z"; nothing when the
// start is not known.
std::string timestamp_attribute(const std::string& started_at) {
  if (!parse_utc_time(started_at)) return "";
  return " timestamp=\"" + started_at.substr(0, started_at.size() - 1) + "\"";
}

}  // namespace

void write_junit(const VerdictList& list, std::ostream& out) {
  const std::size_t tests = list.verdicts.size();
  const int failures = list.count(Tally::Failed);
  out << "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  out << "<testsuites name=\"" << xml_escape(list.title) << "\" tests=\"" << tests << "\" failures=\"" << failures << "\">\n";
  out << "  <testsuite name=\"" << xml_escape(list.suite) << "\" tests=\"" << tests << "\" failures=\"" << failures
      << "\" errors=\"0\" skipped=\"" << list.count(Tally::Skipped) << "\"" << timestamp_attribute(list.started_at)
      << " hostname=\"" << xml_escape(list.host) << "\" time=\"" << junit_time(list.seconds) << "\">\n";
  for (const ListedVerdict& v : list.verdicts) {
    out << "    <testcase classname=\"" << xml_escape(v.group) << "\" name=\"" << xml_escape(v.name) << "\" time=\""
        << junit_time(v.seconds) << "\">";
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
