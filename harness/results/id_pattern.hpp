#pragma once
// A --filter: a regular expression searched in metric ids and benchmark names, with its cost bounded.
// libstdc++'s std::regex backtracks without limit and recurses once per character, so a pattern with a
// quantified group that itself holds a quantifier ("(.*)*x") can run for ever, and a long id can overflow
// the stack. So a pattern is refused when it nests quantifiers, and an id longer than kMaxMatchedIdLength
// never matches a non-empty pattern. (A pattern's length is bounded where a user types it, kFilterPattern:
// the harness's own, such as remeasure's alternation of every suspect, may be longer.)
#include <cstddef>
#include <optional>
#include <regex>
#include <string>

namespace gpubench {

inline constexpr std::size_t kMaxMatchedIdLength = 1024;

class IdPattern {
 public:
  // Empty matches everything. Throws std::invalid_argument saying what is wrong with the pattern.
  explicit IdPattern(const std::string& pattern);

  bool matches(const std::string& id) const;

 private:
  std::optional<std::regex> regex_;
};

}  // namespace gpubench
