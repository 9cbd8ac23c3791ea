#!/usr/bin/env python3
"""Writes memory_bound_h200.json: a watch document as `gpubench watch` writes one (schema gpubench.watch/1,
docs/watch.md) for a memory-bound job on one H200, for show's and report's tests (tests/cli/watch_show_report_test.py).

The job is tests/watch_jobs/elementwise_bandwidth.py: 31 samples a second apart, the first while it allocates its
tensors, then DRAM activity 0.80-0.83 of the H200's 4917 GB/s theoretical peak as GpuSampler reads it (3.9-4.1 TB/s,
about 90 % of the 4.41 TB/s the shipped baseline expects), SM activity about 0.95, the tensor pipes idle, PCIe and
NVLink near zero; the job's Python thread busy launching (one core). GPM fields throughout. The ceilings are the shipped one-H200
baseline's expected figures (baselines/nvidia-h200-x1.json). The diagnosis is what harness/watch/diagnosis_rules.cpp
concluded from this timeline and these ceilings when the file was made (memory_bandwidth_bound fired, the others
clear, nvlink_near_ceiling could not run: no peer), copied in below as DIAGNOSIS.

Deterministic (a seeded generator): running it again writes the same file.
usage: make_memory_bound_h200.py [OUTPUT]
"""
import json
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def r(x, digits=4):
    return round(x, digits)


def timeline(rng):
    samples, host = [], []
    temperature = 36.0
    for i in range(31):
        t = 1.0 + i
        warming = i == 0
        temperature += (52.0 - temperature) * 0.12
        dram = rng.uniform(0.28, 0.32) if warming else rng.uniform(0.80, 0.83)
        sm = rng.uniform(0.34, 0.38) if warming else rng.uniform(0.93, 0.97)
        sample = {
            "t_s": t,
            "utilization": 0.41 if warming else 1.0,
            "memory_used_gib": r(3.6 if warming else 4.62, 2),
            "memory_total_gib": 140.4,
            "power_w": r(rng.uniform(190, 200) if warming else rng.uniform(478, 521), 1),
            "sm_clock_mhz": 1980.0,
            "temperature_c": float(round(temperature)),
            "clock_event_reasons": 1 if warming else 0,
            "pcie_gen": 5,
            "pcie_width": 16,
            "sm_active": r(sm),
            "sm_occupancy": r(sm * rng.uniform(0.86, 0.9)),
            "tensor_active": 0.0,
            "dram_active": r(dram),
            "fp64_active": 0.0,
            "fp32_active": r(rng.uniform(0.035, 0.045)),
            "fp16_active": 0.0,
            "pcie_tx_gbps": r(rng.uniform(0.02, 0.04)),
            "pcie_rx_gbps": r(rng.uniform(0.04, 0.07) + (1.1 if warming else 0)),
            "nvlink_tx_gbps": 0.0,
            "nvlink_rx_gbps": 0.0,
        }
        samples.append(sample)
        host.append({"t_s": t, "cpu_cores": r(rng.uniform(0.97, 1.03) if not warming else 1.4),
                     "busiest_thread": r(rng.uniform(0.96, 0.995)), "io_wait": 0.0})
    return samples, host


