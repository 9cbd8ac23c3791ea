#pragma once
// The host facts doctor judges: where this process may run, the CPU frequency governors, and the
// environment variables that change results. Reads only.
#include <map>
#include <string>
#include <vector>

#include "harness/doctor/node_facts.hpp"

namespace gpubench {

HostFacts read_host_facts();

// cpu_dir is /sys/devices/system/cpu (a parameter so that tests can give another tree).
Reading<std::map<std::string, std::vector<int>>> read_cpu_governors(const std::string& cpu_dir);

}  // namespace gpubench
