// `gpubench watch`'s diagnosis on recorded timelines, no GPU: each rule fires on a timeline made for it and stays
// quiet on one that is not; rules without their GPM fields or ceilings say they could not run; the timeline
// document reads back what it wrote and names a bad field.
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <optional>

#include "harness/results/input_error.hpp"
#include "harness/watch/diagnosis_rules.hpp"
#include "tests/unit/watched_h200.hpp"

namespace gpubench {
namespace {

constexpr std::uint64_t kSwPowerCap = 0x4;          // NVML's clock-event reason bits
constexpr std::uint64_t kSwThermalSlowdown = 0x20;

// A GPU working well: busy SMs on Tensor Cores, modest memory traffic, a full-speed link, nothing throttled.
GpuSample healthy(double t) {
  GpuSample s;
  s.t_s = t;
  s.utilization = 0.95;
  s.memory_used_gib = 60;
  s.memory_total_gib = 141;
  s.power_w = 500;
  s.sm_clock_mhz = 1980;
  s.temperature_c = 60;
  s.clock_event_reasons = 0;
  s.pcie_gen = 5;
  s.pcie_width = 16;
  s.sm_active = 0.9;
  s.sm_occupancy = 0.5;
  s.tensor_active = 0.5;
  s.dram_active = 0.3;
  s.fp64_active = 0;
  s.fp32_active = 0.1;
  s.fp16_active = 0.1;
  s.pcie_tx_gbps = 1;
  s.pcie_rx_gbps = 1;
  s.nvlink_tx_gbps = 10;
  s.nvlink_rx_gbps = 10;
  return s;
}

// Ten samples a second apart on GPU 0 with 16 cores allowed; `edit` changes sample i and its host sample.
WatchTimeline timeline(const std::function<void(int, GpuSample&, HostSample&)>& edit = {}, int samples = 10) {
  WatchTimeline job;
  job.command = {"python", "train.py"};
  job.cpus_allowed = 16;
  GpuTimeline gpu = watched_h200();
  for (int i = 0; i < samples; ++i) {
    GpuSample sample = healthy(i);
    HostSample host{double(i), 2, 0.5, 0};
    if (edit) edit(i, sample, host);
    gpu.samples.push_back(sample);
    job.host.push_back(host);
  }
  job.gpus.push_back(gpu);
  return job;
}

// This node's ceilings as an H200's results document gives them.
GpuCeilings h200() {
  GpuCeilings c;
  c.hbm_gbps = Ceiling{4428, "memory/read/1GiB/gpu0/bandwidth"};
  c.gemm_tflops = {{"fp32", {49, "gemm/fp32/8192x8192x8192/gpu0/tflops"}},
                   {"bf16", {693, "gemm/bf16/8192x8192x8192/gpu0/tflops"}}};
  c.h2d_pinned_gbps = Ceiling{55.5, "pcie/h2d/pinned/1GiB/gpu0/bandwidth"};
  c.d2h_pinned_gbps = Ceiling{55.2, "pcie/d2h/pinned/1GiB/gpu0/bandwidth"};
  c.h2d_pageable_gbps = Ceiling{9.2, "pcie/h2d/pageable/1GiB/gpu0/bandwidth"};
  c.d2h_pageable_gbps = Ceiling{14, "pcie/d2h/pageable/1GiB/gpu0/bandwidth"};
  c.p2p_out_gbps = {{1, {396, "p2p/ce_unidir/1GiB/gpu0-gpu1/bandwidth"}}};
  return c;
}

WatchFinding run(WatchFinding (*rule)(const RuleInput&), const WatchTimeline& job, const GpuCeilings& c = h200()) {
  return rule(RuleInput{job, job.gpus[0], c});
}

TEST(WatchRules, AHealthyJobFiresNothingAndSaysNoBottleneckFound) {
  const GpuDiagnosis diagnosis = diagnose_gpu(timeline(), timeline().gpus[0], h200());
  for (const WatchFinding& f : diagnosis.findings) {
    EXPECT_EQ(f.outcome, RuleOutcome::Clear) << f.rule << ": " << f.evidence;
  }
  EXPECT_EQ(diagnosis.summary, "no bottleneck found");
}

// An idle GPU (SM activity 0.1) beside the host sample `host` makes.
WatchTimeline starved(const std::function<void(HostSample&)>& host) {
  return timeline([&](int, GpuSample& s, HostSample& h) {
    s.sm_active = 0.1;
    s.utilization = 0.15;
    host(h);
  });
}

HostSample::Threads waiting_on(std::map<std::string, int> waits, std::string detail) {
  HostSample::Threads threads;
  threads.total = 40;
  threads.working = 3;
  threads.waits = std::move(waits);
  threads.wait_detail = std::move(detail);
  return threads;
}

TEST(WatchRules, AStarvedGpuIsAFindingWhateverTheHostShows) {
  const WatchFinding preprocessing = run(gpu_starved, starved([](HostSample& h) { h.cpu_cores = 15.6; }));
  EXPECT_EQ(preprocessing.outcome, RuleOutcome::Fired) << preprocessing.evidence;
  EXPECT_EQ(preprocessing.cause, "cpu_preprocessing");
  EXPECT_NE(preprocessing.fix.find("DALI"), std::string::npos);
  // The host idle and nothing known of its threads (a document from before they were read): still a finding.
  const WatchFinding unknown = run(gpu_starved, starved([](HostSample& h) {
                                     h.cpu_cores = 0.05;
                                     h.busiest_thread = 0.04;
                                     h.io_wait.reset();
                                   }));
  EXPECT_EQ(unknown.outcome, RuleOutcome::Fired) << unknown.evidence;
  EXPECT_EQ(unknown.cause, "waiting_unknown");
  EXPECT_NE(unknown.evidence.find("nothing watch could see"), std::string::npos) << unknown.evidence;
  // No host sample within an interval: the GPU still waited, for a reason not known.
  const WatchFinding no_host = run(gpu_starved, starved([](HostSample& h) { h.t_s += 20; }));
  EXPECT_EQ(no_host.outcome, RuleOutcome::Fired) << no_host.evidence;
  EXPECT_EQ(no_host.cause, "unknown");
  // A busy GPU is no finding, and no host figure is needed to say so.
  EXPECT_EQ(run(gpu_starved, timeline([](int, GpuSample&, HostSample& h) { h.io_wait.reset(); })).outcome,
            RuleOutcome::Clear);
}

TEST(WatchRules, OneSaturatedThreadIsAHostBoundLoopAndShortKernelsAreNamed) {
  const WatchFinding loop = run(gpu_starved, timeline([](int, GpuSample& s, HostSample& h) {
                                  s.sm_active = 0.02;
                                  s.utilization = 0.25;
                                  h.cpu_cores = 1.05;
                                  h.busiest_thread = 1.0;
                                }));
  EXPECT_EQ(loop.outcome, RuleOutcome::Fired) << loop.evidence;
  EXPECT_EQ(loop.cause, "host_thread");
  EXPECT_NE(loop.evidence.find("they are small"), std::string::npos) << loop.evidence;
  EXPECT_NE(loop.fix.find("CUDA Graph"), std::string::npos);
}

TEST(WatchRules, ThreadsTakingTurnsOnOneCoreArePreprocessing) {
  const WatchFinding gil = run(gpu_starved, starved([](HostSample& h) {
                                 h.cpu_cores = 1.0;
                                 h.busiest_thread = 0.35;
                               }));
  EXPECT_EQ(gil.cause, "cpu_preprocessing") << gil.evidence;
  EXPECT_NE(gil.evidence.find("take turns"), std::string::npos) << gil.evidence;
}

TEST(WatchRules, AnIdleJobIsBlamedOnWhatItsThreadsWaitedOn) {
  const auto idle_with = [](HostSample::Threads threads, std::optional<double> storage = std::nullopt) {
    return run(gpu_starved, starved([&](HostSample& h) {
                 h.cpu_cores = 0.03;
                 h.busiest_thread = 0.02;
                 h.io_wait.reset();
                 h.threads = threads;
                 h.storage_read_gbps = storage;
               }));
  };
  // The most telling wait: a sleep beside the main thread's queue, storage beside locks.
  EXPECT_EQ(idle_with(waiting_on({{"lock", 2}, {"sleep", 1}}, "clock_nanosleep()")).cause, "waiting_sleep");
  const WatchFinding disk = idle_with(waiting_on({{"lock", 1}, {"disk", 1}}, "read() on /data/x.bin"), 0.85);
  EXPECT_EQ(disk.cause, "waiting_disk");
  EXPECT_NE(disk.evidence.find("read() on /data/x.bin"), std::string::npos) << disk.evidence;
  EXPECT_NE(disk.evidence.find("850 MB/s from storage"), std::string::npos) << disk.evidence;
  EXPECT_EQ(idle_with(waiting_on({{"network", 1}, {"local", 1}}, "recvfrom() on TCP 10.0.0.5:9000")).cause,
            "waiting_network");
  EXPECT_EQ(idle_with(waiting_on({{"lock", 3}}, "futex()")).cause, "waiting_lock");
  // Delay accounting's I/O wait, where the kernel keeps it, counts as storage.
  const WatchFinding loading = run(gpu_starved, timeline([](int, GpuSample& s, HostSample& h) {
                                     s.sm_active.reset();
                                     s.utilization = 0.2;
                                     h.cpu_cores = 0.1;
                                     h.busiest_thread = 0.1;
                                     h.io_wait = 0.6;
                                   }));
  EXPECT_EQ(loading.outcome, RuleOutcome::Fired) << loading.evidence;
  EXPECT_EQ(loading.cause, "waiting_disk");
  EXPECT_NE(loading.evidence.find("GPU utilisation (NVML)"), std::string::npos) << loading.evidence;
}

TEST(WatchRules, CopiesAtTheLinksCeilingExplainIdleSmsAndBusyUtilisation) {
  // Back-to-back pinned copies into the GPU: utilisation 99 % from the copy engines, SM activity 0.
  const WatchTimeline copies = timeline([](int, GpuSample& s, HostSample& h) {
    s.sm_active = 0.0;
    s.utilization = 0.99;
    s.pcie_rx_gbps = 58.6;  // link bytes: 54.7 GB/s of payload, 99 % of the pinned 55.5
    h.busiest_thread = 1.0;
    h.cpu_cores = 1.0;
  });
  EXPECT_EQ(run(host_transfers_at_ceiling, copies).outcome, RuleOutcome::Fired);
  EXPECT_EQ(run(many_small_kernels, copies).outcome, RuleOutcome::Clear) << run(many_small_kernels, copies).evidence;
  EXPECT_EQ(run(gpu_starved, copies).outcome, RuleOutcome::Clear) << run(gpu_starved, copies).evidence;
}

TEST(WatchRules, TensorCoresIdleUnderComputeBoundFp32AndNotWhenTheyWork) {
  const WatchFinding idle = run(tensor_cores_idle, timeline([](int, GpuSample& s, HostSample&) {
                                  s.tensor_active = 0.01;
                                  s.fp32_active = 0.6;
                                }));
  EXPECT_EQ(idle.outcome, RuleOutcome::Fired) << idle.evidence;
  EXPECT_NE(idle.evidence.find("49 TFLOP/s in FP32 GEMM and 693 in BF16"), std::string::npos) << idle.evidence;
  EXPECT_EQ(run(tensor_cores_idle, timeline()).outcome, RuleOutcome::Clear);
}

TEST(WatchRules, MemoryBandwidthBoundNearTheMeasuredCeilingOnlyInMostSamples) {
  const WatchFinding bound = run(memory_bandwidth_bound,
                                 timeline([](int, GpuSample& s, HostSample&) { s.dram_active = 0.8; }));
  EXPECT_EQ(bound.outcome, RuleOutcome::Fired) << bound.evidence;
  EXPECT_NE(bound.evidence.find("3840 GB/s"), std::string::npos) << bound.evidence;  // 0.8 of 4800, not 0.8
  const WatchFinding some = run(memory_bandwidth_bound,
                                timeline([](int i, GpuSample& s, HostSample&) { s.dram_active = i < 4 ? 0.8 : 0.3; }));
  EXPECT_EQ(some.outcome, RuleOutcome::Clear) << some.evidence;
  GpuCeilings no_hbm = h200();
  no_hbm.hbm_gbps.reset();
  const WatchFinding unmeasured = run(memory_bandwidth_bound, timeline(), no_hbm);
  EXPECT_EQ(unmeasured.outcome, RuleOutcome::CouldNotRun);
  EXPECT_NE(unmeasured.evidence.find("memory/read"), std::string::npos) << unmeasured.evidence;
}

TEST(WatchRules, KernelsBackToBackThatFillFewSmsAreManySmallKernelsNotAStarvedGpu) {
  const auto small = [](double utilization) {
    return timeline([utilization](int, GpuSample& s, HostSample& h) {
      s.sm_active = 0.1;
      s.utilization = utilization;
      h.busiest_thread = 0.3;
      h.cpu_cores = 0.4;
    });
  };
  const WatchFinding fired = run(many_small_kernels, small(0.99));
  EXPECT_EQ(fired.outcome, RuleOutcome::Fired) << fired.evidence;
  EXPECT_NE(fired.fix.find("CUDA Graph"), std::string::npos);
  EXPECT_EQ(run(gpu_starved, small(0.99)).outcome, RuleOutcome::Clear);
  // With gaps between the kernels the GPU waits: starved, not many small kernels.
  EXPECT_EQ(run(many_small_kernels, small(0.4)).outcome, RuleOutcome::Clear);
  EXPECT_EQ(run(gpu_starved, small(0.4)).outcome, RuleOutcome::Fired);
}

TEST(WatchRules, MemoryNearlyFullFiresAtNinetyFivePercent) {
  EXPECT_EQ(run(memory_nearly_full, timeline([](int, GpuSample& s, HostSample&) { s.memory_used_gib = 138; })).outcome,
            RuleOutcome::Fired);
  EXPECT_EQ(run(memory_nearly_full, timeline()).outcome, RuleOutcome::Clear);
}

TEST(WatchRules, SlowdownFollowsNvmlReasonsNotTheTemperature) {
  const WatchFinding thermal = run(thermal_or_power_slowdown, timeline([](int i, GpuSample& s, HostSample&) {
                                     if (i < 2) s.clock_event_reasons = kSwThermalSlowdown;
                                   }));
  EXPECT_EQ(thermal.outcome, RuleOutcome::Fired) << thermal.evidence;
  EXPECT_NE(thermal.evidence.find("sw_thermal_slowdown"), std::string::npos) << thermal.evidence;
  EXPECT_NE(thermal.fix.find("cooling"), std::string::npos);
  // Mostly at the power cap: a finding only where the limit is below the board's default.
  WatchTimeline capped_job = timeline([](int i, GpuSample& s, HostSample&) {
    if (i < 8) s.clock_event_reasons = kSwPowerCap;
  });
  capped_job.gpus[0].power_limit_w = 500;
  capped_job.gpus[0].default_power_limit_w = 700;
  const WatchFinding lowered = run(thermal_or_power_slowdown, capped_job);
  EXPECT_EQ(lowered.outcome, RuleOutcome::Fired) << lowered.evidence;
  EXPECT_NE(lowered.evidence.find("power limit 500 W, the board's default 700 W"), std::string::npos) << lowered.evidence;
  EXPECT_NE(lowered.fix.find("-pl 700"), std::string::npos) << lowered.fix;
  capped_job.gpus[0].power_limit_w = 700;
  const WatchFinding at_default = run(thermal_or_power_slowdown, capped_job);
  EXPECT_EQ(at_default.outcome, RuleOutcome::Clear) << at_default.evidence;
  EXPECT_NE(at_default.evidence.find("capped at the default"), std::string::npos) << at_default.evidence;
  capped_job.gpus[0].power_limit_w.reset();
  const WatchFinding unknown_limit = run(thermal_or_power_slowdown, capped_job);
  EXPECT_EQ(unknown_limit.outcome, RuleOutcome::Clear) << unknown_limit.evidence;
  EXPECT_NE(unknown_limit.evidence.find("could not be read"), std::string::npos) << unknown_limit.evidence;
  const WatchFinding hot_but_fine = run(thermal_or_power_slowdown, timeline([](int i, GpuSample& s, HostSample&) {
                                          s.temperature_c = 86;
                                          if (i < 3) s.clock_event_reasons = kSwPowerCap;
                                        }));
  EXPECT_EQ(hot_but_fine.outcome, RuleOutcome::Clear) << hot_but_fine.evidence;
}

TEST(WatchRules, HostTransfersAtThePinnedOrThePageableCeiling) {
  // 58.9 GB/s of link traffic is 55 GB/s of copies: the pinned ceiling.
  const WatchFinding pinned = run(host_transfers_at_ceiling,
                                  timeline([](int, GpuSample& s, HostSample&) { s.pcie_rx_gbps = 58.9; }));
  EXPECT_EQ(pinned.outcome, RuleOutcome::Fired) << pinned.evidence;
  EXPECT_NE(pinned.evidence.find("host to device: median 55.0 GB/s payload"), std::string::npos) << pinned.evidence;
  const WatchFinding pageable = run(host_transfers_at_ceiling,
                                    timeline([](int, GpuSample& s, HostSample&) { s.pcie_rx_gbps = 10; }));
  EXPECT_EQ(pageable.outcome, RuleOutcome::Fired) << pageable.evidence;
  EXPECT_NE(pageable.fix.find("pin_memory"), std::string::npos);
  EXPECT_EQ(run(host_transfers_at_ceiling, timeline()).outcome, RuleOutcome::Clear);
}

TEST(WatchRules, NvlinkNearTheMeasuredPeerCeiling) {
  const WatchFinding near = run(nvlink_near_ceiling,
                                timeline([](int, GpuSample& s, HostSample&) { s.nvlink_tx_gbps = 350; }));
  EXPECT_EQ(near.outcome, RuleOutcome::Fired) << near.evidence;
  EXPECT_NE(near.evidence.find("p2p/ce_unidir/1GiB/gpu0-gpu1/bandwidth"), std::string::npos);
  EXPECT_EQ(run(nvlink_near_ceiling, timeline()).outcome, RuleOutcome::Clear);
}

TEST(WatchRules, PcieLinkDegradedUnderLoadButNotWhenItTrainsDownIdle) {
  const WatchFinding degraded = run(pcie_link_degraded,
                                    timeline([](int, GpuSample& s, HostSample&) { s.pcie_gen = 3; }));
  EXPECT_EQ(degraded.outcome, RuleOutcome::Fired) << degraded.evidence;
  EXPECT_NE(degraded.evidence.find("Gen5 x16 (Gen3 x16)"), std::string::npos) << degraded.evidence;
  const WatchFinding idle_downtrained = run(pcie_link_degraded, timeline([](int i, GpuSample& s, HostSample&) {
                                              if (i % 2 == 0) return;
                                              s.utilization = 0;
                                              s.pcie_gen = 1;
                                            }));
  EXPECT_EQ(idle_downtrained.outcome, RuleOutcome::Clear) << idle_downtrained.evidence;
}

TEST(WatchRules, XidOrEccEventsOfThisGpuOnly) {
  WatchTimeline job = timeline();
  job.events.push_back({12, 1, "xid", 79, "GPU has fallen off the bus"});
  EXPECT_EQ(run(xid_or_ecc_events, job).outcome, RuleOutcome::Clear);
  job.events.push_back({30, 0, "xid", 48, "double-bit ECC error"});
  const WatchFinding fired = run(xid_or_ecc_events, job);
  EXPECT_EQ(fired.outcome, RuleOutcome::Fired);
  EXPECT_NE(fired.evidence.find("at 30 s Xid 48"), std::string::npos) << fired.evidence;
}

TEST(WatchRules, XidOrEccEventsCannotBeClearWhereTheyWereNotWatched) {
  WatchTimeline job = timeline();
  job.gpus[0].events_unwatched = "Xid events not watched: nvmlDeviceRegisterEvents: Not Supported";
  const WatchFinding unwatched = run(xid_or_ecc_events, job);
  EXPECT_EQ(unwatched.outcome, RuleOutcome::CouldNotRun);
  EXPECT_EQ(unwatched.evidence, job.gpus[0].events_unwatched);
  job.events.push_back({30, 0, "ecc_corrected", 2, ""});  // an event seen is still reported
  EXPECT_EQ(run(xid_or_ecc_events, job).outcome, RuleOutcome::Fired);
}

TEST(WatchRules, WithoutGpmTheGpmRulesSayTheyCouldNotRun) {
  const WatchTimeline job = timeline([](int, GpuSample& s, HostSample&) {
    GpuSample plain;
    plain.t_s = s.t_s;
    plain.utilization = s.utilization;
    plain.memory_used_gib = s.memory_used_gib;
    plain.memory_total_gib = s.memory_total_gib;
    plain.clock_event_reasons = s.clock_event_reasons;
    plain.pcie_gen = s.pcie_gen;
    plain.pcie_width = s.pcie_width;
    s = plain;
  });
  const GpuDiagnosis diagnosis = diagnose_gpu(job, job.gpus[0], h200());
  for (const WatchFinding& f : diagnosis.findings) {
    const bool gpm = f.rule == "tensor_cores_idle" || f.rule == "memory_bandwidth_bound" ||
                     f.rule == "many_small_kernels" || f.rule == "host_transfers_at_ceiling" ||
                     f.rule == "nvlink_near_ceiling";
    EXPECT_EQ(f.outcome, gpm ? RuleOutcome::CouldNotRun : RuleOutcome::Clear) << f.rule << ": " << f.evidence;
    if (gpm) EXPECT_NE(f.evidence.find("GPM"), std::string::npos) << f.evidence;
  }
  EXPECT_EQ(diagnosis.summary, "no bottleneck found (could not run: tensor_cores_idle, memory_bandwidth_bound, "
                               "many_small_kernels, host_transfers_at_ceiling, nvlink_near_ceiling)");
}

TEST(WatchRules, TooShortAJobGetsNoDiagnosis) {
  const WatchTimeline job = timeline({}, 3);
  const GpuDiagnosis diagnosis = diagnose(job, {{0, h200()}}).at(0);
  EXPECT_EQ(diagnosis.findings[0].outcome, RuleOutcome::CouldNotRun);
  EXPECT_NE(diagnosis.summary.find("no diagnosis: 3 samples"), std::string::npos) << diagnosis.summary;
}

TEST(WatchTimeline, JsonRoundTripKeepsAbsentFieldsAbsent) {
  WatchTimeline job = timeline();
  job.gpus[0].samples[2].sm_active.reset();
  job.gpus[0].samples[2].clock_event_reasons = kSwPowerCap | kSwThermalSlowdown;
  job.host[3].io_wait.reset();  // delay accounting off
  job.events.push_back({4.5, 0, "ecc_corrected", 2, ""});
  const nlohmann::json written = to_json(job);
  EXPECT_EQ(written["schema"], kWatchSchema);
  EXPECT_FALSE(written["gpus"][0]["samples"][2].contains("sm_active"));
  EXPECT_FALSE(written["host"][3].contains("io_wait"));
  EXPECT_EQ(written["host"][2]["io_wait"], 0.0);
  const WatchTimeline read = watch_timeline_from_json(written, "watch.json");
  EXPECT_FALSE(read.gpus[0].samples[2].sm_active);
  EXPECT_FALSE(read.host[3].io_wait);
  EXPECT_EQ(read.host[2].io_wait, 0.0);
  EXPECT_EQ(read.gpus[0].samples[2].clock_event_reasons, kSwPowerCap | kSwThermalSlowdown);
  EXPECT_EQ(to_json(read), written);
}

TEST(WatchTimeline, ABadDocumentNamesTheFileAndTheField) {
  nlohmann::json document = to_json(timeline());
  document["gpus"][0]["samples"][2]["sm_active"] = 1.7;
  try {
    watch_timeline_from_json(document, "watch.json");
    FAIL() << "a share of 1.7 was accepted";
  } catch (const InputError& error) {
    EXPECT_EQ(std::string(error.what()),
              "watch.json: field 'gpus[0].samples[2].sm_active': 1.7 is not a share between 0 and 1");
  }
  document = to_json(timeline());
  document["host"][1].erase("busiest_thread");
  EXPECT_THROW(watch_timeline_from_json(document, "watch.json"), InputError);
  document = to_json(timeline());
  document["host"][1]["io_wait"] = 1.5;
  EXPECT_THROW(watch_timeline_from_json(document, "watch.json"), InputError);
  document = to_json(timeline());
  document["schema"] = "gpubench.results/1";
  EXPECT_THROW(watch_timeline_from_json(document, "watch.json"), InputError);
  document = to_json(timeline());
  document["gpus"][0]["samples"][0]["pcie_gen"] = "five";
  EXPECT_THROW(watch_timeline_from_json(document, "watch.json"), InputError);
  document = to_json(timeline());
  document["host"][3]["t_s"] = 1.5;
  EXPECT_THROW(watch_timeline_from_json(document, "watch.json"), InputError);
  document = to_json(timeline());
  document["gpus"][0]["samples"][0]["clock_event_reasons"] = -4;
  EXPECT_THROW(watch_timeline_from_json(document, "watch.json"), InputError);
}

Metric metric(const std::string& id, double value) {
  Metric m;
  m.id = id;
  m.value = value;
  return m;
}

TEST(WatchCeilings, ReadFromAResultsDocumentReadBeforeTriadAndAbsentWhenUnmeasured) {
  ResultsDocument document;
  document.metrics = {metric("memory/read/1GiB/gpu0/bandwidth", 4428), metric("memory/triad/1GiB/gpu0/bandwidth", 4360),
                      metric("memory/triad/1GiB/gpu1/bandwidth", 4361),
                      metric("gemm/bf16/8192x8192x8192/gpu0/tflops", 693),
                      metric("gemm/burst/bf16/8192x8192x8192/gpu0/tflops", 823),
                      metric("gemm/bf16/4096x4096x4096/gpu0/tflops", 680),
                      metric("pcie/h2d/pinned/1GiB/gpu0/bandwidth", 55.5),
                      metric("pcie/h2d/pinned/1GiB/all_gpus/bandwidth", 109.5),
                      metric("pcie/d2h/pageable/1GiB/gpu1/bandwidth", 13.6),
                      metric("p2p/ce_unidir/1GiB/gpu0-gpu1/bandwidth", 395.9)};
  const std::map<int, GpuCeilings> ceilings = node_ceilings(document);
  ASSERT_EQ(ceilings.size(), 2u);
  const GpuCeilings& gpu0 = ceilings.at(0);
  EXPECT_EQ(gpu0.hbm_gbps->metric, "memory/read/1GiB/gpu0/bandwidth");
  EXPECT_EQ(ceilings.at(1).hbm_gbps->value, 4361);
  ASSERT_EQ(gpu0.gemm_tflops.size(), 1u);
  EXPECT_EQ(gpu0.gemm_tflops.at("bf16").value, 693);
  EXPECT_EQ(gpu0.h2d_pinned_gbps->value, 55.5);
  EXPECT_FALSE(gpu0.d2h_pinned_gbps);
  EXPECT_EQ(ceilings.at(1).d2h_pageable_gbps->value, 13.6);
  EXPECT_EQ(gpu0.p2p_out_gbps.at(1).value, 395.9);
  EXPECT_TRUE(ceilings.at(1).p2p_out_gbps.empty());
}

}  // namespace
}  // namespace gpubench