# The diagnosis harness/watch/diagnosis_rules.cpp (commit addda6b) made of this timeline and these ceilings.
DIAGNOSIS = [
 {
  "findings": [
   {
    "evidence": "SM activity (DCGM_FI_PROF_SM_ACTIVE) low with the job's CPU saturated or waiting on I/O in 0 of 31 samples; median activity 95 %",
    "outcome": "clear",
    "rule": "gpu_starved",
    "source": "DCGM: SM activity under 0.5 likely indicates ineffective GPU use; CPU 90 % and I/O wait 20 % are gpubench's choice"
   },
   {
    "evidence": "compute-bound (SM activity 80 %+) with tensor pipes under 5 % and FP32/FP16 pipes at 20 %+ in 0 of 31 samples; median tensor activity 0 %",
    "outcome": "clear",
    "rule": "tensor_cores_idle",
    "source": "DCGM: SM activity 0.8 or more for a compute-bound load; tensor pipes under 5 % with FP32/FP16 pipes at 20 % or more is gpubench's choice"
   },
   {
    "evidence": "DRAM traffic at 80 %+ of the measured 4412 GB/s (memory/read/1GiB/gpu0/bandwidth) in 30 of 31 samples; median 3995 GB/s",
    "fix": "The job moves bytes as fast as this GPU's HBM allows, so it speeds up only by moving fewer: fuse element-wise kernels (torch.compile), keep activations in BF16/FP8, reuse data on chip (larger tiles or batches); Nsight Compute's memory workload analysis shows which kernels",
    "outcome": "fired",
    "rule": "memory_bandwidth_bound",
    "source": "DRAM bandwidth (DCGM_FI_PROF_DRAM_ACTIVE x theoretical peak) at 80 % or more of this node's measured HBM bandwidth: gpubench's choice"
   },
   {
    "evidence": "utilisation 80 %+ with SM activity under 50 % and one thread of the job at 90 %+ of a core in 0 of 31 samples; median utilisation 100 %, SM activity 95 %",
    "outcome": "clear",
    "rule": "many_small_kernels",
    "source": "DCGM: SM activity under 0.5 is ineffective use; utilisation 80 %+ beside it and the job's busiest thread at 90 %+ of a core are gpubench's choice"
   },
   {
    "evidence": "memory 95 %+ full in 0 of 31 samples; median 4.6 of 140.4 GiB used",
    "outcome": "clear",
    "rule": "memory_nearly_full",
    "source": "95 % of the GPU's memory used: gpubench's choice"
   },
   {
    "evidence": "thermal or hardware slowdown in 0 and power cap alone in 0 of 31 samples; median SM clock 1980 MHz, power 497 W, temperature 50 C (slowdown at 87 C)",
    "outcome": "clear",
    "rule": "thermal_or_power_slowdown",
    "source": "NVML's clock-event reasons (not a fixed temperature); a tenth of the samples for thermal/hardware slowdowns, most of them for the power cap: gpubench's choice"
   },
   {
    "evidence": "host to device: median 0.1 GB/s payload, at 80 %+ of the pinned 55.4 GB/s in 0 of 31 samples, at the pageable 8.8 GB/s in 0; device to host: median 0.0 GB/s payload, at 80 %+ of the pinned 55.3 GB/s in 0 of 31 samples, at the pageable 14.9 GB/s in 0",
    "outcome": "clear",
    "rule": "host_transfers_at_ceiling",
    "source": "GPM PCIe bytes (DCGM_FI_PROF_PCIE_RX/TX_BYTES, link bytes x 55/58.9 for payload, measured on an H200) at 80 % of the measured pinned ceiling, or within 0.8-1.25x the pageable one: gpubench's choice"
   },
   {
    "evidence": "could not run: the ceilings have no p2p/ce_unidir 1GiB figure from GPU 0",
    "outcome": "could not run",
    "rule": "nvlink_near_ceiling",
    "source": "GPM NVLink bytes (DCGM_FI_PROF_NVLINK_RX/TX_BYTES) at 80 % or more of this node's measured P2P copy-engine bandwidth (p2p/ce_unidir/1GiB): gpubench's choice"
   },
   {
    "evidence": "link below its maximum Gen5 x16 in 0 of 30 samples taken with the GPU busy",
    "outcome": "clear",
    "rule": "pcie_link_degraded",
    "source": "NVML's current PCIe generation and width below the maximum while the GPU is busy (utilisation 50 %+: links train down when idle to save power): gpubench's choice"
   },
   {
    "evidence": "no Xid or ECC events during the job",
    "outcome": "clear",
    "rule": "xid_or_ecc_events",
    "source": "NVML's Xid events and ECC counters during the job: any one counts"
   }
  ],
  "gpu": 0,
  "summary": "1 finding"
 }
]


def main():
    rng = random.Random(31)
    samples, host = timeline(rng)
    document = {
        "schema": "gpubench.watch/1",
        "command": ["python3", "tests/watch_jobs/elementwise_bandwidth.py", "--seconds", "30"],
        "interval_s": 1.0,
        "cpus_allowed": 16,
        "gpus": [{"index": 0, "name": "NVIDIA H200", "dram_peak_gbps": 4916.7, "pcie_max_gen": 5,
                  "pcie_max_width": 16, "slowdown_temperature_c": 87.0, "samples": samples}],
        "host": host,
        "events": [],
        "gpubench_version": "0.9.0",
        "hostname": "h200-node-07",
        "started_at": "2026-12-04T01:00:00Z",
        "finished_at": "2026-12-04T01:00:31Z",
        "duration_s": 31.4,
        "mode": "command",
        "job": {"status": 0, "exit_code": 0},
        "gpu_identities": [{"index": 0, "uuid": "GPU-5b1c7a9e-3f0d-4e2b-9c61-8d2f4a7e0b13",
                            "pci_bus_id": "00000000:19:00.0"}],
        "gpm_unavailable": [],
        "diagnosed_gpus": [0],
        "diagnosed_gpus_basis": "NVML listed the job's processes on them",
        "ceilings": {
            "source": "baselines/nvidia-h200-x1.json",
            "kind": "baseline",
            "note": "the expected figures of this node's kind, 1 x NVIDIA H200 (single)",
            "gpus": [{
                "index": 0,
                "hbm_gbps": {"value": 4411.530858291446, "metric": "memory/read/1GiB/gpu0/bandwidth"},
                "gemm_tflops": {
                    "bf16": {"value": 655.3190507919398, "metric": "gemm/bf16/8192x8192x8192/gpu0/tflops"},
                    "fp32": {"value": 49.49534263144966, "metric": "gemm/fp32/8192x8192x8192/gpu0/tflops"},
                    "tf32": {"value": 348.59486091578117, "metric": "gemm/tf32/8192x8192x8192/gpu0/tflops"},
                },
                "h2d_pinned_gbps": {"value": 55.41887435879396, "metric": "pcie/h2d/pinned/1GiB/gpu0/bandwidth"},
                "d2h_pinned_gbps": {"value": 55.32051306597225, "metric": "pcie/d2h/pinned/1GiB/gpu0/bandwidth"},
                "h2d_pageable_gbps": {"value": 8.802191347437422, "metric": "pcie/h2d/pageable/1GiB/gpu0/bandwidth"},
                "d2h_pageable_gbps": {"value": 14.939786304927472,
                                      "metric": "pcie/d2h/pageable/1GiB/gpu0/bandwidth"},
            }],
        },
        "diagnosis": DIAGNOSIS,
    }
    output = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "memory_bound_h200.json")
    with open(output, "w") as f:
        json.dump(document, f, indent=1)
        f.write("\n")


if __name__ == "__main__":
    main()
