#pragma once
// Text escaped for XML attributes and content (JUnit reports). XML 1.0 forbids most control characters and the
// noncharacters U+FFFE and U+FFFF even when escaped, so they are dropped. The text is UTF-8 (the JSON readers
// refuse anything else), in which U+FFFE and U+FFFF are EF BF BE and EF BF BF.
#include <string>

namespace gpubench {

inline std::string xml_escape(const std::string& text) {
  std::string out;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (c) {
      case '&': out += "&amp;"; break;
      case '<': out += "&lt;"; break;
      case '>': out += "&gt;"; break;
      case '"': out += "&quot;"; break;
      case '\'': out += "&apos;"; break;
      default:
        if (c == '\xEF' && i + 2 < text.size() && text[i + 1] == '\xBF' && (text[i + 2] == '\xBE' || text[i + 2] == '\xBF')) {
          i += 2;  // U+FFFE or U+FFFF
        } else if (static_cast<unsigned char>(c) >= 0x20 || c == '\n' || c == '\t') {
          out += c;
        }
    }
  }
  return out;
}

}  // namespace gpubench
