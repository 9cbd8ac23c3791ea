#include "harness/results/results_io.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "harness/results/input_error.hpp"

namespace gpubench {

nlohmann::json read_json_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw InputError(path, "", std::string("cannot open: ") + std::strerror(errno));
  std::ostringstream text;
  text << in.rdbuf();
  try {
    return nlohmann::json::parse(text.str());
  } catch (const nlohmann::json::parse_error& error) {
    throw InputError(path, "", std::string("not valid JSON: ") + error.what(), "the file may be truncated");
  }
}

ResultsDocument read_results_file(const std::string& path) { return results_from_json(read_json_file(path), path); }

void write_json_atomically(const nlohmann::json& json, const std::string& path) {
  const std::string temporary = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + temporary + ": " + std::strerror(errno));
    out << json.dump(2) << '\n';
    out.flush();
    if (!out) {
      std::remove(temporary.c_str());
      throw std::runtime_error("writing " + temporary + " failed: " + std::strerror(errno));
    }
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot rename " + temporary + " to " + path + ": " + why);
  }
}

}  // namespace gpubench
