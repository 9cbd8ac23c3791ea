// What an NCCL benchmark reports: the reason of a wrong result, the figure and its params. No GPU needed.
#include "benchmarks/nccl/collective_report.hpp"

#include <gtest/gtest.h>

#include "benchmarks/nccl/collective_table.hpp"

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

TEST(CollectiveReport, EightRanksEveryCollectiveByHand) {
  // 1 GiB a call among 8 ranks in 4 ms: algbw 2^30 B / 4 ms = 268.435 GB/s; busbw 1.75 x for all-reduce, 7/8 for
  // all-gather, reduce-scatter and all-to-all (NCCL is given a block of 2^28 / 8 = 33,554,432 floats), 1 for the
  // rest (NCCL is given the whole 268,435,456 floats).
  const std::map<Collective, std::pair<double, std::string>> expected = {
      {Collective::AllReduce, {469.762048, "268435456"}},     {Collective::AllGather, {234.881024, "33554432"}},
      {Collective::ReduceScatter, {234.881024, "33554432"}}, {Collective::Broadcast, {268.435456, "268435456"}},
      {Collective::Reduce, {268.435456, "268435456"}},       {Collective::AllToAll, {234.881024, "33554432"}},
      {Collective::SendRecv, {268.435456, "268435456"}},
  };
  for (const auto& [collective, figures] : expected) {
    const CallShape shape = call_shape(collective_spec(collective), kGiB, 8);
    CollectiveMeasurement m;
    m.collective = collective;
    m.bytes = shape.bytes();
    m.count = shape.block;
    m.ranks = 8;
    m.mean_seconds = 4e-3;
    m.forced = {"auto", "auto"};
    EXPECT_NEAR(busbw_gbps(m), figures.first, 1e-6) << collective_id_name(collective);
    const std::map<std::string, std::string> params = collective_params(m);
    EXPECT_EQ(params.at("ranks"), "8");
    EXPECT_EQ(params.at("bytes"), "1073741824");
    EXPECT_EQ(params.at("count"), figures.second) << collective_id_name(collective);
    EXPECT_EQ(params.at("algbw_GBps"), "268.435");
    EXPECT_EQ(params.at("time_us"), "4000");
  }
}

}  // namespace
}  // namespace gpubench
