// What an NCCL benchmark reports: the reason of a wrong result, the figure and its params. No GPU needed.
#include "benchmarks/nccl/collective_report.hpp"

#include <gtest/gtest.h>

namespace gpubench {
namespace {

constexpr std::size_t kGiB = std::size_t{1} << 30;

TEST(CollectiveReport, MismatchReasonNamesCollectiveRankGpuAndFirstElement) {
  std::vector<RankCheck> checks(2);
  checks[0].rank = 0;
  checks[1].rank = 1;
  checks[1].device = 3;
  EXPECT_EQ(describe_mismatches(Collective::AllReduce, checks, 100), "");
  checks[1].mismatches = 2;
  checks[1].first_index = 41;
  checks[1].actual = 1.5f;
  checks[1].expected = 2.25;
  checks[1].tolerance = 2.7e-7;
  const std::string reason = describe_mismatches(Collective::AllReduce, checks, 100);
  EXPECT_EQ(reason.rfind("wrong allreduce result: ", 0), 0u) << reason;
  EXPECT_NE(reason.find("rank 1 (GPU 3)"), std::string::npos) << reason;
  EXPECT_NE(reason.find("2 of 100 elements differ from the expected sum"), std::string::npos) << reason;
  EXPECT_NE(reason.find("element 41: 1.5 instead of 2.25"), std::string::npos) << reason;
  const std::string copy = describe_mismatches(Collective::AllGather, checks, 100);
  EXPECT_EQ(copy.rfind("wrong allgather result: ", 0), 0u) << copy;
  EXPECT_NE(copy.find("differ from the expected value"), std::string::npos) << copy;
}

TEST(CollectiveReport, AllReduceParamsCarryTimesBandwidthsAndCombinations) {
  CollectiveMeasurement m;
  m.bytes = kGiB;
  m.count = kGiB / 4;
  m.placement = Placement::InPlace;
  m.ranks = 2;
  m.mean_seconds = 3.2735e-3;
  m.forced = {"ring", "simple"};
  m.mode = "single_process";
  EXPECT_NEAR(busbw_gbps(m), 328.01, 0.001);
  std::map<std::string, std::string> params = collective_params(m);
  EXPECT_EQ(params.at("collective"), "allreduce");
  EXPECT_EQ(params.at("time_us"), "3273.5");
  EXPECT_EQ(params.at("algbw_GBps"), "328.01");
  EXPECT_EQ(params.at("bytes"), "1073741824");
  EXPECT_EQ(params.at("count"), "268435456");
  EXPECT_EQ(params.at("ranks"), "2");
  EXPECT_EQ(params.at("placement"), "in_place");
  EXPECT_EQ(params.at("calls_per_sample"), "1");
  EXPECT_EQ(params.at("datatype"), "float32");
  EXPECT_EQ(params.at("op"), "sum");
  EXPECT_EQ(params.count("root"), 0u);
  EXPECT_EQ(params.at("nccl_algo_forced"), "ring");
  EXPECT_EQ(params.at("nccl_proto_forced"), "simple");
  EXPECT_EQ(params.at("nccl_algo_used"), "unknown");
  EXPECT_EQ(params.at("nccl_proto_used"), "unknown");
  m.used = NcclCombination{"ring", "ll128"};
  params = collective_params(m);
  EXPECT_EQ(params.at("nccl_algo_used"), "ring");
  EXPECT_EQ(params.at("nccl_proto_used"), "ll128");
}

TEST(CollectiveReport, OtherCollectivesByTheirOwnBusFactorOpAndRoot) {
  CollectiveMeasurement m;
  m.collective = Collective::AllGather;
  m.bytes = kGiB;        // the receive buffer
  m.count = kGiB / 16;   // each of 4 ranks sends a quarter of it, in floats
  m.ranks = 4;
  m.mean_seconds = 4e-3;
  m.forced = {"auto", "auto"};
  EXPECT_NEAR(busbw_gbps(m), 268.435456 * 0.75, 1e-9);
  std::map<std::string, std::string> params = collective_params(m);
  EXPECT_EQ(params.at("collective"), "allgather");
  EXPECT_EQ(params.at("algbw_GBps"), "268.435");
  EXPECT_EQ(params.at("count"), "67108864");
  EXPECT_EQ(params.at("op"), "none");
  EXPECT_EQ(params.count("root"), 0u);

  m.collective = Collective::Broadcast;
  EXPECT_NEAR(busbw_gbps(m), 268.435456, 1e-9);
  params = collective_params(m);
  EXPECT_EQ(params.at("op"), "none");
  EXPECT_EQ(params.at("root"), "0");

  m.collective = Collective::Reduce;
  params = collective_params(m);
  EXPECT_EQ(params.at("op"), "sum");
  EXPECT_EQ(params.at("root"), "0");
}

}  // namespace
}  // namespace gpubench
