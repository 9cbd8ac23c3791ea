// The Prometheus textfile of `check`: one family per unit in base units, the labels that join other exporters'
// series, and nothing dropped. tests/cli/check_outputs_test.py parses whole files with Prometheus's own parser.
#include "harness/report/prometheus_report.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "harness/report/prometheus_units.hpp"

namespace gpubench {
namespace {

MetricVerdict measured(const std::string& id, double value, const std::string& unit) {
  MetricVerdict v;
  v.id = id;
  v.kind = VerdictKind::Pass;
  v.value = value;
  v.expected = value;
  v.unit = unit;
  return v;
}

ResultsDocument run_on_two_gpus() {
  ResultsDocument results;
  results.run.host = "node1";
  results.run.started_at = "2026-11-29T17:05:48Z";
  results.run.gpubench_version = "0.1.0";
  results.run.git_revision = "abc1234";
  results.environment = {{"versions", {{"cuda_runtime", "13.0"}, {"driver", "580.159.04"}}},
                         {"gpus", {{{"index", 0}, {"uuid", "GPU-aaaa"}}, {{"index", 1}, {"uuid", "GPU-bbbb"}}}}};
  return results;
}

std::string prometheus(const std::vector<MetricVerdict>& verdicts, const ResultsDocument& results = run_on_two_gpus()) {
  CheckReport report;
  report.host = results.run.host;
  report.verdicts = verdicts;
  std::ostringstream out;
  write_check_prometheus(report, results, out);
  return out.str();
}

bool has_line(const std::string& text, const std::string& line) { return text.find("\n" + line + "\n") != std::string::npos; }

TEST(PrometheusUnits, EveryUnitTheBenchmarksWriteHasABaseUnitFamily) {
  const struct {
    const char* unit;
    const char* family;
    double to_base;
  } expected[] = {{"GB/s", "bandwidth_bytes_per_second", 1e9}, {"TFLOP/s", "throughput_flops", 1e12},
                  {"ms", "latency_seconds", 1e-3},             {"us", "latency_seconds", 1e-6},
                  {"ns", "latency_seconds", 1e-9},             {"x", "ratio", 1},
                  {"%", "efficiency_ratio", 1e-2}};
  for (const auto& e : expected) {
    const std::optional<PrometheusUnit> unit = prometheus_unit(e.unit);
    ASSERT_TRUE(unit) << e.unit;
    EXPECT_EQ(unit->family, e.family) << e.unit;
    EXPECT_DOUBLE_EQ(unit->to_base, e.to_base) << e.unit;
    EXPECT_FALSE(unit->help.empty()) << e.unit;
  }
  EXPECT_FALSE(prometheus_unit("widgets/s"));
  EXPECT_FALSE(prometheus_unit(""));
}

TEST(PrometheusReport, FiguresGoToTheirUnitsFamilyInBaseUnits) {
  const std::string text = prometheus({measured("memory/triad/1GiB/gpu0/bandwidth", 4500, "GB/s"),
                                       measured("launch/graph/gpu1/time_per_graph", 2.5, "us"),
                                       measured("overlap/pinned/64MiB/gpu0/efficiency", 87.5, "%")});
  EXPECT_TRUE(has_line(text, "# TYPE gpubench_bandwidth_bytes_per_second gauge")) << text;
  EXPECT_TRUE(has_line(text, "gpubench_bandwidth_bytes_per_second{host=\"node1\",gpu=\"0\",gpu_uuid=\"GPU-aaaa\",family=\"memory\","
                             "benchmark=\"triad/1GiB/bandwidth\"} 4.5e+12"))
      << text;
  EXPECT_TRUE(has_line(text, "gpubench_latency_seconds{host=\"node1\",gpu=\"1\",gpu_uuid=\"GPU-bbbb\",family=\"launch\","
                             "benchmark=\"graph/time_per_graph\"} 2.5e-06"))
      << text;
  EXPECT_TRUE(has_line(text, "gpubench_efficiency_ratio{host=\"node1\",gpu=\"0\",gpu_uuid=\"GPU-aaaa\",family=\"overlap\","
                             "benchmark=\"pinned/64MiB/efficiency\"} 0.875"))
      << text;
  EXPECT_TRUE(has_line(text, "gpubench_baseline_latency_seconds{host=\"node1\",gpu=\"1\",gpu_uuid=\"GPU-bbbb\",family=\"launch\","
                             "benchmark=\"graph/time_per_graph\"} 2.5e-06"))
      << text;
  EXPECT_EQ(text.find("gpubench_metric_value"), std::string::npos) << "no figure without a family of its own";
}

TEST(PrometheusReport, AUnitWithoutAFamilyIsKeptAndNamed) {
  const std::string text = prometheus({measured("memory/odd/gpu0/widgets", 3, "widgets/s")});
  EXPECT_TRUE(has_line(text, "# TYPE gpubench_metric_value gauge")) << text;
  EXPECT_TRUE(has_line(text, "gpubench_metric_value{host=\"node1\",gpu=\"0\",gpu_uuid=\"GPU-aaaa\",family=\"memory\","
                             "benchmark=\"odd/widgets\",unit=\"widgets/s\"} 3"))
      << text;
  EXPECT_TRUE(has_line(text, "# TYPE gpubench_baseline_metric_value gauge")) << text;
}

TEST(PrometheusReport, APairNamesBothGpusAndAFigureOfAllGpusNone) {
  const std::string text = prometheus({measured("p2p/ce_unidir/1GiB/gpu1-gpu0/bandwidth", 700, "GB/s"),
                                       measured("nccl/allreduce/ring/simple/1GiB/out_of_place/busbw", 360, "GB/s")});
  EXPECT_TRUE(has_line(text, "gpubench_bandwidth_bytes_per_second{host=\"node1\",gpu=\"1\",gpu_uuid=\"GPU-bbbb\",peer_gpu=\"0\","
                             "peer_gpu_uuid=\"GPU-aaaa\",family=\"p2p\",benchmark=\"ce_unidir/1GiB/bandwidth\"} 7e+11"))
      << text;
  EXPECT_TRUE(has_line(text, "gpubench_bandwidth_bytes_per_second{host=\"node1\",family=\"nccl\","
                             "benchmark=\"allreduce/ring/simple/1GiB/out_of_place/busbw\"} 3.6e+11"))
      << text;
}

TEST(PrometheusReport, VerdictsAndTheRunAsAWhole) {
  MetricVerdict failed;
  failed.id = "memory/triad/1GiB/gpu0";  // a failed benchmark: no figure, no unit
  failed.kind = VerdictKind::Failed;
  const std::string text = prometheus({failed, measured("memory/read/1GiB/gpu0/bandwidth", 4500, "GB/s")});
  EXPECT_TRUE(has_line(text, "gpubench_build_info{host=\"node1\",version=\"0.1.0\",git=\"abc1234\",cuda=\"13.0\",driver=\"580.159.04\"} 1"))
      << text;
  EXPECT_TRUE(has_line(text, "gpubench_run_timestamp_seconds{host=\"node1\"} 1795971948")) << text;
  EXPECT_TRUE(has_line(text, "gpubench_check_passed{host=\"node1\"} 0")) << text;
  EXPECT_TRUE(has_line(text, "gpubench_metric_verdict{host=\"node1\",gpu=\"0\",gpu_uuid=\"GPU-aaaa\",family=\"memory\","
                             "benchmark=\"triad/1GiB\",verdict=\"failed\"} 1"))
      << text;
  EXPECT_TRUE(has_line(text, "gpubench_metric_verdict{host=\"node1\",gpu=\"0\",gpu_uuid=\"GPU-aaaa\",family=\"memory\","
                             "benchmark=\"read/1GiB/bandwidth\",verdict=\"pass\"} 1"))
      << text;
}

TEST(PrometheusReport, WhatTheDocumentDoesNotSayIsLeftOut) {
  ResultsDocument results;
  results.run.host = "node1";
  results.run.started_at = "yesterday";
  results.environment = {{"gpus", {{{"index", "zero"}, {"uuid", "GPU-aaaa"}}, {{"index", 0}, {"uuid", 5}}}}, {"versions", "none"}};
  const std::string text = prometheus({measured("memory/read/1GiB/gpu0/bandwidth", 4500, "GB/s")}, results);
  EXPECT_EQ(text.find("gpubench_run_timestamp_seconds"), std::string::npos) << text;
  EXPECT_TRUE(has_line(text, "gpubench_build_info{host=\"node1\"} 1")) << text;
  EXPECT_TRUE(has_line(text, "gpubench_bandwidth_bytes_per_second{host=\"node1\",gpu=\"0\",family=\"memory\","
                             "benchmark=\"read/1GiB/bandwidth\"} 4.5e+12"))
      << text;
}

TEST(PrometheusReport, LabelValuesAreEscaped) {
  ResultsDocument results = run_on_two_gpus();
  results.run.host = "a\"b\\c\nd";
  const std::string text = prometheus({}, results);
  EXPECT_TRUE(has_line(text, "gpubench_check_passed{host=\"a\\\"b\\\\c\\nd\"} 1")) << text;
}

}  // namespace
}  // namespace gpubench
