#pragma once
// `show`'s cells and column headers as people read them, in the console and in Markdown.
#include <string>
#include <variant>

#include "harness/report/figure_text.hpp"
#include "harness/report/show_tables.hpp"

namespace gpubench {

// "-" where nothing was measured; a figure with as many decimals as its size needs.
inline std::string readable_cell(const ShowCell& cell) {
  if (const auto* text = std::get_if<std::string>(&cell)) return *text;
  if (const auto* count = std::get_if<std::uint64_t>(&cell)) return std::to_string(*count);
  if (const auto* figure = std::get_if<double>(&cell)) return readable_figure(*figure);
  return "-";
}

// "time (us)"; the name alone where the column has no unit of its own.
inline std::string column_header(const ShowColumn& column) {
  return column.unit.empty() ? column.name : column.name + " (" + column.unit + ")";
}

// A column of numbers is aligned right.
inline bool numeric_column(const ShowTable& table, std::size_t column) {
  for (const auto& row : table.rows) {
    if (std::holds_alternative<std::uint64_t>(row[column]) || std::holds_alternative<double>(row[column])) return true;
  }
  return false;
}

}  // namespace gpubench
