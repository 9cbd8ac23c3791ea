#pragma once
// Reading /proc's text files, shared by the job's host sampler and the reader of what its threads wait on.
#include <string>
#include <vector>

namespace gpubench {

// The whole file, or "" when it cannot be read (a process or thread may end between listing and reading).
std::string read_proc_text(const std::string& path);

// The fields of a stat file after the command name: "PID (comm) S PPID ..." -> {"S", "PPID", ...}, so that field N
// of proc(5) is element N - 3. The command name may hold spaces and ')', so it ends at the last ')'.
std::vector<std::string> stat_fields(const std::string& text);

}  // namespace gpubench
