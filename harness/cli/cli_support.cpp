#include "harness/cli/cli_support.hpp"

#include <dirent.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <ctime>
#include <fstream>
#include <stdexcept>

#include "harness/results/input_error.hpp"
#include "harness/results/results_io.hpp"

namespace gpubench {

std::vector<SourcedResults> load_results_files(const std::vector<std::string>& paths) {
  std::vector<SourcedResults> runs;
  for (const std::string& path : paths) runs.push_back({path, read_results_file(path)});
  return runs;
}

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
    std::ofstream out(temporary, std::ios::trunc);
    if (!out) throw std::runtime_error("cannot write " + temporary + ": " + std::strerror(errno));
    write(out);
    out.flush();
    if (!out) throw std::runtime_error("writing " + temporary + " failed");
  }
  if (std::rename(temporary.c_str(), path.c_str()) != 0) {
    const std::string why = std::strerror(errno);
    std::remove(temporary.c_str());
    throw std::runtime_error("cannot rename " + temporary + " to " + path + ": " + why);
  }
}

std::string utc_timestamp(const char* format) {
  const std::time_t now = std::time(nullptr);
  std::tm utc{};
  gmtime_r(&now, &utc);
  char text[64];
  std::strftime(text, sizeof text, format, &utc);
  return text;
}

}  // namespace gpubench
