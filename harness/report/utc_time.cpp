#include "harness/report/utc_time.hpp"

#include <ctime>

namespace gpubench {
namespace {

// The number written at text[at, at + digits), when every character there is a digit.
std::optional<int> digits_at(const std::string& text, std::size_t at, std::size_t digits) {
  int value = 0;
  for (std::size_t i = at; i < at + digits; ++i) {
    if (text[i] < '0' || text[i] > '9') return std::nullopt;
    value = value * 10 + (text[i] - '0');
  }
  return value;
}

}  // namespace

std::optional<std::int64_t> parse_utc_time(const std::string& text) {
  constexpr std::size_t kLength = 20;  // 2026-11-29T17:05:48Z
  if (text.size() != kLength || text[4] != '-' || text[7] != '-' || text[10] != 'T' || text[13] != ':' || text[16] != ':' ||
      text[19] != 'Z') {
    return std::nullopt;
  }
  const auto year = digits_at(text, 0, 4), month = digits_at(text, 5, 2), day = digits_at(text, 8, 2);
  const auto hour = digits_at(text, 11, 2), minute = digits_at(text, 14, 2), second = digits_at(text, 17, 2);
  if (!year || !month || !day || !hour || !minute || !second) return std::nullopt;
  std::tm fields{};
  fields.tm_year = *year - 1900;
  fields.tm_mon = *month - 1;
  fields.tm_mday = *day;
  fields.tm_hour = *hour;
  fields.tm_min = *minute;
  fields.tm_sec = *second;
  const std::time_t seconds = timegm(&fields);
  // timegm carries what overflows a field into the next (February 30 becomes March 2): such a date does not exist.
  std::tm back{};
  if (gmtime_r(&seconds, &back) == nullptr || back.tm_year != *year - 1900 || back.tm_mon != *month - 1 ||
      back.tm_mday != *day || back.tm_hour != *hour || back.tm_min != *minute || back.tm_sec != *second) {
    return std::nullopt;
  }
  return static_cast<std::int64_t>(seconds);
}

std::optional<double> seconds_between(const std::string& from, const std::string& to) {
  const auto start = parse_utc_time(from), end = parse_utc_time(to);
  if (!start || !end || *end < *start) return std::nullopt;
  return static_cast<double>(*end - *start);
}

}  // namespace gpubench
