#include "harness/results/id_pattern.hpp"

#include <stdexcept>
#include <vector>

namespace gpubench {
namespace {

bool is_quantifier(char c) { return c == '*' || c == '+' || c == '?' || c == '{'; }

// Whether a group followed by a quantifier holds a quantifier itself: the shape that backtracks
// exponentially. Escapes and bracket expressions are skipped.
bool nests_quantifiers(const std::string& pattern) {
  std::vector<bool> group_has_quantifier{false};  // the outermost entry is the pattern itself
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    const char c = pattern[i];
    if (c == '\\') {
      ++i;
    } else if (c == '[') {
      for (++i; i < pattern.size() && pattern[i] != ']'; ++i) {
        if (pattern[i] == '\\') ++i;
      }
    } else if (c == '(') {
      group_has_quantifier.push_back(false);
      if (i + 1 < pattern.size() && pattern[i + 1] == '?') ++i;  // (?: (?= (?!: group syntax, no quantifier
    } else if (c == ')' && group_has_quantifier.size() > 1) {
      const bool inner = group_has_quantifier.back();
      group_has_quantifier.pop_back();
      if (inner && i + 1 < pattern.size() && is_quantifier(pattern[i + 1])) return true;
      if (inner) group_has_quantifier.back() = true;
    } else if (is_quantifier(c)) {
      group_has_quantifier.back() = true;
    }
  }
  return false;
}

}  // namespace

IdPattern::IdPattern(const std::string& pattern) {
  if (pattern.empty()) return;
  const std::string named = "'" + (pattern.size() > 80 ? pattern.substr(0, 80) + "..." : pattern) + "'";
  if (nests_quantifiers(pattern)) {
    throw std::invalid_argument(named + " repeats a group that repeats itself (as in (a+)*), which can take for ever to match");
  }
  try {
    regex_.emplace(pattern, std::regex::ECMAScript);
  } catch (const std::regex_error& error) {
    throw std::invalid_argument(named + " is not a valid regular expression: " + error.what());
  }
}

bool IdPattern::matches(const std::string& id) const {
  if (!regex_) return true;
  return id.size() <= kMaxMatchedIdLength && std::regex_search(id, *regex_);
}

}  // namespace gpubench
