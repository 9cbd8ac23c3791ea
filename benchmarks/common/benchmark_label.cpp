#include "benchmarks/common/benchmark_label.hpp"

#include <stdexcept>

namespace gpubench {
namespace {

void check_token(const std::string& text, const char* what) {
  if (text.find_first_of(";=") != std::string::npos) {
    throw std::invalid_argument(std::string("label ") + what + " '" + text + "' may not contain ';' or '='");
  }
}

}  // namespace

const char* to_string(Better better) { return better == Better::Higher ? "higher" : "lower"; }

std::optional<Better> parse_better(const std::string& text) {
  if (text == "higher") return Better::Higher;
  if (text == "lower") return Better::Lower;
  return std::nullopt;
}

std::string encode_label(const FigureLabel& label) {
  std::string out = "figure=" + label.figure + ";unit=" + label.unit + ";better=" + to_string(label.better);
  if (label.device) out += ";device=" + std::to_string(*label.device);
  for (const auto& [key, value] : label.params) {
    check_token(key, "key");
    check_token(value, "value");
    out += ";" + key + "=" + value;
  }
  return out;
}

FigureLabel decode_label(const std::string& text) {
  FigureLabel label;
  bool have_better = false;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find(';', start), text.size());
    const std::string item = text.substr(start, end - start);
    start = end + 1;
    if (item.empty()) continue;
    const std::size_t eq = item.find('=');
    if (eq == std::string::npos) throw std::invalid_argument("label item '" + item + "' is not key=value");
    const std::string key = item.substr(0, eq);
    const std::string value = item.substr(eq + 1);
    if (key == "figure") {
      label.figure = value;
    } else if (key == "unit") {
      label.unit = value;
    } else if (key == "better") {
      const auto better = parse_better(value);
      if (!better) throw std::invalid_argument("label better='" + value + "' must be higher or lower");
      label.better = *better;
      have_better = true;
    } else if (key == "device") {
      try {
        label.device = std::stoi(value);
      } catch (const std::exception&) {
        throw std::invalid_argument("label device='" + value + "' is not an integer");
      }
    } else {
      label.params[key] = value;
    }
  }
  if (label.figure.empty()) throw std::invalid_argument("label lacks figure=");
  if (label.unit.empty()) throw std::invalid_argument("label lacks unit=");
  if (!have_better) throw std::invalid_argument("label lacks better=");
  return label;
}

}  // namespace gpubench
