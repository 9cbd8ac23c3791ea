#pragma once
// A Markdown code span: the text as it is, between as many backquotes as it needs (one more than its longest run
// of them), with no escapes, which a code span would show as stray backslashes (`io\_starved`). Only inside a table
// cell is a pipe escaped, which GitHub's tables require even in a code span and then do not show. Header-only.
#include <algorithm>
#include <string>

namespace gpubench {

inline std::string markdown_code(const std::string& text, bool in_table_cell) {
  std::string body;
  std::size_t run = 0;
  std::size_t longest = 0;
  for (char c : text) {
    run = c == '`' ? run + 1 : 0;
    longest = std::max(longest, run);
    if (c == '\n') {
      body += ' ';
    } else if (c == '|' && in_table_cell) {
      body += "\\|";
    } else {
      body += c;
    }
  }
  const std::string fence(longest + 1, '`');
  // A span that starts or ends with a backquote needs a space inside the fence, which Markdown then strips.
  const bool pad = !body.empty() && (body.front() == '`' || body.back() == '`');
  return fence + (pad ? " " : "") + body + (pad ? " " : "") + fence;
}

}  // namespace gpubench
