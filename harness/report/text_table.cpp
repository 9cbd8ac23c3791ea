#include "harness/report/text_table.hpp"

#include <algorithm>
#include <cstdio>

namespace gpubench {
namespace {

// Columns a cell takes in a terminal: one per UTF-8 character (a continuation byte, 10xxxxxx, adds none), so
// "8192³", "°C" and "µs" line up with ASCII cells.
std::size_t display_width(const std::string& text) {
  return static_cast<std::size_t>(
      std::count_if(text.begin(), text.end(), [](char c) { return (static_cast<unsigned char>(c) & 0xC0) != 0x80; }));
}

}  // namespace

void TextTable::add_column(std::string header, Align align, std::string group) {
  headers_.push_back(std::move(header));
  aligns_.push_back(align);
  groups_.push_back(std::move(group));
}

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(headers_.size());
  rows_.push_back(std::move(cells));
}

void TextTable::print(std::ostream& out) const {
  std::vector<std::size_t> widths;
  for (const std::string& h : headers_) widths.push_back(display_width(h));
  for (const auto& row : rows_) {
    for (std::size_t c = 0; c < row.size(); ++c) widths[c] = std::max(widths[c], display_width(row[c]));
  }
  // A group's label starts over its first column; its last column widens when the label is longer than them all.
  bool grouped = false;
  for (std::size_t first = 0, last = 0; first < headers_.size(); first = last + 1) {
    last = first;
    while (last + 1 < headers_.size() && groups_[last + 1] == groups_[first]) ++last;
    std::size_t span = 2 * (last - first);
    for (std::size_t c = first; c <= last; ++c) span += widths[c];
    if (display_width(groups_[first]) > span) widths[last] += display_width(groups_[first]) - span;
    grouped = grouped || !groups_[first].empty();
  }
  if (grouped) {
    std::vector<std::size_t> starts;
    std::size_t end = 0;
    for (std::size_t c = 0; c < headers_.size(); ++c) {
      starts.push_back(c ? end + 2 : 0);
      end = starts.back() + widths[c];
    }
    std::string above(end, ' ');
    for (std::size_t c = 0; c < headers_.size(); ++c) {
      if (c == 0 || groups_[c - 1] != groups_[c]) above.replace(starts[c], groups_[c].size(), groups_[c]);
    }
    out << above.substr(0, above.find_last_not_of(' ') + 1) << '\n';
  }
  const auto line = [&](const std::vector<std::string>& cells) {
    for (std::size_t c = 0; c < cells.size(); ++c) {
      const std::string pad(widths[c] - display_width(cells[c]), ' ');
      if (c) out << "  ";
      out << (aligns_[c] == Align::Right ? pad + cells[c] : cells[c] + (c + 1 < cells.size() ? pad : ""));
    }
    out << '\n';
  };
  line(headers_);
  std::vector<std::string> rule;
  for (std::size_t w : widths) rule.emplace_back(w, '-');
  line(rule);
  for (const auto& row : rows_) line(row);
}

std::string format_number(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

}  // namespace gpubench
