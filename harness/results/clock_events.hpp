#pragma once
// NVML's clock-event ("throttle") reasons: their names, and which of them mean a measurement ran slower
// than the card can (power cap, thermal or hardware slowdown) rather than by choice (idle, app clocks).
#include <cstdint>
#include <string>
#include <vector>

namespace gpubench {

std::vector<std::string> clock_event_names(std::uint64_t reasons);
// The bits of names clock_event_names gave, as a document read back holds them ("other" as a bit of no known reason,
// so that it reads back as "other"). Throws std::invalid_argument naming a name it does not know.
std::uint64_t clock_event_bits(const std::vector<std::string>& names);
bool is_throttling(std::uint64_t reasons);
// A slowdown that says something about the card or its cooling (thermal, hardware slowdown, power brake), not the
// power cap, which every sustained load of a power-capped GPU reaches by design.
bool is_slowdown(std::uint64_t reasons);
// The power cap: every sustained load of a power-capped GPU reaches it by design.
bool at_power_cap(std::uint64_t reasons);

}  // namespace gpubench
