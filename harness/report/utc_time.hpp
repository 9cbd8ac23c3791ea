#pragma once
// The times of a results document as the feeds for other tools need them. gpubench writes `started_at` and
// `finished_at` as "2026-11-29T17:05:48Z" (UTC, whole seconds; harness/runner/run_record.cpp); the reader keeps any
// text there, so anything else is "not known" here rather than guessed at.
#include <cstdint>
#include <optional>
#include <string>

namespace gpubench {

// Seconds since the Unix epoch of "YYYY-MM-DDTHH:MM:SSZ"; nullopt for any other text or a date that does not exist.
std::optional<std::int64_t> parse_utc_time(const std::string& text);

// Seconds from one such time to another; nullopt when either is not one, or the second comes first.
std::optional<double> seconds_between(const std::string& from, const std::string& to);

}  // namespace gpubench
