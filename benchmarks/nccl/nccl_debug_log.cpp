#include "benchmarks/nccl/nccl_debug_log.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <utility>
#include <vector>

namespace gpubench {
namespace {

bool is_set(const char* name) {
  const char* value = std::getenv(name);
  return value != nullptr && *value != '\0';
}

// NCCL's expansion of NCCL_DEBUG_FILE: %h is the host name up to its first '.' (with '%' and '/' as '-'),
// %p the process id, %% a '%'.
std::string expand_debug_file_name(const std::string& pattern) {
  char host[256] = {};
  gethostname(host, sizeof host - 1);
  std::string short_host;
  for (const char* c = host; *c != '\0' && *c != '.'; ++c) short_host += (*c == '%' || *c == '/') ? '-' : *c;
  std::string path;
  for (std::size_t i = 0; i < pattern.size(); ++i) {
    if (pattern[i] != '%' || i + 1 == pattern.size()) {
      path += pattern[i];
      continue;
    }
    const char code = pattern[++i];
    if (code == 'h') {
      path += short_host;
    } else if (code == 'p') {
      path += std::to_string(getpid());
    } else if (code == '%') {
      path += '%';
    } else {
      path += '%';
      path += code;
    }
  }
  return path;
}

std::string escape_percent(const std::string& path) {
  std::string escaped;
  for (char c : path) escaped += c == '%' ? std::string("%%") : std::string(1, c);
  return escaped;
}

std::uint64_t file_size(const std::string& path) {
  struct stat info {};
  return stat(path.c_str(), &info) == 0 ? static_cast<std::uint64_t>(info.st_size) : 0;
}

}  // namespace

NcclDebugLog NcclDebugLog::configure_environment() {
  if (is_set("NCCL_DEBUG")) {
    return NcclDebugLog(is_set("NCCL_DEBUG_FILE") ? expand_debug_file_name(std::getenv("NCCL_DEBUG_FILE")) : "", false);
  }
  if (is_set("NCCL_DEBUG_FILE")) {
    setenv("NCCL_DEBUG", "INFO", 1);
    if (!is_set("NCCL_DEBUG_SUBSYS")) setenv("NCCL_DEBUG_SUBSYS", "TUNING", 1);
    return NcclDebugLog(expand_debug_file_name(std::getenv("NCCL_DEBUG_FILE")), false);
  }
  // The file is made first: without one, NCCL's INFO lines would go to stdout, among Google Benchmark's output.
  std::string pattern = std::string(is_set("TMPDIR") ? std::getenv("TMPDIR") : "/tmp") + "/gpubench-nccl-debug-XXXXXX";
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  const int fd = mkstemp(name.data());
  if (fd < 0) return NcclDebugLog();  // the choice stays unknown; the benchmarks run all the same
  close(fd);
  const std::string path = name.data();
  setenv("NCCL_DEBUG", "INFO", 1);
  if (!is_set("NCCL_DEBUG_SUBSYS")) setenv("NCCL_DEBUG_SUBSYS", "TUNING", 1);
  setenv("NCCL_DEBUG_FILE", escape_percent(path).c_str(), 1);
  return NcclDebugLog(path, true);
}

NcclDebugLog::~NcclDebugLog() {
  if (owned_) unlink(path_.c_str());
}

NcclDebugLog::NcclDebugLog(NcclDebugLog&& other) noexcept
    : path_(std::exchange(other.path_, std::string())),
      owned_(std::exchange(other.owned_, false)),
      read_offset_(other.read_offset_) {}

NcclDebugLog& NcclDebugLog::operator=(NcclDebugLog&& other) noexcept {
  if (this != &other) {
    if (owned_) unlink(path_.c_str());
    path_ = std::exchange(other.path_, std::string());
    owned_ = std::exchange(other.owned_, false);
    read_offset_ = other.read_offset_;
  }
  return *this;
}

std::string NcclDebugLog::take_new_text() {
  if (path_.empty()) return "";
  std::ifstream in(path_, std::ios::binary);
  if (!in) return "";
  const std::uint64_t size = file_size(path_);
  // An operator's file that shrank was replaced or rotated: start again. Ours only shrinks when emptied here,
  // and NCCL then goes on writing past the old end, so what is new still starts at read_offset_.
  if (size < read_offset_) {
    if (owned_) return "";
    read_offset_ = 0;
  }
  in.seekg(static_cast<std::streamoff>(read_offset_));
  std::string text(size - read_offset_, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  text.resize(static_cast<std::size_t>(in.gcount()));
  read_offset_ += text.size();
  release_owned_space();
  return text;
}

void NcclDebugLog::skip_new_text() {
  if (path_.empty()) return;
  const std::uint64_t size = file_size(path_);
  if (size >= read_offset_ || !owned_) read_offset_ = size;
  release_owned_space();
}

void NcclDebugLog::release_owned_space() {
  if (owned_) (void)truncate(path_.c_str(), 0);  // best effort: a failure costs disk space, not results
}

}  // namespace gpubench
