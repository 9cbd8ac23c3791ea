#include "harness/doctor/host_facts.hpp"

#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <memory>

#include "harness/environment/fingerprint.hpp"

namespace gpubench {
namespace {

Reading<std::vector<int>> read_allowed_cpus() {
  struct FreeCpuSet {
    void operator()(cpu_set_t* set) const { CPU_FREE(set); }
  };
  // sched_getaffinity fails with EINVAL while the set is smaller than the kernel's; grow it until it fits.
  for (int cpus = CPU_SETSIZE; cpus <= (1 << 20); cpus *= 2) {
    const std::unique_ptr<cpu_set_t, FreeCpuSet> set(CPU_ALLOC(cpus));
    if (!set) return {std::nullopt, "CPU_ALLOC failed"};
    const std::size_t size = CPU_ALLOC_SIZE(cpus);
    CPU_ZERO_S(size, set.get());
    if (sched_getaffinity(0, size, set.get()) != 0) {
      if (errno == EINVAL) continue;
      return {std::nullopt, std::string("sched_getaffinity: ") + std::strerror(errno)};
    }
    std::vector<int> allowed;
    for (int cpu = 0; cpu < cpus; ++cpu) {
      if (CPU_ISSET_S(cpu, size, set.get())) allowed.push_back(cpu);
    }
    return {allowed, ""};
  }
  return {std::nullopt, "sched_getaffinity: the CPU set never fit"};
}

std::map<std::string, std::string> variables_that_change_results() {
  const nlohmann::json found = result_changing_variables();
  std::map<std::string, std::string> variables;
  for (const auto& [name, value] : found.items()) variables[name] = value.get<std::string>();
  return variables;
}

}  // namespace

Reading<std::map<std::string, std::vector<int>>> read_cpu_governors(const std::string& cpu_dir) {
  std::map<std::string, std::vector<int>> governors;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(cpu_dir, error)) {
    const std::string name = entry.path().filename().string();
    if (name.size() < 4 || name.compare(0, 3, "cpu") != 0 || name.find_first_not_of("0123456789", 3) != std::string::npos) continue;
    std::ifstream in(entry.path() / "cpufreq" / "scaling_governor");
    std::string governor;
    if (std::getline(in, governor) && !governor.empty()) governors[governor].push_back(std::stoi(name.substr(3)));
  }
  if (error) return {std::nullopt, cpu_dir + ": " + error.message()};
  if (governors.empty()) return {std::nullopt, "no cpu*/cpufreq/scaling_governor under " + cpu_dir + " (VMs and some kernels have none)"};
  for (auto& [governor, cpus] : governors) std::sort(cpus.begin(), cpus.end());
  return {governors, ""};
}

Reading<double> read_uptime(const std::string& path) {
  std::ifstream in(path);
  double seconds = 0;
  if (!(in >> seconds) || seconds <= 0) return {std::nullopt, path + " unreadable"};
  return {seconds, ""};
}

HostFacts read_host_facts() {
  HostFacts host;
  host.allowed_cpus = read_allowed_cpus();
  host.governors = read_cpu_governors("/sys/devices/system/cpu");
  host.variables = variables_that_change_results();
  host.uptime_s = read_uptime("/proc/uptime");
  return host;
}

}  // namespace gpubench
