#include "harness/doctor/read_kernel_log.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <functional>

#include "harness/doctor/kernel_log.hpp"
#include "harness/runner/child_process.hpp"

namespace gpubench {
namespace {

struct LogText {
  std::string text;
  std::string why_not;  // set when the source could not be read
};

// Each read() returns one record; EAGAIN once the newest has been read (O_NONBLOCK: never waits for more).
LogText read_kmsg() {
  const int fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
  if (fd < 0) return {"", std::strerror(errno)};
  LogText log;
  char record[8192];  // the kernel refuses (EINVAL) a buffer smaller than a record; records are at most about 1 KiB
  while (true) {
    const ssize_t got = read(fd, record, sizeof record);
    if (got > 0) {
      log.text.append(record, static_cast<std::size_t>(got));
      continue;
    }
    if (got < 0 && (errno == EPIPE || errno == EINTR)) continue;  // EPIPE: overwritten before it was read; go on with the next
    if (got < 0 && errno != EAGAIN) log.why_not = std::strerror(errno);
    break;
  }
  close(fd);
  return log;
}

LogText read_command_output(const std::vector<std::string>& argv) {
  const std::string path = find_program(argv.front());
  if (path.empty()) return {"", "not found on PATH"};
  std::vector<std::string> command = argv;
  command.front() = path;
  int exit_code = 0;
  LogText log{capture_output(command, {}, &exit_code), ""};
  if (exit_code != 0) log.why_not = "exit status " + std::to_string(exit_code);
  return log;
}

struct Source {
  std::string name;
  KernelLogFormat format;
  std::function<LogText()> read;
};

}  // namespace

Reading<XidHistory> read_xid_history() {
  const std::vector<Source> sources = {
      {"/dev/kmsg", KernelLogFormat::Kmsg, read_kmsg},
      // -k implies -b: this boot only, with times since boot as the other two give them.
      {"journalctl -k", KernelLogFormat::Monotonic,
       [] { return read_command_output({"journalctl", "-k", "-o", "short-monotonic", "--no-pager", "--quiet"}); }},
      {"dmesg", KernelLogFormat::Monotonic, [] { return read_command_output({"dmesg"}); }},
  };
  std::optional<XidHistory> best;  // the readable log that reaches back furthest
  std::string failures;
  for (const Source& source : sources) {
    const LogText log = source.read();
    ParsedKernelLog parsed;
    if (log.why_not.empty()) parsed = parse_kernel_log(log.text, source.format);
    if (!parsed.first_seconds) {
      failures += (failures.empty() ? "" : "; ") + source.name + ": " + (log.why_not.empty() ? "no kernel messages in it" : log.why_not);
      continue;
    }
    if (!best || *parsed.first_seconds < best->covers_from_s) best = XidHistory{source.name, *parsed.first_seconds, parsed.xids};
    if (best->covers_from_s < kLogFromBoot_s) break;
  }
  if (!best) return {std::nullopt, failures};
  return {*best, ""};
}

}  // namespace gpubench
