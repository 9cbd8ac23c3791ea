// `gpubench watch`'s outputs on a recorded timeline, no GPU: the watch document reads back what it wrote (the
// timeline, the ceilings with their source, the diagnosis, the job's end) and names a bad field; the printed
// diagnosis holds the rates beside the ceilings, each fired rule with its fix, and the rules that could not run; the
// Prometheus file carries dcgm-exporter's names and a gauge per rule; the ceilings read from a baseline.
#include <gtest/gtest.h>

#include <sstream>

#include "harness/results/input_error.hpp"
#include "harness/watch/watch_console.hpp"
#include "harness/watch/watch_document.hpp"
#include "harness/watch/watch_prometheus.hpp"
#include "harness/watch/watched_child.hpp"
#include "tests/unit/watched_h200.hpp"

namespace gpubench {
namespace {

// A memory-bound job on an H200: SMs busy, tensor pipes idle, DRAM at 82 % of 4.8 TB/s (3.94 TB/s, 89 % of the
// 4.43 TB/s measured), twelve samples a second apart; no NVLink figures (one GPU). Its samples are set field by field
// like watch_rules_test's healthy() on purpose: the outputs tested below quote these figures.
WatchTimeline memory_bound_job() {
  WatchTimeline job;
  job.command = {"python", "stream.py", "--size", "8 GiB"};
  job.cpus_allowed = 16;
  GpuTimeline gpu = watched_h200();
  gpu.power_limit_w = 700;
  gpu.default_power_limit_w = 700;
  for (int i = 0; i < 12; ++i) {
    GpuSample s;
    s.t_s = i;
    s.utilization = 1.0;
    s.memory_used_gib = 20;
    s.memory_total_gib = 140;
    s.power_w = 450;
    s.sm_clock_mhz = 1980;
    s.temperature_c = 55;
    s.clock_event_reasons = 0;
    s.pcie_gen = 5;
    s.pcie_width = 16;
    s.sm_active = 0.95;
    s.sm_occupancy = 0.6;
    s.tensor_active = 0;
    s.dram_active = 0.82;
    s.fp64_active = 0;
    s.fp32_active = 0.1;
    s.fp16_active = 0;
    s.pcie_tx_gbps = 0.1;
    s.pcie_rx_gbps = 0.1;
    gpu.samples.push_back(s);
    job.host.push_back(HostSample{double(i), 1.0, 0.99, 0});
  }
  job.gpus.push_back(gpu);
  job.events.push_back({3, 0, "ecc_corrected", 2, "volatile corrected count grew by 2"});
  return job;
}

WatchDocument recorded_document() {
  WatchDocument d;
  d.timeline = memory_bound_job();
  d.gpubench_version = "0.1.0 (test)";
  d.hostname = "node-7";
  d.started_at = "2026-12-04T01:00:00Z";
  d.finished_at = "2026-12-04T01:00:12Z";
  d.duration_s = 12.3;
  d.job = WatchedJobEnd{0, 0, std::nullopt, ""};
  d.gpu_identities = {{0, "GPU-8c6f1a2b-0000-1111-2222-333344445555", "00000000:3B:00.0"}};
  d.diagnosed_gpus = {0};
  d.diagnosed_gpus_basis = "NVML listed a process of the job's tree on them";
  d.ceilings.source = "baselines/nvidia-h200-x1.json";
  d.ceilings.kind = "baseline";
  d.ceilings.note = "the expected figures of this node's kind, 1 x NVIDIA H200 (single)";
  GpuCeilings c;
  c.hbm_gbps = Ceiling{4430, "memory/read/1GiB/gpu0/bandwidth"};
  c.gemm_tflops = {{"fp32", {49, "gemm/fp32/8192x8192x8192/gpu0/tflops"}},
                   {"bf16", {693, "gemm/bf16/8192x8192x8192/gpu0/tflops"}}};
  c.h2d_pinned_gbps = Ceiling{55.5, "pcie/h2d/pinned/1GiB/gpu0/bandwidth"};
  c.d2h_pinned_gbps = Ceiling{55.2, "pcie/d2h/pinned/1GiB/gpu0/bandwidth"};
  c.h2d_pageable_gbps = Ceiling{9.2, "pcie/h2d/pageable/1GiB/gpu0/bandwidth"};
  d.ceilings.gpus[0] = c;
  d.diagnosis = diagnose(d.timeline, d.ceilings.gpus);
  return d;
}

const WatchFinding& finding(const GpuDiagnosis& d, const std::string& rule) {
  for (const WatchFinding& f : d.findings) {
    if (f.rule == rule) return f;
  }
  throw std::runtime_error("no finding " + rule);
}

TEST(WatchDocument, ReadsBackWhatItWrote) {
  const WatchDocument written = recorded_document();
  const nlohmann::json json = to_json(written);
  const WatchDocument read = watch_document_from_json(json, "watch.json");
  EXPECT_EQ(to_json(read), json);
  EXPECT_EQ(read.job->status, 0);
  EXPECT_EQ(read.ceilings.source, "baselines/nvidia-h200-x1.json");
  EXPECT_EQ(read.ceilings.gpus.at(0).hbm_gbps->value, 4430);
  EXPECT_EQ(read.ceilings.gpus.at(0).gemm_tflops.at("bf16").metric, "gemm/bf16/8192x8192x8192/gpu0/tflops");
  ASSERT_EQ(read.diagnosis.size(), 1u);
  EXPECT_EQ(finding(read.diagnosis[0], "memory_bandwidth_bound").outcome, RuleOutcome::Fired);
  EXPECT_EQ(finding(read.diagnosis[0], "nvlink_near_ceiling").outcome, RuleOutcome::CouldNotRun);
  // The timeline reader reads the same file and leaves the rest alone.
  EXPECT_EQ(to_json(watch_timeline_from_json(json, "watch.json")), to_json(written.timeline));
}

TEST(WatchDocument, AJobKilledByASignalAndAWatchWithoutGpus) {
  WatchDocument d;
  d.timeline.command = {"sh", "-c", "kill -9 $$"};
  d.timeline.host.push_back(HostSample{1, 0.5, 0.5, 0});
  d.job = WatchedJobEnd{137, std::nullopt, 9, "Killed"};
  d.stopped_by = "SIGTERM";
  d.gpu_unavailable = "NVML unavailable: libnvidia-ml.so.1: cannot open shared object file";
  d.ceilings.note = "no baseline found";
  const WatchDocument read = watch_document_from_json(to_json(d), "watch.json");
  EXPECT_EQ(read.job->status, 137);
  EXPECT_EQ(*read.job->signal, 9);
  EXPECT_FALSE(read.job->exit_code);
  EXPECT_EQ(read.stopped_by, "SIGTERM");
  EXPECT_EQ(read.gpu_unavailable, d.gpu_unavailable);
  EXPECT_TRUE(read.diagnosis.empty());
  EXPECT_TRUE(read.ceilings.gpus.empty());
}

TEST(WatchDocument, ATimelineAloneReadsAsADocumentWithoutDiagnosis) {
  const WatchDocument read = watch_document_from_json(to_json(memory_bound_job()), "timeline.json");
  EXPECT_EQ(read.mode, "command");
  EXPECT_FALSE(read.job);
  EXPECT_TRUE(read.diagnosis.empty());
  EXPECT_EQ(read.timeline.gpus.at(0).samples.size(), 12u);
}

TEST(WatchDocument, EventsNotWatchedAreKeptAndABadOneNamed) {
  WatchTimeline job = memory_bound_job();
  job.gpus[0].events_unwatched = "Xid events not watched: nvmlEventSetCreate: Not Supported";
  nlohmann::json json = to_json(job);
  EXPECT_EQ(watch_timeline_from_json(json, "t.json").gpus.at(0).events_unwatched, job.gpus[0].events_unwatched);
  EXPECT_FALSE(to_json(memory_bound_job())["gpus"][0].contains("events_unwatched")) << "absent when both were watched";
  json["gpus"][0]["events_unwatched"] = 3;
  try {
    watch_timeline_from_json(json, "t.json");
    FAIL() << "read a number as the reason";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("gpus[0].events_unwatched"), std::string::npos) << error.what();
  }
}

TEST(WatchDocument, NamesTheBadField) {
  nlohmann::json json = to_json(recorded_document());
  json["diagnosis"][0]["findings"][2]["outcome"] = "maybe";
  try {
    watch_document_from_json(json, "watch.json");
    FAIL() << "read a bad outcome";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("diagnosis[0].findings[2].outcome"), std::string::npos) << error.what();
  }
  json = to_json(recorded_document());
  json["ceilings"]["gpus"][0]["hbm_gbps"] = "fast";
  EXPECT_THROW(watch_document_from_json(json, "watch.json"), InputError);
  json = to_json(recorded_document());
  json["job"]["status"] = "zero";
  try {
    watch_document_from_json(json, "watch.json");
    FAIL() << "read a bad status";
  } catch (const InputError& error) {
    EXPECT_NE(std::string(error.what()).find("job.status"), std::string::npos) << error.what();
  }
  json = to_json(recorded_document());
  json["schema"] = "gpubench.results/1";
  EXPECT_THROW(watch_document_from_json(json, "watch.json"), InputError);
}

