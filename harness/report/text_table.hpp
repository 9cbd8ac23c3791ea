#pragma once
// A plain-text table with aligned columns, for terminal output. Columns may be grouped under a label printed
// above them (nccl-tests' "out-of-place" and "in-place").
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace gpubench {

class TextTable {
 public:
  enum class Align { Left, Right };
  void add_column(std::string header, Align align = Align::Left, std::string group = "");
  void add_row(std::vector<std::string> cells);
  void print(std::ostream& out) const;
  bool empty() const { return rows_.empty(); }

 private:
  std::vector<std::string> headers_;
  std::vector<Align> aligns_;
  std::vector<std::string> groups_;
  std::vector<std::vector<std::string>> rows_;
};

// "4312.5" with the given number of significant decimals, for figures in tables.
std::string format_number(double value, int decimals);

}  // namespace gpubench
