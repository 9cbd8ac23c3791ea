#include "benchmarks/common/metric_id.hpp"

namespace gpubench {

MetricId::MetricId(std::string_view benchmark, std::string_view figure) {
  id_.reserve(benchmark.size() + 1 + figure.size());
  id_.append(benchmark).append("/").append(figure);
}

std::string MetricId::family() const { return id_.substr(0, id_.find('/')); }

std::string MetricId::benchmark() const { return id_.substr(0, id_.find_last_of('/')); }

std::optional<std::pair<std::size_t, std::size_t>> MetricId::gpu_segment() const {
  for (std::size_t slash = id_.find('/'); slash != std::string::npos;) {
    const std::size_t start = slash + 1;
    const std::size_t end = id_.find('/', start);
    const std::size_t length = (end == std::string::npos ? id_.size() : end) - start;
    if (parse_gpu_segment(std::string_view(id_).substr(start, length))) return std::make_pair(start, length);
    slash = end;
  }
  return std::nullopt;
}

std::optional<int> MetricId::gpu() const {
  const auto segment = gpu_segment();
  if (!segment) return std::nullopt;
  return parse_gpu_segment(std::string_view(id_).substr(segment->first, segment->second));
}

std::string MetricId::with_any_gpu() const {
  const auto segment = gpu_segment();
  if (!segment) return id_;
  return id_.substr(0, segment->first) + "gpu*" + id_.substr(segment->first + segment->second);
}

std::optional<std::pair<std::size_t, std::size_t>> MetricId::pair_segment() const {
  // family.../gpuA-gpuB/figure: the pair is the last segment but one, with something before it.
  const std::size_t last = id_.rfind('/');
  if (last == std::string::npos || last == 0 || last + 1 == id_.size()) return std::nullopt;
  const std::size_t before = id_.rfind('/', last - 1);
  if (before == std::string::npos || before == 0) return std::nullopt;
  const std::size_t start = before + 1;
  if (!parse_gpu_pair_segment(std::string_view(id_).substr(start, last - start))) return std::nullopt;
  return std::make_pair(start, last - start);
}

std::optional<std::pair<int, int>> MetricId::gpu_pair() const {
  const auto segment = pair_segment();
  if (!segment) return std::nullopt;
  return parse_gpu_pair_segment(std::string_view(id_).substr(segment->first, segment->second));
}

std::string MetricId::with_any_pair() const {
  const auto segment = pair_segment();
  if (!segment) return id_;
  return id_.substr(0, segment->first) + "*" + id_.substr(segment->first + segment->second);
}

std::optional<int> parse_gpu_segment(std::string_view segment) {
  constexpr std::string_view prefix = "gpu";
  if (segment.substr(0, prefix.size()) != prefix) return std::nullopt;
  const std::string_view digits = segment.substr(prefix.size());
  if (digits.empty() || digits.size() > kMaxGpuDigits) return std::nullopt;
  int index = 0;
  for (char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    index = index * 10 + (c - '0');
  }
  return index;
}

std::optional<std::pair<int, int>> parse_gpu_pair_segment(std::string_view segment) {
  const std::size_t dash = segment.find('-');
  if (dash == std::string_view::npos) return std::nullopt;
  const std::optional<int> from = parse_gpu_segment(segment.substr(0, dash));
  const std::optional<int> to = parse_gpu_segment(segment.substr(dash + 1));
  if (!from || !to) return std::nullopt;
  return std::make_pair(*from, *to);
}

}  // namespace gpubench
