#pragma once
// A metric id's '/'-separated segments (memory/triad/1GiB/gpu0/bandwidth -> memory, triad, 1GiB, gpu0, bandwidth),
// for the reports that group ids by what differs between them, and the id they join back into.
#include <string>
#include <vector>

namespace gpubench {

inline std::vector<std::string> id_segments(const std::string& id) {
  std::vector<std::string> segments;
  std::size_t start = 0;
  for (std::size_t slash = id.find('/'); slash != std::string::npos; slash = id.find('/', start)) {
    segments.push_back(id.substr(start, slash - start));
    start = slash + 1;
  }
  segments.push_back(id.substr(start));
  return segments;
}

inline std::string joined_id(const std::vector<std::string>& segments) {
  std::string id;
  for (const std::string& segment : segments) id += (id.empty() ? "" : "/") + segment;
  return id;
}

}  // namespace gpubench
