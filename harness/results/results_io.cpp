#include "harness/results/results_io.hpp"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
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

std::vector<std::string> json_files_in(const std::string& directory) {
  DIR* dir = opendir(directory.c_str());
  if (dir == nullptr) throw InputError(directory, "", std::string("cannot read the directory: ") + std::strerror(errno));
  std::vector<std::string> files;
  while (const dirent* entry = readdir(dir)) {
    const std::string name = entry->d_name;
    if (name.size() > 5 && name.compare(name.size() - 5, 5, ".json") == 0) files.push_back(directory + "/" + name);
  }
  closedir(dir);
  std::sort(files.begin(), files.end());
  return files;
}

void write_text_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  const std::string temporary = path + ".tmp." + std::to_string(getpid());
  {
    std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + temporary + ": " + std::strerror(errno));
    write(out);
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

void write_json_atomically(const nlohmann::json& json, const std::string& path) {
  write_text_atomically(path, [&json](std::ostream& out) { out << json.dump(2) << '\n'; });
}

}  // namespace gpubench
