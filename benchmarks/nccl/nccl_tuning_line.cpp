#include "benchmarks/nccl/nccl_tuning_line.hpp"

#include <algorithm>
#include <cctype>
#include <sstream>
#include <vector>

namespace gpubench {
namespace {

// NCCL's enum order (src/include/nccl_common.h) for the releases that printed numbers.
constexpr const char* kAlgorithmNames[] = {"tree", "ring", "collnetdirect", "collnetchain", "nvls", "nvlstree", "pat"};
constexpr const char* kProtocolNames[] = {"ll", "ll128", "simple"};

std::string lower_case(const std::string& text) {
  std::string lowered;
  lowered.reserve(text.size());
  for (char c : text) lowered += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return lowered;
}

std::vector<std::string> lower_case_words(const std::string& line) {
  std::istringstream in(lower_case(line));
  std::vector<std::string> words;
  for (std::string word; in >> word;) words.push_back(word);
  return words;
}

bool all_digits(const std::string& word) {
  if (word.empty()) return false;
  for (char c : word) {
    if (!std::isdigit(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// A name ("Ring", "LL128") or an enum value ("1"), up to the first character that belongs to neither.
template <std::size_t N>
std::optional<std::string> choice_name(const std::string& word, const char* const (&by_value)[N]) {
  std::string name;
  for (char c : word) {
    if (!std::isalnum(static_cast<unsigned char>(c))) break;
    name += c;
  }
  if (name.empty()) return std::nullopt;
  if (!all_digits(name)) return name;
  if (name.size() > 2) return std::nullopt;
  const std::size_t value = std::stoul(name);
  if (value >= N) return std::nullopt;
  return std::string(by_value[value]);
}

bool one_of(const std::string& word, const std::vector<std::size_t>& sizes) {
  if (!all_digits(word) || word.size() > 19) return false;
  return std::find(sizes.begin(), sizes.end(), std::stoull(word)) != sizes.end();
}

std::optional<NcclCombination> choice_in_line(const std::string& line, const std::string& collective_label,
                                              const std::vector<std::size_t>& sizes) {
  const std::vector<std::string> w = lower_case_words(line);
  // ... [<Collective>:] <bytes> Bytes -> Algo <algo> proto <proto> ...
  for (std::size_t k = 1; k + 5 < w.size(); ++k) {
    if (w[k] != "bytes" || w[k + 1] != "->" || w[k + 2] != "algo" || w[k + 4] != "proto") continue;
    if (!one_of(w[k - 1], sizes)) return std::nullopt;
    if (k >= 2 && !w[k - 2].empty() && w[k - 2].back() == ':' && w[k - 2] != collective_label) return std::nullopt;
    const std::optional<std::string> algo = choice_name(w[k + 3], kAlgorithmNames);
    const std::optional<std::string> proto = choice_name(w[k + 5], kProtocolNames);
    if (!algo || !proto) return std::nullopt;
    return NcclCombination{*algo, *proto};
  }
  return std::nullopt;
}

}  // namespace

std::optional<NcclCombination> choice_from_debug_text(const std::string& text, const std::string& collective,
                                                      const std::vector<std::size_t>& sizes) {
  const std::string collective_label = lower_case(collective) + ":";  // as the line's word before the size reads
  std::optional<NcclCombination> choice;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    std::string line = text.substr(start, end - start);
    start = end + 1;
    // Parts of the file that were emptied while NCCL kept writing read back as NUL bytes.
    line.erase(std::remove(line.begin(), line.end(), '\0'), line.end());
    if (std::optional<NcclCombination> found = choice_in_line(line, collective_label, sizes)) choice = std::move(found);
  }
  return choice;
}

}  // namespace gpubench
