#include "harness/results/results_io.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <sstream>
#include <system_error>
#include <utility>

#include "harness/results/input_error.hpp"
#include "harness/results/output_error.hpp"

namespace gpubench {
namespace {

namespace fs = std::filesystem;

const char* file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

// Refuses anything but a regular file of at most kLargestJsonFile bytes.
void check_regular(const std::string& path, const struct stat& info) {
  if (!S_ISREG(info.st_mode)) {
    throw InputError(path, "", std::string("is ") + file_kind(info.st_mode) + ", not a regular file", "give the path of a JSON file");
  }
  if (static_cast<std::size_t>(info.st_size) > kLargestJsonFile) {
    throw InputError(path, "", std::to_string(info.st_size) + " bytes, more than the " + std::to_string(kLargestJsonFile >> 20) +
                                   " MiB a gpubench document may have", "this is not a file gpubench wrote");
  }
}

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  ~FileDescriptor() {
    if (fd_ >= 0) close(fd_);
  }
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  int get() const { return fd_; }
  int release() { return std::exchange(fd_, -1); }

 private:
  int fd_;
};

// -o onto a symbolic link writes through it, to the file it names: a link into a shared folder stays a link.
fs::path final_target(const std::string& path) {
  fs::path target = path;
  std::error_code error;
  for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(target, error)); ++hops) {
    const fs::path link = fs::read_symlink(target, error);
    if (error) break;
    target = link.is_absolute() ? link : target.parent_path() / link;
  }
  return target;
}

void write_all(int fd, const std::string& text) {
  std::size_t done = 0;
  while (done < text.size()) {
    const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::system_error(errno, std::generic_category());
    done += static_cast<std::size_t>(n);
  }
}

}  // namespace

std::string read_regular_file(const std::string& path) {
  // stat first: opening a FIFO waits for a writer, and opening some devices acts on them.
  struct stat info {};
  if (stat(path.c_str(), &info) != 0) {
    const int error = errno;
    throw InputError(path, "", std::string("cannot open: ") + std::strerror(error),
                     error == ENOENT ? "check the path" : "");
  }
  check_regular(path, info);
  // O_NONBLOCK and fstat again: the path may have been replaced by a FIFO in between.
  const FileDescriptor fd(open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK));
  if (fd.get() < 0) throw InputError(path, "", std::string("cannot open: ") + std::strerror(errno));
  if (fstat(fd.get(), &info) != 0) throw InputError(path, "", std::string("cannot read: ") + std::strerror(errno));
  check_regular(path, info);
  std::string text;
  text.reserve(static_cast<std::size_t>(info.st_size));
  char buffer[1 << 16];
  for (;;) {
    const ssize_t n = read(fd.get(), buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw InputError(path, "", std::string("cannot read: ") + std::strerror(errno));
    if (n == 0) break;
    text.append(buffer, static_cast<std::size_t>(n));
    if (text.size() > kLargestJsonFile) {  // a file still growing, or one that reports no size (/proc)
      throw InputError(path, "", "more than the " + std::to_string(kLargestJsonFile >> 20) + " MiB a gpubench document may have");
    }
  }
  return text;
}

nlohmann::json parse_json_text(const std::string& text, const std::string& source) {
  if (text.size() > kLargestJsonFile) {
    throw InputError(source, "", "more than the " + std::to_string(kLargestJsonFile >> 20) + " MiB a gpubench document may have");
  }
  // nlohmann's parser keeps its own stack, and the callback sees each array or object as it opens, so a
  // document nested too deep is refused before anything recursive (copies, dump) meets it.
  const auto limit_nesting = [&source](int depth, nlohmann::json::parse_event_t event, nlohmann::json&) {
    if ((event == nlohmann::json::parse_event_t::object_start || event == nlohmann::json::parse_event_t::array_start) &&
        depth >= kDeepestJsonNesting) {
      throw InputError(source, "", "arrays or objects nested more than " + std::to_string(kDeepestJsonNesting) + " deep",
                       "gpubench documents nest a few levels; this is not a file gpubench wrote");
    }
    return true;
  };
  try {
    return nlohmann::json::parse(text, limit_nesting);
  } catch (const nlohmann::json::parse_error& error) {
    throw InputError(source, "", std::string("not valid JSON: ") + error.what(), "the file may be truncated");
  } catch (const nlohmann::json::exception& error) {  // out_of_range.406: a number such as 1e999
    throw InputError(source, "", std::string("a value cannot be read: ") + error.what(),
                     "numbers must fit a double; the file was edited or damaged");
  }
}

nlohmann::json read_json_file(const std::string& path) { return parse_json_text(read_regular_file(path), path); }

ResultsDocument read_results_file(const std::string& path) { return results_from_json(read_json_file(path), path); }

std::string document_schema(const nlohmann::json& document, const std::string& source) {
  if (!document.is_object() || !document.contains("schema")) return "";
  const nlohmann::json& schema = document.at("schema");
  if (!schema.is_string()) {
    throw InputError(source, "schema", std::string("expected a string, found ") + schema.type_name(),
                     "the file was edited or damaged");
  }
  return schema.get<std::string>();
}

