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

// On one GPU most of the suite's pair and NCCL benchmarks skip for one reason: a row per reason, with how many and
// their families, not a row each.
TEST(ShowTables, SkipsAreARowPerReasonWithTheCount) {
  ResultsDocument doc;
  doc.metrics = {figure("memory/triad/1GiB/gpu0/bandwidth", 4300)};
  for (const char* benchmark :
       {"p2p/ce_unidir/1GiB/gpu0-gpu1", "p2p/latency/gpu0-gpu1", "nccl/allreduce/ring/simple/8B/out_of_place"}) {
    doc.skipped.push_back({benchmark, "", "needs two GPUs; 1 selected"});
  }
  doc.skipped.push_back({"gemm/fp8_e4m3/8192x8192x8192/gpu0", "", "FP8 needs compute capability 8.9"});
  const ShowReport report = show_tables(doc, "r.json", "");
  const ShowTable& skipped = report.tables.back();
  EXPECT_EQ(skipped.kind, ShowTableKind::Skipped);
  ASSERT_EQ(skipped.rows.size(), 2u);
  EXPECT_EQ(skipped.rows[0], (std::vector<ShowCell>{std::string("needs two GPUs; 1 selected"), std::uint64_t{3},
                                                    std::string("p2p, nccl")}));
  EXPECT_EQ(skipped.rows[1], (std::vector<ShowCell>{std::string("FP8 needs compute capability 8.9"), std::uint64_t{1},
                                                    std::string("gemm")}));
  const ShowReport only_p2p = show_tables(doc, "r.json", "^p2p/");
  const ShowTable& filtered = only_p2p.tables.back();
  ASSERT_EQ(filtered.rows.size(), 1u);
  EXPECT_EQ(std::get<std::uint64_t>(filtered.rows[0][1]), 2u) << "the filter picks the benchmarks counted";
}

// Where a figure has a peak, the fraction of it; a GEMM figure says whether it is sustained or a burst, and at which
// shape (the maximum achievable: the shape it was reached at, and the sustained figure there).
TEST(ShowTables, TheListGivesTheFractionOfPeakAndWhatEachGemmFigureIs) {
  ResultsDocument doc;
  Metric triad = figure("memory/triad/1GiB/gpu0/bandwidth", 4334.3);
  triad.peak = 4814.3;
  Metric max = figure("gemm/max_achievable/bf16/gpu0/tflops", 836.4,
                      {{"best_shape", "8192x8192x16384"}, {"best_shape_sustained_tflops", "690.1"},
                       {"shapes_searched", "27"}});
  max.peak = 1070.53;
  max.efficiency = 836.4 / 1070.53;
  doc.metrics = {triad, figure("gemm/bf16/8192x8192x8192/gpu0/tflops", 687.5),
                 figure("gemm/burst/bf16/8192x8192x8192/gpu0/tflops", 826.8), max,
                 figure("launch/graph_replay/100/gpu0/time_per_kernel", 1.0)};
  const ShowReport report = show_tables(doc, "r.json", "");
  const ShowTable& list = report.tables.at(0);
  ASSERT_EQ(list.columns.size(), 5u);
  EXPECT_EQ(list.columns[3].name, "of peak");
  EXPECT_EQ(list.columns[3].unit, "%");
  EXPECT_EQ(list.columns[4].name, "measured as");
  EXPECT_NEAR(number(list.rows[0][3]), 100 * 4334.3 / 4814.3, 1e-9);
  EXPECT_EQ(list.rows[0][4], ShowCell{}) << "nothing to add to a triad's id";
  EXPECT_EQ(std::get<std::string>(list.rows[1][4]), "sustained, 8192x8192x8192");
  EXPECT_EQ(std::get<std::string>(list.rows[2][4]), "burst from idle, 8192x8192x8192");
  EXPECT_NEAR(number(list.rows[3][3]), 100 * 836.4 / 1070.53, 1e-9);
  EXPECT_EQ(std::get<std::string>(list.rows[3][4]),
            "burst from idle, fastest of 27 shapes: 8192x8192x16384 (sustained there: 690.1 TFLOP/s)");
  EXPECT_EQ(list.rows[4][3], ShowCell{}) << "a latency has no peak";
  EXPECT_EQ(show_tables(doc, "r.json", "launch").tables.at(0).columns.size(), 3u)
      << "no peak and no GEMM among them: no empty columns";
}

