#pragma once
// Text made safe for a format that gives some characters a meaning (a Markdown table's '|', a Prometheus label's
// '"'): each character listed is replaced by its text, every other is kept.
#include <map>
#include <string>

namespace gpubench {

inline std::string escaped_text(const std::string& text, const std::map<char, std::string>& replacements) {
  std::string out;
  for (char c : text) {
    const auto found = replacements.find(c);
    out += found == replacements.end() ? std::string(1, c) : found->second;
  }
  return out;
}

}  // namespace gpubench