namespace {

// A run's own log folders (RESULTS.json.logs, RESULTS.json.confirm.logs) hold the raw output of gpubench-micro,
// JSON that is not a results document: a folder of runs is searched without them.
bool is_log_folder(const std::string& name) { return name.size() > 5 && name.compare(name.size() - 5, 5, ".logs") == 0; }

// One folder's *.json regular files into `files`. With `subfolders` given, its folders go there instead (not its
// log folders, nor symbolic links to folders, which could make a cycle). Entries left out are named in
// `left_out`, with the reason, when given. Throws InputError when the folder cannot be read.
void read_folder(const std::string& directory, std::vector<std::string>& files, std::vector<std::string>* subfolders,
                 std::vector<std::string>* left_out) {
  DIR* dir = opendir(directory.c_str());
  if (dir == nullptr) throw InputError(directory, "", std::string("cannot read the directory: ") + std::strerror(errno));
  while (const dirent* entry = readdir(dir)) {
    const std::string name = entry->d_name;
    if (name == "." || name == "..") continue;
    const std::string path = directory + "/" + name;
    if (subfolders != nullptr) {
      struct stat link {};
      if (lstat(path.c_str(), &link) == 0 && S_ISDIR(link.st_mode)) {
        if (!is_log_folder(name)) subfolders->push_back(path);
        continue;
      }
    }
    if (name.size() <= 5 || name.compare(name.size() - 5, 5, ".json") != 0) continue;
    struct stat info {};
    if (stat(path.c_str(), &info) != 0) {
      if (left_out != nullptr) left_out->push_back(path + ": " + std::strerror(errno));
      continue;
    }
    if (!S_ISREG(info.st_mode)) {
      if (left_out != nullptr) left_out->push_back(path + ": is " + file_kind(info.st_mode) + ", not a regular file");
      continue;
    }
    files.push_back(path);
  }
  closedir(dir);
}

}  // namespace

std::vector<std::string> json_files_in(const std::string& directory, std::vector<std::string>* left_out) {
  std::vector<std::string> files;
  read_folder(directory, files, nullptr, left_out);
  std::sort(files.begin(), files.end());
  if (left_out != nullptr) std::sort(left_out->begin(), left_out->end());
  return files;
}

std::vector<std::string> json_files_under(const std::string& directory, std::vector<std::string>* left_out) {
  std::vector<std::string> files;
  std::vector<std::string> folders;
  read_folder(directory, files, &folders, left_out);
  while (!folders.empty()) {
    const std::string folder = folders.back();
    folders.pop_back();
    // A subfolder that cannot be read is named and passed over, as an unreadable file is.
    try {
      read_folder(folder, files, &folders, left_out);
    } catch (const InputError& error) {
      if (left_out != nullptr) left_out->push_back(error.what());
    }
  }
  std::sort(files.begin(), files.end());
  if (left_out != nullptr) std::sort(left_out->begin(), left_out->end());
  return files;
}

namespace {

// What to do about an output that cannot be written, said with every such error.
constexpr const char* kWritablePathAdvice =
    "give a path in a folder that exists and that you may write to, on a file system with room";

}  // namespace

std::string write_target(const std::string& path) { return final_target(path).string(); }

void write_text_atomically(const std::string& path, const std::function<void(std::ostream&)>& write) {
  // The text is made before anything touches the disk, so a writer that throws leaves nothing behind.
  std::ostringstream text;
  write(text);
  const fs::path target = final_target(path);
  // A rename would replace a FIFO or device (--junit /dev/stdout) with a file, or fail on a directory.
  struct stat info {};
  if (stat(path.c_str(), &info) == 0 && !S_ISREG(info.st_mode)) {
    throw OutputError(path, std::string("is ") + file_kind(info.st_mode) + "; give the path of a file");
  }
  std::error_code error;
  const fs::path folder = target.has_parent_path() ? target.parent_path() : fs::path(".");
  static std::atomic<unsigned> serial{0};
  std::string temporary;
  int fd = -1;
  for (int attempt = 0; fd < 0 && attempt < 100; ++attempt) {  // another writer's temporary, or a stale one
    temporary = target.string() + ".tmp." + std::to_string(getpid()) + (attempt == 0 ? "" : "." + std::to_string(serial++));
    fd = open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd < 0 && errno != EEXIST) break;
  }
  if (fd < 0) {
    const std::string why = std::strerror(errno);
    throw OutputError(path, why + (fs::is_directory(folder, error) ? "" : " (no folder " + folder.string() + ")") +
                                "; " + kWritablePathAdvice);
  }
  FileDescriptor file(fd);
  try {
    write_all(file.get(), text.str());
    if (fsync(file.get()) != 0) throw std::system_error(errno, std::generic_category());
    if (close(file.release()) != 0) throw std::system_error(errno, std::generic_category());
    if (std::rename(temporary.c_str(), target.c_str()) != 0) throw std::system_error(errno, std::generic_category());
  } catch (const std::system_error& failure) {
    unlink(temporary.c_str());
    throw OutputError(path, failure.code().message() + "; " + kWritablePathAdvice);
  }
  // The rename is durable once the folder is; some file systems cannot fsync a folder, and the file is in place.
  const FileDescriptor directory(open(folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
  if (directory.get() >= 0) fsync(directory.get());
}

void write_json_atomically(const nlohmann::json& json, const std::string& path) {
  // Text that is not UTF-8 (a host name, a command-line argument) is replaced, rather than losing the document.
  const std::string text = json.dump(2, ' ', false, nlohmann::json::error_handler_t::replace);
  write_text_atomically(path, [&text](std::ostream& out) { out << text << '\n'; });
}

}  // namespace gpubench
