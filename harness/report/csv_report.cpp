#include "harness/report/csv_report.hpp"

#include <string>
#include <variant>
#include <vector>

#include "harness/report/figure_text.hpp"

namespace gpubench {
namespace {

std::string csv_field(const std::string& text) {
  if (text.find_first_of(",\"\r\n") == std::string::npos) return text;
  std::string quoted = "\"";
  for (char c : text) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
  return quoted + "\"";
}

std::string csv_cell(const ShowCell& cell) {
  if (const auto* text = std::get_if<std::string>(&cell)) return csv_field(*text);
  if (const auto* count = std::get_if<std::uint64_t>(&cell)) return std::to_string(*count);
  if (const auto* figure = std::get_if<double>(&cell)) return six_digits(*figure);
  return "";
}

void csv_line(const std::vector<std::string>& fields, std::ostream& out) {
  for (std::size_t i = 0; i < fields.size(); ++i) out << (i ? "," : "") << fields[i];
  out << "\n";
}

}  // namespace

void write_show_csv(const ShowReport& report, std::ostream& out) {
  std::vector<std::string> header;
  for (const ShowColumn& column : report.metrics.columns) header.push_back(csv_field(column.name));
  csv_line(header, out);
  for (const std::vector<ShowCell>& row : report.metrics.rows) {
    std::vector<std::string> fields;
    for (const ShowCell& cell : row) fields.push_back(csv_cell(cell));
    csv_line(fields, out);
  }
}

}  // namespace gpubench
