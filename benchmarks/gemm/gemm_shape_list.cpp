#include "benchmarks/gemm/gemm_shape_list.hpp"

#include <algorithm>
#include <stdexcept>

namespace gpubench {
namespace {

std::string trimmed(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t\r");
  if (first == std::string::npos) return "";
  return text.substr(first, text.find_last_not_of(" \t\r") - first + 1);
}

// "8192" -> 8192 within 1..kMaxGemmDimension; nothing else.
bool parse_dimension(const std::string& text, std::int64_t* value) {
  if (text.empty() || text.size() > 6 || !std::all_of(text.begin(), text.end(), [](char c) { return c >= '0' && c <= '9'; })) {
    return false;
  }
  *value = std::stoll(text);
  return *value >= 1 && *value <= kMaxGemmDimension;
}

GemmShape parse_shape(const std::string& item) {
  const char separator = item.find(',') != std::string::npos ? ',' : 'x';
  std::int64_t dimensions[3] = {0, 0, 0};
  std::size_t start = 0;
  for (int d = 0; d < 3; ++d) {
    const std::size_t end = d < 2 ? item.find(separator, start) : item.size();
    if (end == std::string::npos || !parse_dimension(trimmed(item.substr(start, end - start)), &dimensions[d])) {
      throw std::invalid_argument("'" + item + "' is not a GEMM shape M,N,K (or MxNxK) with each dimension from 1 to " +
                                  std::to_string(kMaxGemmDimension));
    }
    start = end + 1;
  }
  return {dimensions[0], dimensions[1], dimensions[2]};
}

}  // namespace

std::vector<GemmShape> parse_gemm_shape_list(const std::string& text) {
  std::vector<GemmShape> shapes;
  std::size_t start = 0;
  while (start <= text.size()) {
    const std::size_t end = std::min(text.find_first_of(":\n", start), text.size());
    std::string item = text.substr(start, end - start);
    start = end + 1;
    item = trimmed(item.substr(0, item.find('#')));
    if (item.empty()) continue;
    const GemmShape shape = parse_shape(item);
    if (std::find(shapes.begin(), shapes.end(), shape) != shapes.end()) continue;
    if (shapes.size() == kMaxGemmShapes) {
      throw std::invalid_argument("more than " + std::to_string(kMaxGemmShapes) + " GEMM shapes");
    }
    shapes.push_back(shape);
  }
  return shapes;
}

std::string format_gemm_shape_list(const std::vector<GemmShape>& shapes) {
  std::string text;
  for (const GemmShape& s : shapes) {
    text += (text.empty() ? "" : ":") + std::to_string(s.m) + "," + std::to_string(s.n) + "," + std::to_string(s.k);
  }
  return text;
}

std::vector<GemmShape> gemm_shapes_named_in(const std::vector<std::string>& benchmarks) {
  std::vector<GemmShape> shapes;
  for (const std::string& name : benchmarks) {
    // gemm/<precision>/<MxNxK>/gpuN: the third segment; burst and speedup benchmarks have other segments.
    if (name.rfind("gemm/", 0) != 0) continue;
    const std::size_t second = name.find('/', 5);
    if (second == std::string::npos) continue;
    const std::size_t third = name.find('/', second + 1);
    const std::string segment = name.substr(second + 1, third == std::string::npos ? std::string::npos : third - second - 1);
    try {
      const GemmShape shape = parse_shape(segment);
      if (std::find(shapes.begin(), shapes.end(), shape) == shapes.end() && shapes.size() < kMaxGemmShapes) {
        shapes.push_back(shape);
      }
    } catch (const std::invalid_argument&) {
      // not a shape: gemm/burst/<precision>/...; a built-in shape found here (the speedup's) is harmless, as
      // gpubench-micro registers each shape once
    }
  }
  return shapes;
}

}  // namespace gpubench
