// Where the host side of a copy runs and lives: CPU lists from sysfs, binding a thread to a GPU's CPUs and
// giving the old mask back, and host memory placed on a NUMA node.
#include <gtest/gtest.h>
#include <linux/mempolicy.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cstring>
#include <string>
#include <vector>

#include "benchmarks/common/host_affinity.hpp"
#include "benchmarks/common/host_buffer.hpp"

namespace gpubench {
namespace {

std::vector<int> allowed_cpus() {
  cpu_set_t set;
  CPU_ZERO(&set);
  EXPECT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  std::vector<int> cpus;
  for (int cpu = 0; cpu < CPU_SETSIZE; ++cpu) {
    if (CPU_ISSET(cpu, &set)) cpus.push_back(cpu);
  }
  return cpus;
}

TEST(CpuList, ParsesRangesAndSingles) {
  EXPECT_EQ(parse_cpu_list("0-3,8,10-11\n"), (std::vector<int>{0, 1, 2, 3, 8, 10, 11}));
  EXPECT_EQ(parse_cpu_list("5"), (std::vector<int>{5}));
  EXPECT_EQ(parse_cpu_list("4,0-1,1"), (std::vector<int>{0, 1, 4})) << "sorted, no repeats";
  EXPECT_TRUE(parse_cpu_list("").empty());
  EXPECT_THROW(parse_cpu_list("0-"), std::invalid_argument);
  EXPECT_THROW(parse_cpu_list("3-1"), std::invalid_argument);
  EXPECT_THROW(parse_cpu_list("a,b"), std::invalid_argument);
  EXPECT_THROW(parse_cpu_list("0,,1"), std::invalid_argument);
}

TEST(CpuList, FormatsRunsBackIntoRanges) {
  EXPECT_EQ(format_cpu_list({0, 1, 2, 3, 8, 10, 11}), "0-3,8,10-11");
  EXPECT_EQ(format_cpu_list({7}), "7");
  EXPECT_EQ(format_cpu_list({}), "");
  EXPECT_EQ(parse_cpu_list(format_cpu_list({0, 2, 3, 4, 96, 97})), (std::vector<int>{0, 2, 3, 4, 96, 97}));
}

TEST(ScopedCpuBinding, BindsToTheAllowedCpusAndRestoresTheMask) {
  const std::vector<int> before = allowed_cpus();
  ASSERT_FALSE(before.empty());
  {
    const ScopedCpuBinding binding({before.front(), 100000});  // the second CPU does not exist
    EXPECT_EQ(binding.bound_cpus(), (std::vector<int>{before.front()}));
    EXPECT_EQ(binding.note(), std::to_string(before.front()));
    EXPECT_EQ(allowed_cpus(), (std::vector<int>{before.front()}));
  }
  EXPECT_EQ(allowed_cpus(), before);
}

TEST(ScopedCpuBinding, LeavesTheThreadAloneWhenItCannotBind) {
  const std::vector<int> before = allowed_cpus();
  {
    const ScopedCpuBinding unknown({});
    EXPECT_TRUE(unknown.bound_cpus().empty());
    EXPECT_EQ(unknown.note(), "unbound (GPU's CPUs unknown)");
    const ScopedCpuBinding forbidden({100000});
    EXPECT_TRUE(forbidden.bound_cpus().empty());
    EXPECT_NE(forbidden.note().find("unbound (none of the GPU's CPUs"), std::string::npos) << forbidden.note();
    EXPECT_EQ(allowed_cpus(), before);
  }
  EXPECT_EQ(allowed_cpus(), before);
}

TEST(HostBuffer, PageableMemoryLandsOnTheChosenNode) {
  HostBuffer buffer((std::size_t{1} << 20) + 5, HostMemory::Pageable, 0);
  EXPECT_EQ(buffer.bytes(), (std::size_t{1} << 20) + 5);
  buffer.fill_random(7);
  if (buffer.placement() != "node 0") {
    EXPECT_EQ(buffer.placement().rfind("mbind failed: ", 0), 0u) << buffer.placement();
    GTEST_SKIP() << "this machine does not let the test place memory: " << buffer.placement();
  }
  int node = -1;
  ASSERT_EQ(syscall(SYS_get_mempolicy, &node, nullptr, 0, buffer.get() + buffer.bytes() - 1, MPOL_F_NODE | MPOL_F_ADDR), 0);
  EXPECT_EQ(node, 0);
}

TEST(HostBuffer, RandomFillIsRandomAndRepeatable) {
  HostBuffer a(4099, HostMemory::Pageable, -1), b(4099, HostMemory::Pageable, -1);
  EXPECT_EQ(a.placement(), "default policy (GPU's NUMA node unknown)");
  a.fill_random(1);
  b.fill_random(1);
  EXPECT_EQ(std::memcmp(a.get(), b.get(), a.bytes()), 0);
  b.fill_random(2);
  std::size_t same = 0;
  for (std::size_t i = 0; i < a.bytes(); ++i) same += a.get()[i] == b.get()[i];
  EXPECT_LT(same, a.bytes() / 64) << "two seeds should agree on about 1 byte in 256";
  std::size_t zeros = 0;
  for (std::size_t i = 0; i < a.bytes(); ++i) zeros += a.get()[i] == 0;
  EXPECT_LT(zeros, a.bytes() / 64);
}

}  // namespace
}  // namespace gpubench