TEST(WatchDocument, DiagnosisAloneForJson) {
  const nlohmann::json json = diagnosis_json(recorded_document());
  EXPECT_EQ(json["schema"], "gpubench.watch-diagnosis/1");
  EXPECT_FALSE(json.contains("gpus"));  // no timeline
  EXPECT_EQ(json["diagnosis"][0]["gpu"], 0);
  EXPECT_EQ(json["ceilings"]["source"], "baselines/nvidia-h200-x1.json");
  EXPECT_EQ(json["job"]["status"], 0);
}

TEST(WatchConsole, RatesBesideTheCeilingsFindingsAndFixes) {
  std::ostringstream out;
  print_watch_console(recorded_document(), {"document: watch-20261204T010000Z.json"}, out, false);
  const std::string text = out.str();
  // How the job ended, quoted as a shell would need it.
  EXPECT_NE(text.find("`python stream.py --size '8 GiB'` exited with 0 after 12.3 s"), std::string::npos) << text;
  EXPECT_NE(text.find("ceilings: baselines/nvidia-h200-x1.json (baseline, the expected figures of this node's kind"),
            std::string::npos) << text;
  // The median DRAM rate against the measured HBM ceiling: 0.82 x 4800 = 3936 GB/s, 89 % of 4430.
  EXPECT_NE(text.find("HBM 3.94 TB/s, 89 % of the 4.43 TB/s this GPU measured"), std::string::npos) << text;
  EXPECT_NE(text.find("GPU 0 (NVIDIA H200): 2 findings, 12 samples"), std::string::npos) << text;
  EXPECT_NE(text.find("FIRED memory_bandwidth_bound: DRAM traffic at 80 %+ of the measured 4430 GB/s"),
            std::string::npos) << text;
  EXPECT_NE(text.find("fix: The job moves bytes as fast as this GPU's HBM allows"), std::string::npos) << text;
  EXPECT_NE(text.find("FIRED xid_or_ecc_events"), std::string::npos) << text;
  EXPECT_NE(text.find("not run nvlink_near_ceiling: the ceilings have no p2p/ce_unidir"), std::string::npos) << text;
  EXPECT_NE(text.find("clear: gpu_starved"), std::string::npos) << text;
  EXPECT_NE(text.find("host: the job used 1.0 cores of the 16 it may run on, its busiest thread 99 % of a core"),
            std::string::npos) << text;
  EXPECT_NE(text.find("document: watch-20261204T010000Z.json"), std::string::npos) << text;
  EXPECT_EQ(text.find("\033["), std::string::npos) << "colour without asking";
}

