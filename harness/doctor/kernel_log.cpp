#include "harness/doctor/kernel_log.hpp"

#include <cctype>
#include <sstream>

namespace gpubench {
namespace {

struct TimedMessage {
  double seconds = 0;
  std::string message;
};

bool all_of_class(const std::string& text, int (*is_class)(int)) {
  if (text.empty()) return false;
  for (char c : text) {
    if (!is_class(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

// "6,1234,5678901,-;message": the third field is the time in microseconds.
std::optional<TimedMessage> kmsg_record(const std::string& line) {
  if (line.empty() || line[0] == ' ') return std::nullopt;  // a continuation: the record's key=value pairs
  const std::size_t semicolon = line.find(';');
  if (semicolon == std::string::npos) return std::nullopt;
  std::istringstream prefix(line.substr(0, semicolon));
  std::string priority, sequence, microseconds;
  if (!std::getline(prefix, priority, ',') || !std::getline(prefix, sequence, ',') || !std::getline(prefix, microseconds, ',')) {
    return std::nullopt;
  }
  if (!all_of_class(microseconds, isdigit)) return std::nullopt;
  return TimedMessage{std::stod(microseconds) / 1e6, line.substr(semicolon + 1)};
}

// "[ 5678.901234] message"
std::optional<TimedMessage> monotonic_line(const std::string& line) {
  if (line.empty() || line[0] != '[') return std::nullopt;
  const std::size_t close = line.find(']');
  if (close == std::string::npos) return std::nullopt;
  std::string time = line.substr(1, close - 1);
  time.erase(0, time.find_first_not_of(' '));
  const std::size_t dot = time.find('.');
  if (dot == std::string::npos || !all_of_class(time.substr(0, dot), isdigit) || !all_of_class(time.substr(dot + 1), isdigit)) {
    return std::nullopt;
  }
  const std::size_t text = line.find_first_not_of(' ', close + 1);
  return TimedMessage{std::stod(time), text == std::string::npos ? "" : line.substr(text)};
}

std::string lower(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

}  // namespace

std::optional<XidEvent> parse_xid_message(const std::string& message, double seconds_since_boot) {
  const std::string marker = "NVRM: Xid (";
  const std::size_t at = message.find(marker);
  if (at == std::string::npos) return std::nullopt;
  const std::size_t device_start = at + marker.size();
  const std::size_t device_end = message.find("): ", device_start);
  if (device_end == std::string::npos) return std::nullopt;
  std::string device = message.substr(device_start, device_end - device_start);
  if (device.rfind("PCI:", 0) == 0) device.erase(0, 4);
  if (device.empty() || device.find_first_not_of("0123456789abcdefABCDEF:.") != std::string::npos) return std::nullopt;
  std::size_t digits_end = device_end + 3;
  while (digits_end < message.size() && std::isdigit(static_cast<unsigned char>(message[digits_end]))) ++digits_end;
  if (digits_end == device_end + 3 || digits_end - (device_end + 3) > 6) return std::nullopt;
  XidEvent event;
  event.seconds_since_boot = seconds_since_boot;
  event.pci_device = lower(device);
  event.code = std::stoi(message.substr(device_end + 3, digits_end - (device_end + 3)));
  const std::size_t rest = message.find_first_not_of(", ", digits_end);
  event.message = rest == std::string::npos ? "" : message.substr(rest);
  while (!event.message.empty() && std::isspace(static_cast<unsigned char>(event.message.back()))) event.message.pop_back();
  return event;
}

ParsedKernelLog parse_kernel_log(const std::string& text, KernelLogFormat format) {
  ParsedKernelLog parsed;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    const std::optional<TimedMessage> timed = format == KernelLogFormat::Kmsg ? kmsg_record(line) : monotonic_line(line);
    if (!timed) continue;
    if (!parsed.first_seconds || timed->seconds < *parsed.first_seconds) parsed.first_seconds = timed->seconds;
    if (std::optional<XidEvent> xid = parse_xid_message(timed->message, timed->seconds)) parsed.xids.push_back(*xid);
  }
  return parsed;
}

}  // namespace gpubench