TEST(ShowTables, ASweepWithAPeakSaysItAndTheBestFractionReached) {
  ResultsDocument doc;
  for (const auto& [size, value] : std::vector<std::pair<std::string, double>>{{"4KiB", 1.6}, {"1GiB", 55.5}}) {
    Metric m = figure("pcie/h2d/pinned/" + size + "/gpu0/bandwidth", value);
    m.peak = 63.0;
    doc.metrics.push_back(m);
  }
  doc.metrics.push_back(figure("alloc/cuda_malloc/2MiB/gpu0/time_per_call", 29.6));
  doc.metrics.push_back(figure("alloc/cuda_malloc/256MiB/gpu0/time_per_call", 37.9));
  const ShowReport report = show_tables(doc, "r.json", "");
  const ShowTable& pcie = table_titled(report, "pcie bandwidth by size");
  ASSERT_EQ(pcie.columns.size(), 5u);
  EXPECT_EQ(pcie.columns[3].name, "peak");
  EXPECT_EQ(pcie.columns[4].name, "best of peak");
  EXPECT_DOUBLE_EQ(number(pcie.rows[0][3]), 63.0);
  EXPECT_NEAR(number(pcie.rows[0][4]), 100 * 55.5 / 63.0, 1e-9);
  EXPECT_EQ(table_titled(report, "alloc time_per_call by size").columns.size(), 3u) << "no peak, no such columns";
}

// One table of fixed columns, a row per metric shown, for CSV: each row says its run and what its figure is.
TEST(ShowTables, EveryMetricShownIsARowOfFixedColumns) {
  ResultsDocument doc;
  doc.run.id = "run-1";
  doc.run.host = "node7";
  doc.run.started_at = "2026-12-02T06:29:38Z";
  Metric triad = figure("memory/triad/1GiB/gpu0/bandwidth", 4300);
  triad.peak = 4800;
  triad.samples = {4290, 4300, 4310};
  triad.statistics = summarize(triad.samples);
  doc.metrics = {triad, figure("p2p/ce_unidir/1GiB/gpu0-gpu1/bandwidth", 390),
                 figure("pcie/h2d/pinned/1GiB/all_gpus/bandwidth", 110),
                 figure("nccl/allreduce/ring/simple/1GiB/out_of_place/busbw", 330)};
  doc.skipped = {{"p2p/latency/gpu0-gpu1", "p2p", "not here"}};
  const ShowReport report = show_tables(doc, "r.json", "");
  const ShowTable& rows = report.metrics;
  EXPECT_EQ(rows.kind, ShowTableKind::Metrics);
  ASSERT_EQ(rows.columns.size(), kShowMetricColumns.size());
  for (std::size_t c = 0; c < rows.columns.size(); ++c) EXPECT_EQ(rows.columns[c].name, kShowMetricColumns[c]);
  ASSERT_EQ(rows.rows.size(), 4u) << "metrics only: the skip is not a row";
  const auto cell = [&rows](std::size_t row, const std::string& column) {
    const auto at = std::find(kShowMetricColumns.begin(), kShowMetricColumns.end(), column);
    return rows.rows[row].at(static_cast<std::size_t>(at - kShowMetricColumns.begin()));
  };
  EXPECT_EQ(std::get<std::string>(cell(0, "run_id")), "run-1");
  EXPECT_EQ(std::get<std::string>(cell(0, "host")), "node7");
  EXPECT_EQ(std::get<std::string>(cell(0, "family")), "memory");
  EXPECT_EQ(std::get<std::string>(cell(0, "gpu")), "0");
  EXPECT_EQ(std::get<std::uint64_t>(cell(0, "repetitions")), 3u);
  EXPECT_DOUBLE_EQ(number(cell(0, "min")), 4290);
  EXPECT_DOUBLE_EQ(number(cell(0, "fraction_of_peak")), 4300.0 / 4800);
  EXPECT_EQ(std::get<std::string>(cell(0, "better")), "higher");
  EXPECT_EQ(std::get<std::string>(cell(1, "gpu")), "0-1");
  EXPECT_EQ(cell(1, "peak"), ShowCell{});
  EXPECT_EQ(std::get<std::string>(cell(2, "gpu")), "all");
  EXPECT_EQ(cell(3, "gpu"), ShowCell{}) << "NCCL's figure belongs to no GPU";
  EXPECT_EQ(show_tables(doc, "r.json", "^memory/").metrics.rows.size(), 1u) << "the filter applies";
}

}  // namespace
}  // namespace gpubench
