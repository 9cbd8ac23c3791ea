#pragma once
// The benchmark families and the suites that run them. A family is selected by a name prefix and runs as one
// child process of gpubench-micro per variant (NCCL: one per forced algorithm and protocol, each with its own
// environment); a suite is a list of families with their repetition counts and time limits per variant.
#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace gpubench {

// One child process of a family, with environment variables of its own: the NCCL family runs once per
// algorithm and protocol with NCCL_ALGO / NCCL_PROTO set, since NCCL reads them once per process.
struct FamilyVariant {
  std::string name;  // "" for a family with one variant; used in log file names
  std::map<std::string, std::string> environment;
};

struct FamilySpec {
  std::string name;         // also the prefix of its benchmark names: "memory" -> "memory/..."
  std::string description;
  bool in_quick = true;     // the full suite runs every family
  int quick_repetitions = 3;
  int full_repetitions = 5;
  std::chrono::seconds timeout{300};  // per variant
  std::vector<FamilyVariant> variants = {FamilyVariant{}};
};

const std::vector<FamilySpec>& benchmark_families();

// Families of a suite ("quick" or "full"); throws std::invalid_argument for another name.
std::vector<FamilySpec> families_in_suite(const std::string& suite);

}  // namespace gpubench
