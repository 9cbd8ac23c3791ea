// `gpubench report`'s model: which chart each figure goes to, a stress section's telemetry, trends with their change
// points, and the HTML page the model is written into. (tests/cli/report_html_test.py draws real pages in Chromium.)
#include "harness/report/report_charts.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "harness/report/chart_axes.hpp"
#include "harness/report/gemm_charts.hpp"
#include "harness/report/html_report.hpp"
#include "harness/report/html_report_assets.hpp"
#include "harness/report/size_charts.hpp"
#include "harness/report/stress_charts.hpp"
#include "harness/report/thinned_series.hpp"
#include "harness/report/trend_charts.hpp"
#include "harness/results/input_error.hpp"
#include "harness/stress/stress_document.hpp"

namespace gpubench {
namespace {

Metric figure(const std::string& id, double value, const std::string& unit = "GB/s",
              std::optional<double> peak = std::nullopt) {
  Metric m;
  m.id = id;
  m.family = id.substr(0, id.find('/'));
  m.benchmark = id.substr(0, id.rfind('/'));
  m.value = value;
  m.unit = unit;
  m.samples = {value};
  m.peak = peak;
  return m;
}

const ReportChart& chart_titled(const std::vector<ReportChart>& charts, const std::string& title) {
  for (const ReportChart& chart : charts) {
    if (chart.title == title) return chart;
  }
  throw std::runtime_error("no chart titled " + title);
}

TEST(SizeCharts, NcclAsAChartPerCollectiveAndPlacementWithALinePerAlgorithmAndProtocol) {
  ResultsDocument doc;
  doc.metrics = {figure("nccl/allreduce/ring/simple/1GiB/out_of_place/busbw", 330),
                 figure("nccl/allreduce/ring/simple/8B/out_of_place/busbw", 0.0005),
                 figure("nccl/allreduce/tree/ll/8B/out_of_place/busbw", 0.0004),
                 figure("nccl/allreduce/tree/ll/1GiB/out_of_place/busbw", 114),
                 figure("nccl/allreduce/ring/simple/1GiB/in_place/busbw", 327),
                 figure("nccl/allreduce/ring/simple/8B/in_place/busbw", 0.0005),
                 figure("nccl/allgather/plain/8B/time_per_call", 9.1, "us"),
                 figure("nccl/allgather/plain/4KiB/time_per_call", 9.4, "us"),
                 figure("nccl/allgather/graph/8B/time_per_call", 4.2, "us"),
                 figure("nccl/allgather/graph/4KiB/time_per_call", 4.3, "us")};
  const std::vector<ReportChart> charts = size_charts(doc);
  ASSERT_EQ(charts.size(), 3u);
  const ReportChart& out = charts[0];
  EXPECT_EQ(out.title, "nccl allreduce busbw, out of place (GB/s)");
  EXPECT_EQ(out.x_axis, ChartXAxis::Bytes);
  EXPECT_TRUE(out.y_log) << "8 B and 1 GiB are six decades apart";
  ASSERT_EQ(out.series.size(), 2u);
  EXPECT_EQ(out.series[0].label, "ring/simple");
  EXPECT_EQ(out.series[0].x, (std::vector<double>{8, 1073741824.0})) << "smallest first";
  EXPECT_EQ(out.series[1].label, "tree/ll");
  EXPECT_EQ(charts[1].title, "nccl allreduce busbw, in place (GB/s)");
  const ReportChart& enqueue = charts[2];
  EXPECT_EQ(enqueue.title, "nccl allgather time_per_call (us)");
  ASSERT_EQ(enqueue.series.size(), 2u) << "plain against graph replay";
  EXPECT_EQ(enqueue.series[1].label, "graph");
}

TEST(SizeCharts, ALinePerGpuOrPairAndThePeakWhenAllShareOne) {
  ResultsDocument doc;
  for (const char* gpu : {"gpu0", "gpu1"}) {
    for (const char* size : {"4KiB", "1GiB"}) {
      doc.metrics.push_back(figure(std::string("pcie/h2d/pinned/") + size + "/" + gpu + "/bandwidth", 50, "GB/s", 63));
    }
  }
  doc.metrics.push_back(figure("p2p/ce_unidir/16MiB/gpu0-gpu1/bandwidth", 357));
  doc.metrics.push_back(figure("p2p/ce_unidir/1GiB/gpu0-gpu1/bandwidth", 396));
  doc.metrics.push_back(figure("p2p/ce_unidir/1GiB/gpu1-gpu0/bandwidth", 396));
  doc.metrics.push_back(figure("memory/triad/1GiB/gpu0/bandwidth", 4362));  // one size: no sweep
  const std::vector<ReportChart> charts = size_charts(doc);
  ASSERT_EQ(charts.size(), 2u);
  const ReportChart& pcie = chart_titled(charts, "pcie h2d pinned bandwidth (GB/s)");
  ASSERT_EQ(pcie.series.size(), 3u);
  EXPECT_EQ(pcie.series[0].label, "gpu0");
  EXPECT_EQ(pcie.series[1].label, "gpu1");
  EXPECT_TRUE(pcie.series[2].reference);
  EXPECT_EQ(pcie.series[2].y, (std::vector<std::optional<double>>{63.0, 63.0}));
  EXPECT_FALSE(pcie.y_log);
  const ReportChart& p2p = chart_titled(charts, "p2p ce_unidir bandwidth (GB/s)");
  ASSERT_EQ(p2p.series.size(), 2u) << "no peak: none of them has one";
  EXPECT_EQ(p2p.series[0].label, "gpu0 -> gpu1");
  EXPECT_EQ(p2p.series[1].x.size(), 1u) << "gpu1 -> gpu0 measured at 1 GiB only";
}

TEST(GemmCharts, ABarPerGpuAtEachShapeAgainstThePeak) {
  ResultsDocument doc;
  for (const char* gpu : {"gpu0", "gpu1"}) {
    const std::string at = std::string("/") + gpu + "/tflops";
    doc.metrics.push_back(figure("gemm/bf16/4096x4096x4096" + at, 640, "TFLOP/s", 1070.5));
    doc.metrics.push_back(figure("gemm/bf16/8192x8192x8192" + at, 690, "TFLOP/s", 1070.5));
    doc.metrics.push_back(figure("gemm/burst/bf16/8192x8192x8192" + at, 821.6, "TFLOP/s", 1070.5));
    doc.metrics.push_back(figure("gemm/max_achievable/bf16" + at, 835, "TFLOP/s", 1070.5));
    doc.metrics.push_back(figure("gemm/tensor_core_speedup/8192x8192x8192" + at.substr(0, 5) + "/ratio", 8.9, "x"));
  }
  doc.metrics.push_back(figure("gemm/fp32/8192x8192x8192/gpu0/tflops", 49.4, "TFLOP/s"));
  const std::vector<ReportChart> charts = gemm_charts(doc);
  ASSERT_EQ(charts.size(), 2u);
  const ReportChart& bf16 = charts[0];
  EXPECT_EQ(bf16.title, "gemm bf16, TFLOP/s per shape");
  EXPECT_EQ(bf16.kind, ChartKind::Bar);
  EXPECT_EQ(bf16.categories, (std::vector<std::string>{"4096x4096x4096", "8192x8192x8192", "burst 8192x8192x8192",
                                                       "max achievable"}));
  ASSERT_EQ(bf16.series.size(), 3u);
  EXPECT_EQ(bf16.series[1].label, "gpu1");
  EXPECT_EQ(bf16.series[2].label, "peak 1070.5 TFLOP/s");
  EXPECT_TRUE(bf16.series[2].reference);
  ASSERT_EQ(bf16.notes.size(), 1u);
  EXPECT_EQ(bf16.notes[0], "each bar is 59.8 % to 78.0 % of its GPU's peak");
  EXPECT_EQ(charts[1].series.size(), 1u) << "fp32 without a peak: no line, no note";
  EXPECT_TRUE(charts[1].notes.empty());
}

// The maximum achievable's bar names the shape it was reached at, where the params say.
TEST(GemmCharts, TheMaximumAchievableBarNamesItsShape) {
  ResultsDocument doc;
  doc.metrics.push_back(figure("gemm/bf16/8192x8192x8192/gpu0/tflops", 690, "TFLOP/s"));
  doc.metrics.push_back(figure("gemm/max_achievable/bf16/gpu0/tflops", 836.4, "TFLOP/s"));
  doc.metrics.back().params = {{"best_shape", "8192x8192x16384"}, {"best_shape_sustained_tflops", "690.1"}};
  const std::vector<ReportChart> charts = gemm_charts(doc);
  ASSERT_EQ(charts.size(), 1u);
  EXPECT_EQ(charts[0].categories, (std::vector<std::string>{"8192x8192x8192", "max achievable 8192x8192x16384"}));
}

GpuStressRecord stressed_gpu(int index, int seconds) {
  GpuStressRecord gpu;
  gpu.index = index;
  gpu.name = "NVIDIA H200";
  for (int t = 0; t < seconds; ++t) {
    StressSample s;
    s.t = t;
    s.temperature_c = 40 + t % 30;
    s.power_w = t == 3 ? -1 : 690;  // one reading NVML could not give
    s.sm_clock_mhz = t == seconds / 2 ? 1100 : 1410;  // one dip
    gpu.telemetry.push_back(s);
  }
  gpu.windows = {{0, 10, 655}, {10, 20, 650}};
  return gpu;
}

ResultsDocument stress_document(const std::vector<GpuStressRecord>& gpus) {
  ResultsDocument doc;
  std::vector<GpuStressVerdict> verdicts(gpus.size());
  add_stress_to_document(gpus, verdicts, {}, 60, doc);
  return doc;
}

TEST(StressCharts, ThroughputAndTelemetryOverTimePerGpu) {
  const std::vector<ReportChart> charts = stress_charts(stress_document({stressed_gpu(0, 60), stressed_gpu(1, 60)}),
                                                        "s.json");
  ASSERT_EQ(charts.size(), 4u);
  const ReportChart& throughput = charts[0];
  EXPECT_EQ(throughput.x_axis, ChartXAxis::Seconds);
  ASSERT_EQ(throughput.series.size(), 2u);
  EXPECT_EQ(throughput.series[1].label, "gpu1");
  EXPECT_EQ(throughput.series[0].x, (std::vector<double>{5, 15})) << "at each window's middle";
  const ReportChart& power = chart_titled(charts, "stress: power (W)");
  EXPECT_FALSE(power.series[0].y[3]) << "-1: not readable, left out";
  EXPECT_EQ(power.series[0].y[4], 690);
  EXPECT_TRUE(power.notes.empty());
  EXPECT_TRUE(stress_charts(ResultsDocument{}, "r.json").empty()) << "no stress run, no stress charts";
}

TEST(StressCharts, ALongRunIsThinnedKeepingItsDips) {
  const std::vector<ReportChart> charts = stress_charts(stress_document({stressed_gpu(0, 86400)}), "day.json");
  const ReportChart& clock = chart_titled(charts, "stress: SM clock (MHz)");
  const ChartSeries& line = clock.series[0];
  EXPECT_LE(line.x.size(), kMostStressPoints);
  EXPECT_NE(std::find(line.y.begin(), line.y.end(), std::optional<double>(1100)), line.y.end()) << "the dip is kept";
  ASSERT_EQ(clock.notes.size(), 1u);
  EXPECT_EQ(clock.notes[0], "gpu0: 86400 readings, drawn as the lowest and highest of each of 1000 equal stretches");
}

TEST(StressCharts, ASectionNotAsDocumentedIsABadInputNamingTheField) {
  ResultsDocument doc = stress_document({stressed_gpu(0, 10)});
  doc.stress["gpus"][0]["telemetry"]["samples"][2] = "hot";
  try {
    stress_charts(doc, "bad.json");
    FAIL() << "no InputError";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("bad.json: field 'stress.gpus[0].telemetry.samples[2]'"), std::string::npos)
        << error.what();
  }
  doc.stress["gpus"] = "none";
  EXPECT_THROW(stress_charts(doc, "bad.json"), InputError);
}

TEST(ThinnedSeries, KeepsEachStretchsLowestAndHighestInOrder) {
  XySeries series;
  for (int i = 0; i < 10; ++i) {
    series.x.push_back(i);
    series.y.push_back(i == 2 ? 0.0 : (i == 7 ? 9.0 : 5.0));
  }
  EXPECT_EQ(thinned_series(series, 10).x.size(), 10u) << "short enough: as it is";
  const XySeries kept = thinned_series(series, 4);  // two stretches: 0-4 and 5-9
  EXPECT_EQ(kept.x, (std::vector<double>{0, 2, 5, 7}));
  EXPECT_EQ(kept.y, (std::vector<std::optional<double>>{5.0, 0.0, 5.0, 9.0}));
}

SourcedResults night(int day, const std::string& host, double triad) {
  SourcedResults run;
  run.path = host + std::to_string(day) + ".json";
  run.results.run.id = host + "-" + std::to_string(day);
  run.results.run.host = host;
  run.results.run.started_at = "2026-11-" + std::string(day < 10 ? "0" : "") + std::to_string(day) + "T02:00:00Z";
  run.results.metrics = {figure("memory/triad/1GiB/gpu0/bandwidth", triad), figure("pcie/h2d/pinned/1GiB/gpu0/bandwidth", 55)};
  return run;
}

TEST(TrendCharts, APointPerRunALinePerHostAndTheChangePointMarked) {
  std::vector<SourcedResults> runs;
  for (int day = 1; day <= 12; ++day) runs.push_back(night(day, "a", (day <= 6 ? 4390 : 3950) + day % 3));
  runs.push_back(night(13, "b", 4400));
  runs.back().results.metrics.pop_back();  // b has no pcie figure
  const std::vector<ReportChart> charts = trend_charts(runs, IdPattern("memory/"));
  ASSERT_EQ(charts.size(), 1u) << "only what the pattern picks";
  const ReportChart& triad = charts[0];
  EXPECT_EQ(triad.categories.size(), 13u);
  EXPECT_EQ(triad.categories[0], "2026-11-01 02:00");
  ASSERT_EQ(triad.series.size(), 2u);
  EXPECT_EQ(triad.series[0].label, "a");
  EXPECT_EQ(triad.series[0].marked, (std::vector<std::size_t>{6})) << "the seventh night is the first after the step";
  EXPECT_FALSE(triad.series[0].y[12]) << "night 13 is b's";
  EXPECT_EQ(triad.series[1].y[12], 4400);
  ASSERT_EQ(triad.notes.size(), 1u);
  EXPECT_NE(triad.notes[0].find("2026-11-07 02:00, a: 4391.0 -> 3951.0 GB/s (-10.0 %, worse"), std::string::npos)
      << triad.notes[0];
  EXPECT_NE(triad.notes[0].find("between runs a-6 and a-7"), std::string::npos) << triad.notes[0];
}

TEST(ReportPage, TheLastRunToStartInFullAndTrendsOnlyForASeries) {
  std::vector<SourcedResults> runs = {night(2, "a", 4390), night(1, "a", 4380)};
  runs[0].results.metrics.push_back(figure("pcie/h2d/pinned/4KiB/gpu0/bandwidth", 1.5));
  const ReportPage page = report_page(runs, IdPattern("nothing-matches"));
  ASSERT_EQ(page.runs.size(), 2u);
  EXPECT_EQ(page.runs[1].run_id, "a-2") << "oldest first, whatever the order given";
  ASSERT_FALSE(page.sections.empty());
  EXPECT_EQ(page.sections[0].title, "Against size") << "night 2's two PCIe sizes";
  EXPECT_EQ(page.sections.back().title, "Trends");
  EXPECT_EQ(page.sections.back().about, "none of the headline metrics is in two runs or more");
  for (const ReportSection& section : report_page({night(1, "a", 4380)}, IdPattern("")).sections) {
    EXPECT_NE(section.title, "Trends") << "one run has no trend";
  }
}

std::string page_text(const ReportPage& page) {
  std::ostringstream out;
  write_html_report(page, out);
  return out.str();
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

TEST(HtmlReport, OnePageWithItsChartsDrawnAndItsStatus) {
  std::vector<SourcedResults> runs = {night(1, "a", 4380)};
  runs[0].results.metrics.push_back(figure("pcie/h2d/pinned/4KiB/gpu0/bandwidth", 1.5));
  runs[0].results.metrics.push_back(figure("p2p/ce_unidir/1GiB/gpu0-gpu1/bandwidth", 396));
  runs[0].results.metrics.push_back(figure("p2p/ce_unidir/1GiB/gpu1-gpu0/bandwidth", 198));
  const std::string html = page_text(report_page(runs, IdPattern("")));
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0u);
  EXPECT_EQ(count(html, "<svg class=\"chart\""), 1u) << "pcie h2d at two sizes";
  EXPECT_NE(html.find("<title>gpu0, 4 KiB: 1.5 GB/s</title>"), std::string::npos) << "each point's value, as a tooltip";
  EXPECT_NE(html.find("data-expected=\"1\" data-charts=\"1\" data-errors=\"0\" data-done=\"true\""), std::string::npos);
  EXPECT_EQ(count(html, "<script"), 1u) << "the page's own script only: no chart library";
  EXPECT_NE(html.find("<table class=\"heatmap\">"), std::string::npos);
  EXPECT_NE(html.find("style=\"background:rgb(31,78,140);color:#fff\">396.0</td>"), std::string::npos)
      << "the highest pair the darkest";
  EXPECT_NE(html.find("style=\"background:rgb(133,160,196);color:#111\">198.0</td>"), std::string::npos)
      << "half the rate, half way";
}

// A series the chart cannot draw a point of (here: no value the log axis can show) is an error the page states.
TEST(HtmlReport, ASeriesWithNothingToDrawIsAnErrorInTheStatus) {
  ReportPage page;
  page.runs = {RunLabel{"r.json", "r", "h", "2026-12-01T00:00:00Z", "1 x NVIDIA H200"}};
  ReportChart chart;
  chart.title = "empty";
  chart.y_log = true;
  chart.series = {{"gpu0", {4096, 8192}, {1.0, 2.0}, {}, false},
                  {"gpu1", {4096, 8192}, {0.0, std::nullopt}, {}, false}};
  page.sections = {{"Against size", "", {chart}, {}}};
  const std::string html = page_text(page);
  EXPECT_NE(html.find("data-expected=\"1\" data-charts=\"0\" data-errors=\"1\" data-done=\"true\" class=\"failed\""),
            std::string::npos) << html;
  EXPECT_NE(html.find("<li>chart 1 (empty): no point of gpu1</li>"), std::string::npos);
}

TEST(HtmlReport, NothingFromADocumentBecomesMarkup) {
  std::vector<SourcedResults> runs = {night(1, "</script><script>alert(1)</script>", 4380)};
  for (const char* size : {"8B", "1GiB"}) {  // algorithm "x<" and protocol "script>...": a line "x</script>..."
    runs[0].results.metrics.push_back(figure(std::string("nccl/allreduce/x</script>alert(2)/") + size + "/in_place/busbw", 1));
  }
  const std::string html = page_text(report_page(runs, IdPattern("")));
  EXPECT_EQ(count(html, "<script"), 1u);
  EXPECT_EQ(html.find("alert(1)</script>"), std::string::npos);
  EXPECT_EQ(html.find("x</script>alert(2)"), std::string::npos);
  EXPECT_NE(html.find("&lt;/script&gt;alert(2)"), std::string::npos) << "escaped in the chart's legend and tooltips";
  for (const char* asset : {kHtmlReportScript, kHtmlReportStyle}) {
    EXPECT_EQ(std::string(asset).find("</script"), std::string::npos);
  }
}

// A linear axis starts at zero: two figures 0.4 % apart are 0.4 % of the plot apart, not its whole height.
TEST(ChartAxes, ALinearAxisHoldsZeroSoASmallDifferenceLooksSmall) {
  const ChartAxis axis = linear_axis(37.93, 38.08);
  EXPECT_EQ(axis.low, 0);
  EXPECT_GE(axis.high, 38.08);
  EXPECT_LT(axis.fraction(38.08) - axis.fraction(37.93), 0.005);
  EXPECT_EQ(axis.ticks, (std::vector<double>{0, 10, 20, 30, 40}));
  EXPECT_EQ(linear_axis(0, 4814.3).ticks, (std::vector<double>{0, 1000, 2000, 3000, 4000, 5000}));
  EXPECT_EQ(linear_axis(0, 0).ticks.back(), 1) << "nothing to span: zero to one";
  EXPECT_EQ(nice_step(0.3), 0.5);
  EXPECT_EQ(nice_step(2.1), 2.5);
  EXPECT_EQ(nice_step(200), 200);
}

TEST(ChartAxes, LogAxesBetweenPowersOfTenAndSizesTickedWhereMeasured) {
  const ChartAxis busbw = log_axis(0.00045, 342.8);
  EXPECT_DOUBLE_EQ(busbw.low, 1e-4);
  EXPECT_DOUBLE_EQ(busbw.high, 1e3);
  EXPECT_EQ(busbw.ticks.size(), 8u);
  EXPECT_NEAR(busbw.fraction(1), 4.0 / 7, 1e-12);
  const ChartAxis sizes = bytes_axis({1 << 30, 4096, 1 << 20, 4096});
  EXPECT_EQ(sizes.ticks, (std::vector<double>{4096, 1 << 20, 1 << 30}));
  EXPECT_LT(sizes.low, 4096);
  EXPECT_GT(sizes.high, 1 << 30);
  EXPECT_EQ(bytes_text(4096), "4 KiB");
  EXPECT_EQ(bytes_text(1536), "1536 B") << "not a whole number of KiB";
  EXPECT_EQ(tick_text(2500), "2500");
  EXPECT_EQ(tick_text(0.25), "0.25");
}

}  // namespace
}  // namespace gpubench
