#include "harness/report/show_tables.hpp"

#include <gtest/gtest.h>

#include "harness/report/size_segment.hpp"

namespace gpubench {
namespace {

Metric figure(const std::string& id, double value, std::map<std::string, std::string> params = {}) {
  Metric m;
  m.id = id;
  m.family = id.substr(0, id.find('/'));
  m.benchmark = id.substr(0, id.rfind('/'));
  m.value = value;
  m.unit = "GB/s";
  m.samples = {value};
  m.params = std::move(params);
  return m;
}

const ShowTable& table_titled(const ShowReport& report, const std::string& start) {
  for (const ShowTable& table : report.tables) {
    if (table.title.rfind(start, 0) == 0) return table;
  }
  throw std::runtime_error("no table titled " + start);
}

double number(const ShowCell& cell) { return std::get<double>(cell); }

TEST(SizeSegment, ReadsTheSizesIdsAreWrittenWith) {
  EXPECT_EQ(parse_size_segment("8B"), 8u);
  EXPECT_EQ(parse_size_segment("4KiB"), 4096u);
  EXPECT_EQ(parse_size_segment("256MiB"), 256u << 20);
  EXPECT_EQ(parse_size_segment("4GiB"), std::uint64_t{4} << 30);
  for (const char* other : {"", "KiB", "1KB", "064MiB", "1GiBs", "gpu0", "8192x8192x8192", "1234567890B"}) {
    EXPECT_FALSE(parse_size_segment(other)) << other;
  }
}

TEST(ShowTables, AllReduceAsNcclTestsPrintsIt) {
  ResultsDocument doc;
  const std::map<std::string, std::string> four_ranks = {{"ranks", "4"}, {"datatype", "float32"}};
  doc.metrics = {figure("nccl/allreduce/ring/ll/1GiB/out_of_place/busbw", 300, four_ranks),
                 figure("nccl/allreduce/ring/ll/8B/out_of_place/busbw", 0.001, four_ranks),
                 figure("nccl/allreduce/ring/ll/64B/out_of_place/busbw", 0.01, {{"datatype", "opaque"}})};
  const ShowReport report = show_tables(doc, "r.json", "");
  ASSERT_EQ(report.tables.size(), 1u);
  const ShowTable& ring = report.tables[0];
  EXPECT_EQ(ring.kind, ShowTableKind::Collective);
  EXPECT_EQ(ring.title, "nccl allreduce, algorithm ring, protocol ll, 4 ranks");
  ASSERT_EQ(ring.columns.size(), 6u) << "out of place only: no in-place columns";
  EXPECT_EQ(ring.columns[3].group, "out_of_place");
  ASSERT_EQ(ring.rows.size(), 3u);
  EXPECT_EQ(std::get<std::uint64_t>(ring.rows[0][0]), 8u) << "smallest first";
  const std::vector<ShowCell>& gib = ring.rows[2];
  EXPECT_EQ(std::get<std::uint64_t>(gib[1]), (std::uint64_t{1} << 30) / 4);
  EXPECT_EQ(std::get<std::string>(gib[2]), "float32");
  // Four ranks: busbw = algbw x 2(4-1)/4 = 1.5 algbw, so 300 GB/s is algbw 200, 2^30 B / 200e9 B/s = 5368.7 us.
  EXPECT_NEAR(number(gib[4]), 200, 1e-9);
  EXPECT_NEAR(number(gib[3]), 5368.70912, 1e-5);
  EXPECT_NEAR(number(gib[5]), 300, 1e-12);
  // No ranks param: busbw alone; a datatype without its width: no count.
  const std::vector<ShowCell>& small = ring.rows[1];
  EXPECT_TRUE(std::holds_alternative<std::monostate>(small[1]));
  EXPECT_TRUE(std::holds_alternative<std::monostate>(small[3]));
  EXPECT_NEAR(number(small[5]), 0.01, 1e-12);
}

TEST(ShowTables, OtherCollectivesByTheirOwnBusFactorAndNcclsCount) {
  ResultsDocument doc;
  doc.metrics = {figure("nccl/allgather/auto/auto/1GiB/out_of_place/busbw", 150,
                        {{"ranks", "4"}, {"datatype", "float32"}, {"count", "67108864"}}),
                 figure("nccl/broadcast/auto/auto/1GiB/out_of_place/busbw", 200, {{"ranks", "4"}, {"datatype", "float32"}})};
  const ShowReport report = show_tables(doc, "r.json", "");
  // All-gather of 4 ranks: busbw = 3/4 algbw, so 150 GB/s is algbw 200 and 5368.7 us; each rank gives a quarter.
  const std::vector<ShowCell>& gather = table_titled(report, "nccl allgather").rows.at(0);
  EXPECT_EQ(std::get<std::uint64_t>(gather[1]), 67108864u);
  EXPECT_NEAR(number(gather[4]), 200, 1e-9);
  EXPECT_NEAR(number(gather[3]), 5368.70912, 1e-5);
  // Broadcast: busbw = algbw; no count param, so the size's floats.
  const std::vector<ShowCell>& broadcast = table_titled(report, "nccl broadcast").rows.at(0);
  EXPECT_EQ(std::get<std::uint64_t>(broadcast[1]), (std::uint64_t{1} << 30) / 4);
  EXPECT_NEAR(number(broadcast[4]), 200, 1e-9);
}

TEST(ShowTables, PairsAsAMatrixWithTheSourceAsTheRow) {
  ResultsDocument doc;
  doc.metrics = {figure("p2p/ce_unidir/1GiB/gpu0-gpu1/bandwidth", 396), figure("p2p/ce_unidir/1GiB/gpu1-gpu0/bandwidth", 395),
                 figure("p2p/ce_unidir/1GiB/gpu2-gpu0/bandwidth", 50)};
  const ShowReport report = show_tables(doc, "r.json", "");
  ASSERT_EQ(report.tables.size(), 1u);
  const ShowTable& matrix = report.tables[0];
  EXPECT_EQ(matrix.kind, ShowTableKind::PeerMatrix);
  EXPECT_EQ(matrix.title, "p2p/ce_unidir/1GiB/*/bandwidth: copy engine, one way, GPU(row) -> GPU(column), GB/s");
  ASSERT_EQ(matrix.rows.size(), 3u);
  EXPECT_EQ(std::get<std::string>(matrix.rows[2][0]), "gpu2");
  EXPECT_DOUBLE_EQ(number(matrix.rows[0][2]), 396) << "gpu0-gpu1: row gpu0, column gpu1";
  EXPECT_DOUBLE_EQ(number(matrix.rows[2][1]), 50);
  EXPECT_TRUE(std::holds_alternative<std::monostate>(matrix.rows[0][1])) << "the diagonal";
  EXPECT_TRUE(std::holds_alternative<std::monostate>(matrix.rows[0][3])) << "gpu0-gpu2 was not measured";
}

TEST(ShowTables, EightGpusPairsAsEightByEightMatrices) {
  ResultsDocument doc;
  // Every ordered pair of eight GPUs, each figure naming its pair: A -> B at 300 + 10 A + B GB/s, latency 1000 + 10 A + B ns.
  for (int a = 0; a < 8; ++a) {
    for (int b = 0; b < 8; ++b) {
      if (a == b) continue;
      const std::string pair = "gpu" + std::to_string(a) + "-gpu" + std::to_string(b);
      doc.metrics.push_back(figure("p2p/ce_unidir/1GiB/" + pair + "/bandwidth", 300 + 10 * a + b));
      Metric latency = figure("p2p/latency/" + pair + "/latency", 1000 + 10 * a + b);
      latency.unit = "ns";
      doc.metrics.push_back(latency);
    }
  }
  const ShowReport report = show_tables(doc, "r.json", "");
  ASSERT_EQ(report.tables.size(), 2u) << "one matrix per measurement, nothing left for the list";
  const ShowTable& copies = table_titled(report, "p2p/ce_unidir/1GiB/*/bandwidth");
  const ShowTable& latency = table_titled(report, "p2p/latency/*/latency");
  EXPECT_EQ(latency.unit, "ns");
  for (const ShowTable* matrix : {&copies, &latency}) {
    EXPECT_EQ(matrix->kind, ShowTableKind::PeerMatrix);
    ASSERT_EQ(matrix->columns.size(), 9u) << "the row's GPU, then gpu0 .. gpu7";
    ASSERT_EQ(matrix->rows.size(), 8u);
    EXPECT_EQ(matrix->columns[1].name, "gpu0");
    EXPECT_EQ(matrix->columns[8].name, "gpu7");
    std::size_t measured = 0;
    for (int a = 0; a < 8; ++a) {
      const std::vector<ShowCell>& row = matrix->rows[a];
      ASSERT_EQ(row.size(), 9u);
      EXPECT_EQ(std::get<std::string>(row[0]), "gpu" + std::to_string(a));
      EXPECT_TRUE(std::holds_alternative<std::monostate>(row[a + 1])) << "gpu" << a << " against itself";
      for (int b = 0; b < 8; ++b) measured += std::holds_alternative<double>(row[b + 1]) ? 1 : 0;
    }
    EXPECT_EQ(measured, 56u);
  }
  // Row A, column B is A -> B: gpu7 -> gpu6 is 300 + 70 + 6, gpu0 -> gpu7 is 307, gpu3 -> gpu5 is 335 and its reverse 353.
  EXPECT_DOUBLE_EQ(number(copies.rows[7][7]), 376);
  EXPECT_DOUBLE_EQ(number(copies.rows[0][8]), 307);
  EXPECT_DOUBLE_EQ(number(copies.rows[3][6]), 335);
  EXPECT_DOUBLE_EQ(number(copies.rows[5][4]), 353);
  EXPECT_DOUBLE_EQ(number(latency.rows[2][5]), 1024);
}

TEST(ShowTables, EightRanksCollectivesWorkedBackByTheirFactors) {
  ResultsDocument doc;
  doc.metrics = {figure("nccl/allreduce/auto/auto/1GiB/out_of_place/busbw", 469.762048,
                        {{"ranks", "8"}, {"datatype", "float32"}, {"count", "268435456"}}),
                 figure("nccl/alltoall/auto/auto/1GiB/out_of_place/busbw", 234.881024,
                        {{"ranks", "8"}, {"datatype", "float32"}, {"count", "33554432"}}),
                 figure("nccl/sendrecv/auto/auto/1GiB/out_of_place/busbw", 268.435456,
                        {{"ranks", "8"}, {"datatype", "float32"}, {"count", "268435456"}})};
  const ShowReport report = show_tables(doc, "r.json", "");
  ASSERT_EQ(report.tables.size(), 3u);
  // Eight ranks: all-reduce busbw = 1.75 algbw, all-to-all 7/8, send/recv 1; each of these is algbw 268.435456 GB/s,
  // 2^30 B in 4000 us.
  EXPECT_EQ(report.tables[0].title, "nccl allreduce, algorithm auto, protocol auto, 8 ranks");
  for (const char* collective : {"nccl allreduce", "nccl alltoall", "nccl sendrecv"}) {
    const std::vector<ShowCell>& row = table_titled(report, collective).rows.at(0);
    EXPECT_NEAR(number(row[3]), 4000, 1e-6) << collective;
    EXPECT_NEAR(number(row[4]), 268.435456, 1e-9) << collective;
  }
  EXPECT_EQ(std::get<std::uint64_t>(table_titled(report, "nccl alltoall").rows.at(0)[1]), 33554432u) << "a rank's block";
}

TEST(ShowTables, EightGpusSiblingFindingAgainstTheOtherSevensMedian) {
  ResultsDocument doc;
  for (int gpu = 0; gpu < 8; ++gpu) {
    doc.metrics.push_back(figure("p2p/ce_all_to_one/512MiB/gpu" + std::to_string(gpu) + "/bandwidth", gpu == 6 ? 500 : 700));
  }
  const ShowReport report = show_tables(doc, "r.json", "");
  const ShowTable& findings = table_titled(report, "GPUs below their siblings");
  ASSERT_EQ(findings.rows.size(), 1u);
  // gpu6 at 500 against the other seven's 700: -28.6 %.
  EXPECT_EQ(std::get<std::string>(findings.rows[0][0]), "p2p/ce_all_to_one/512MiB/gpu6/bandwidth");
  EXPECT_DOUBLE_EQ(number(findings.rows[0][3]), 700);
  EXPECT_EQ(std::get<std::string>(findings.rows[0][4]), "-28.6 % against the median of the other 7 GPUs (700 GB/s)");
}

TEST(ShowTables, AGpuBelowItsSiblingsIsAFindingAfterTheList) {
  ResultsDocument doc;
  doc.metrics = {figure("p2p/ce_all_to_one/512MiB/gpu0/bandwidth", 360), figure("p2p/ce_all_to_one/512MiB/gpu1/bandwidth", 240)};
  const ShowReport report = show_tables(doc, "r.json", "");
  ASSERT_EQ(report.tables.size(), 2u);
  EXPECT_EQ(report.tables[0].kind, ShowTableKind::List);
  const ShowTable& findings = report.tables[1];
  EXPECT_EQ(findings.kind, ShowTableKind::Findings);
  EXPECT_STREQ(to_string(findings.kind), "findings");
  ASSERT_EQ(findings.rows.size(), 1u);
  EXPECT_EQ(std::get<std::string>(findings.rows[0][0]), "p2p/ce_all_to_one/512MiB/gpu1/bandwidth");
  EXPECT_DOUBLE_EQ(number(findings.rows[0][3]), 360);
  // The filter applies: without gpu0's figure there is nothing to compare gpu1 with.
  for (const ShowTable& table : show_tables(doc, "r.json", "gpu1").tables) EXPECT_NE(table.kind, ShowTableKind::Findings);
}

TEST(ShowTables, SizeSweepsAsRowsAndSingleSizesInTheList) {
  ResultsDocument doc;
  doc.metrics = {figure("memory/triad/1GiB/gpu0/bandwidth", 4300), figure("pcie/h2d/pinned/1GiB/gpu0/bandwidth", 55),
                 figure("pcie/h2d/pinned/4KiB/gpu0/bandwidth", 1.5), figure("pcie/d2h/pinned/1GiB/gpu0/bandwidth", 54),
                 figure("launch/graph_replay/100/gpu0/time_per_kernel", 1.0)};
  doc.failures = {{"pcie/d2h/pinned/4KiB/gpu0", "pcie", FailureKind::WrongResult, "wrong bytes", "re-run"},
                  {"memory/read/1GiB/gpu0", "memory", FailureKind::WrongResult, "wrong", "re-run"}};
  doc.skipped = {{"p2p/ce_unidir/1GiB/gpu0-gpu1", "p2p", "needs two GPUs"}};
  const ShowReport report = show_tables(doc, "r.json", "");
  ASSERT_EQ(report.tables.size(), 4u);
  EXPECT_EQ(report.tables[0].kind, ShowTableKind::SizeSweep);
  EXPECT_EQ(report.tables[1].kind, ShowTableKind::List) << "the list after every table";
  EXPECT_EQ(report.tables[2].kind, ShowTableKind::Failures);
  EXPECT_EQ(report.tables[3].kind, ShowTableKind::Skipped);
  const ShowTable& pcie = table_titled(report, "pcie bandwidth by size");
  ASSERT_EQ(pcie.columns.size(), 3u);
  EXPECT_EQ(pcie.columns[1].name, "4KiB") << "sizes sorted by bytes, not as text";
  EXPECT_EQ(pcie.columns[2].name, "1GiB");
  EXPECT_EQ(std::get<std::string>(pcie.rows[1][0]), "pcie/d2h/pinned/*/gpu0/bandwidth");
  EXPECT_TRUE(std::holds_alternative<std::monostate>(pcie.rows[1][1]));
  const ShowTable& list = report.tables[1];
  ASSERT_EQ(list.rows.size(), 2u) << "one size is no sweep; a count of kernels is no size";
  EXPECT_EQ(std::get<std::string>(list.rows[0][0]), "memory/triad/1GiB/gpu0/bandwidth");

  const ShowReport filtered = show_tables(doc, "r.json", "^pcie/");
  ASSERT_EQ(filtered.tables.size(), 2u);
  EXPECT_EQ(filtered.tables[1].rows.size(), 1u) << "failures filtered by benchmark";
  EXPECT_THROW(show_tables(doc, "r.json", "("), std::invalid_argument);
}

}  // namespace
}  // namespace gpubench
