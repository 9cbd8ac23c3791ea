#pragma once
// A plain-text table with aligned columns, for terminal output.
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace gpubench {

class TextTable {
 public:
  enum class Align { Left, Right };
  void add_column(std::string header, Align align = Align::Left);
  void add_row(std::vector<std::string> cells);
  void print(std::ostream& out) const;
  bool empty() const { return rows_.empty(); }

 private:
  std::vector<std::string> headers_;
  std::vector<Align> aligns_;
  std::vector<std::vector<std::string>> rows_;
};

// "4312.5" with the given number of significant decimals, for figures in tables.
std::string format_number(double value, int decimals);

}  // namespace gpubench
