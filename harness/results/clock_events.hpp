#pragma once
// NVML's clock-event ("throttle") reasons: their names, and which of them mean a measurement ran slower
// than the card can (power cap, thermal or hardware slowdown) rather than by choice (idle, app clocks).
#include <cstdint>
#include <string>
#include <vector>

namespace gpubench {

std::vector<std::string> clock_event_names(std::uint64_t reasons);
bool is_throttling(std::uint64_t reasons);
// A slowdown that says something about the card or its cooling (thermal, hardware slowdown, power brake), not the
// power cap, which every sustained load of a power-capped GPU reaches by design.
bool is_slowdown(std::uint64_t reasons);
// The power cap: every sustained load of a power-capped GPU reaches it by design.
bool at_power_cap(std::uint64_t reasons);

}  // namespace gpubench
