#include "harness/doctor/pcie_aer.hpp"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace gpubench {
namespace {

// "0000:18:00.0", the whole of it.
bool is_pci_address(const std::string& name) {
  unsigned domain = 0, bus = 0, device = 0, function = 0;
  int consumed = 0;
  return std::sscanf(name.c_str(), "%x:%x:%x.%x%n", &domain, &bus, &device, &function, &consumed) == 4 &&
         static_cast<std::size_t>(consumed) == name.size();
}

}  // namespace

AerFile parse_aer_file(const std::string& text) {
  AerFile file;
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    std::istringstream fields(line);
    std::string name;
    std::string count;
    std::string extra;
    if (!(fields >> name >> count) || (fields >> extra) || count.find_first_not_of("0123456789") != std::string::npos) {
      throw std::invalid_argument("'" + line + "' is not 'NAME COUNT'");
    }
    const std::uint64_t value = std::stoull(count);
    if (name.rfind("TOTAL_ERR_", 0) == 0) {
      file.total = value;
    } else if (value > 0) {
      file.nonzero[name] = value;
    }
  }
  return file;
}

Reading<AerCounts> read_aer_counts(const std::string& devices_dir, const std::string& address) {
  const std::string dir = devices_dir + "/" + address + "/";
  struct Kind {
    const char* file;
    const char* label;
    std::uint64_t AerCounts::*total;
  };
  const Kind kinds[] = {{"aer_dev_correctable", "correctable", &AerCounts::correctable},
                        {"aer_dev_nonfatal", "non-fatal", &AerCounts::nonfatal},
                        {"aer_dev_fatal", "fatal", &AerCounts::fatal}};
  AerCounts counts;
  for (const Kind& kind : kinds) {
    std::ifstream in(dir + kind.file);
    if (!in) {
      std::error_code error;
      if (!std::filesystem::exists(dir + kind.file, error)) {
        return {std::nullopt, dir + kind.file + " does not exist (the kernel or platform reports no AER counters)"};
      }
      return {std::nullopt, dir + kind.file + ": not readable"};
    }
    std::ostringstream text;
    text << in.rdbuf();
    try {
      const AerFile file = parse_aer_file(text.str());
      counts.*kind.total = file.total;
      for (const auto& [name, value] : file.nonzero) counts.named[std::string(kind.label) + " " + name] = value;
    } catch (const std::invalid_argument& error) {
      return {std::nullopt, dir + kind.file + ": " + error.what()};
    }
  }
  return {counts, ""};
}

std::string upstream_port(const std::string& devices_dir, const std::string& address) {
  std::error_code error;
  // devices_dir holds links into the device tree: /sys/devices/pci0000:00/0000:00:01.1/0000:18:00.0
  const std::filesystem::path real = std::filesystem::canonical(std::filesystem::path(devices_dir) / address, error);
  if (error) return "";
  const std::string parent = real.parent_path().filename().string();
  return is_pci_address(parent) ? parent : "";
}

std::vector<PcieFunctionAer> read_pcie_aer(const std::string& devices_dir, const std::string& gpu_address) {
  std::vector<PcieFunctionAer> functions = {{gpu_address, true, read_aer_counts(devices_dir, gpu_address)}};
  const std::string port = upstream_port(devices_dir, gpu_address);
  if (!port.empty()) functions.push_back({port, false, read_aer_counts(devices_dir, port)});
  return functions;
}

}  // namespace gpubench
