// Gathering results from ranks, as gpubench-mpi does, run under mpirun with two and with eight processes on the
// CPU: every rank's text and bytes arrive on rank 0 in rank order, and the maximum over ranks is known to all (with
// eight: 8.0 for the times 1.0 .. 8.0, and 7 for the ranks).
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "benchmarks/nccl_mpi/mpi_world.hpp"

int main(int argc, char** argv) {
  gpubench::MpiWorld world(&argc, &argv);
  int failures = 0;
  const auto expect = [&](bool ok, const std::string& what) {
    if (!ok) {
      std::fprintf(stderr, "rank %d: FAILED: %s\n", world.rank(), what.c_str());
      ++failures;
    }
  };
  // Texts of different lengths, as rank identities and check messages are.
  const std::string mine = "rank " + std::to_string(world.rank()) + std::string(static_cast<std::size_t>(world.rank()) * 7, '*');
  const std::vector<std::string> texts = world.gather_text(mine, 0);
  const double time = 1.0 + world.rank();
  const std::vector<char> bytes = world.gather(&time, sizeof time, 0);
  if (world.rank() == 0) {
    expect(static_cast<int>(texts.size()) == world.size(), "one text per rank");
    for (int r = 0; r < static_cast<int>(texts.size()); ++r) {
      expect(texts[r] == "rank " + std::to_string(r) + std::string(static_cast<std::size_t>(r) * 7, '*'), "text of rank " + std::to_string(r));
    }
    expect(bytes.size() == sizeof(double) * static_cast<std::size_t>(world.size()), "one time per rank");
    for (int r = 0; r < world.size(); ++r) {
      double got = 0;
      std::memcpy(&got, bytes.data() + r * sizeof(double), sizeof got);
      expect(got == 1.0 + r, "time of rank " + std::to_string(r));
    }
  } else {
    expect(texts.empty() && bytes.empty(), "only the root receives");
  }
  // The time of a collective is the slowest rank's.
  expect(world.max(time) == static_cast<double>(world.size()), "max over ranks");
  expect(world.max(world.rank()) == world.size() - 1, "integer max over ranks");
  world.barrier();
  if (world.rank() == 0) std::printf("%d passed, %d failed\n", failures == 0 ? 1 : 0, failures == 0 ? 0 : 1);
  return failures == 0 ? 0 : 1;
}