TEST(WatchConsole, WithoutGpusTheGpuRulesCouldNotRunAndSayWhy) {
  WatchDocument d;
  d.timeline.command = {"sleep", "3"};
  d.timeline.cpus_allowed = 4;
  d.timeline.host = {HostSample{1, 0, 0, 0}, HostSample{2, 0, 0, 0}};
  d.job = WatchedJobEnd{0, 0, std::nullopt, ""};
  d.duration_s = 3;
  d.gpu_unavailable = "NVML unavailable: libnvidia-ml.so.1: cannot open shared object file";
  d.ceilings.note = "no GPU seen, so this node's kind is not known";
  std::ostringstream out;
  print_watch_console(d, {}, out, false);
  EXPECT_NE(out.str().find("GPU rules could not run: NVML unavailable: libnvidia-ml.so.1"), std::string::npos)
      << out.str();
  EXPECT_NE(out.str().find("ceilings: none (no GPU seen"), std::string::npos) << out.str();
}

TEST(WatchPrometheus, DcgmExporterNamesAndAGaugePerRule) {
  std::ostringstream out;
  write_watch_prometheus(recorded_document(), false, out);
  const std::string text = out.str();
  const std::string labels = "{gpu=\"0\",UUID=\"GPU-8c6f1a2b-0000-1111-2222-333344445555\",modelName=\"NVIDIA H200\","
                             "Hostname=\"node-7\"}";
  EXPECT_NE(text.find("# TYPE DCGM_FI_DEV_GPU_UTIL gauge\nDCGM_FI_DEV_GPU_UTIL" + labels + " 100\n"), std::string::npos)
      << text;
  EXPECT_NE(text.find("DCGM_FI_DEV_FB_USED" + labels + " 20480\n"), std::string::npos) << text;
  EXPECT_NE(text.find("DCGM_FI_PROF_DRAM_ACTIVE" + labels + " 0.82\n"), std::string::npos) << text;
  EXPECT_NE(text.find("DCGM_FI_PROF_PCIE_RX_BYTES" + labels + " 1e+08\n"), std::string::npos) << text;
  EXPECT_NE(text.find("gpubench_watch_hbm_ceiling_bytes_per_second" + labels + " 4.43e+12\n"), std::string::npos) << text;
  EXPECT_NE(text.find("gpubench_watch_finding{gpu=\"0\",UUID=\"GPU-8c6f1a2b-0000-1111-2222-333344445555\","
                      "Hostname=\"node-7\",rule=\"memory_bandwidth_bound\"} 1\n"), std::string::npos) << text;
  EXPECT_NE(text.find("rule=\"gpu_starved\"} 0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("gpubench_watch_rule_could_not_run{gpu=\"0\""), std::string::npos) << text;
  EXPECT_NE(text.find("gpubench_watch_running{Hostname=\"node-7\"} 0\n"), std::string::npos) << text;
  EXPECT_NE(text.find("gpubench_watch_job_busiest_thread_ratio{Hostname=\"node-7\"} 0.99\n"), std::string::npos) << text;
  // No NVLink fields were read: none are written, rather than zeros.
  EXPECT_EQ(text.find("NVLINK"), std::string::npos) << text;
  // Each family's HELP and TYPE once.
  std::size_t types = 0;
  for (std::size_t at = text.find("# TYPE gpubench_watch_finding "); at != std::string::npos;
       at = text.find("# TYPE gpubench_watch_finding ", at + 1)) {
    ++types;
  }
  EXPECT_EQ(types, 1u);
}

TEST(WatchCeilings, FromABaselineItsExpectedFigures) {
  Baseline baseline;
  baseline.metrics["memory/read/1GiB/gpu0/bandwidth"].expected = 4430;
  baseline.metrics["memory/triad/1GiB/gpu0/bandwidth"].expected = 4300;
  baseline.metrics["gemm/bf16/8192x8192x8192/gpu1/tflops"].expected = 690;
  baseline.metrics["p2p/ce_unidir/1GiB/gpu0-gpu1/bandwidth"].expected = 396;
  baseline.metrics["pcie/h2d/pinned/1GiB/all_gpus/bandwidth"].expected = 110;
  const std::map<int, GpuCeilings> c = node_ceilings(baseline);
  ASSERT_EQ(c.size(), 2u);
  EXPECT_EQ(c.at(0).hbm_gbps->value, 4430);  // read, not triad
  EXPECT_EQ(c.at(0).p2p_out_gbps.at(1).value, 396);
  EXPECT_EQ(c.at(1).gemm_tflops.at("bf16").value, 690);
  EXPECT_FALSE(c.at(0).h2d_pinned_gbps);  // all_gpus is no one GPU's ceiling
}

TEST(WatchedChild, StatusAsAShellReportsIt) {
  EXPECT_EQ(child_end_from_status(3 << 8).status, 3);
  EXPECT_EQ(*child_end_from_status(3 << 8).exit_code, 3);
  const WatchedChildEnd killed = child_end_from_status(9);  // WIFSIGNALED with SIGKILL
  EXPECT_EQ(killed.status, 137);
  EXPECT_EQ(*killed.signal, 9);
  EXPECT_FALSE(killed.exit_code);
}

}  // namespace
}  // namespace gpubench
