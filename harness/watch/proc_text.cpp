#include "harness/watch/proc_text.hpp"

#include <fstream>
#include <iterator>
#include <sstream>

namespace gpubench {

std::string read_proc_text(const std::string& path) {
  std::ifstream in(path);
  if (!in) return "";
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<std::string> stat_fields(const std::string& text) {
  std::vector<std::string> fields;
  const std::size_t close = text.rfind(')');
  if (close == std::string::npos) return fields;
  std::istringstream in(text.substr(close + 1));
  std::string field;
  while (in >> field) fields.push_back(field);
  return fields;
}

}  // namespace gpubench
