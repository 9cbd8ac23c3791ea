#!/usr/bin/env python3
"""Writes the results document the `gpubench report` tests draw everything from. The repository holds no recorded
document with GEMM peaks, an L2 sweep and a stress run together; this one is made in their shapes
(docs/results-schema.md) on top of ../show/two_h200.json (two H200s: PCIe, P2P, NCCL):

two_h200_stress.json  two_h200.json's figures, but for its one BF16 GEMM, and
  - GEMM, sustained, in every precision at 1024^3 to 16384^3, with the peak each carries on an H200 (132 SMs at
    1980 MHz; benchmarks/gemm/gemm_peaks.hpp), a burst at 8192^3 and the maximum achievable of the Tensor Core
    precisions: the README's measured 8192^3 figures (sustained and burst), the other shapes scaled from them;
  - the L2 read sweep 4 KiB to 512 MiB and the chunked L2 read 4 to 32 MiB, against the public 10,619 GB/s, with
    the 64 MiB point at the schema's 8,176 GB/s and the 4 MiB chunked point at the README's 10,130;
  - a 60 s `gpubench stress` section: NVML each second (the clock falling from 1980 MHz to the power cap's, the
    temperature rising towards 68 C), a GEMM window each 5 s, every GPU passing; and its per-GPU TFLOP/s metrics.
  GPU 1's figures are GPU 0's less 0.7 %. Made-up noise from a fixed seed.
Run it from this directory; it overwrites the file.
"""
import copy
import json
import math
import os
import random
import statistics
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from results_samples import with_samples  # noqa: E402 (found through the path above)

with open("../show/two_h200.json") as f:
    document = json.load(f)

noise = random.Random(20261201)
REPETITION_OFFSETS = [0.5, -1.0, 0.0, 1.0, -0.5]  # in units of the spread, in the order the repetitions ran

PEAKS = {"fp32": 66.9, "tf32": 535.3, "fp16": 1070.5, "bf16": 1070.5, "fp8_e4m3": 2141.0}
SUSTAINED_8192 = {"fp32": 49.4, "tf32": 374.0, "fp16": 660.0, "bf16": 690.0, "fp8_e4m3": 1214.0}
BURST_8192 = {"fp32": 51.0, "tf32": 430.2, "fp16": 787.2, "bf16": 821.6, "fp8_e4m3": 1471.0}
SHAPE_SCALE = {1024: 0.45, 2048: 0.75, 4096: 0.93, 8192: 1.0, 16384: 1.02}
SECOND_GPU = 0.993

L2_PEAK = 10619.0
L2_SWEEP = {"4KiB": 2480, "64KiB": 7130, "1MiB": 9620, "4MiB": 9376, "16MiB": 9310, "32MiB": 9180, "64MiB": 8176,
            "128MiB": 5230, "256MiB": 4610, "512MiB": 4460}
L2_CHUNKED = {"4MiB": 10130, "8MiB": 10090, "16MiB": 10020, "32MiB": 9940}


def metric(metric_id, gpu, unit, value, peak=None, params=None, spread=0.005):
    benchmark = metric_id.rsplit("/", 1)[0]
    m = {"id": metric_id, "benchmark": benchmark, "family": metric_id.split("/")[0], "device": gpu, "unit": unit,
         "better": "higher", "telemetry": {"clock_event_reasons": [], "sm_clock_mhz": 1980.0, "throttled": False},
         "params": params or {}}
    if peak is not None:
        m["peak"] = peak
    value *= SECOND_GPU if gpu == 1 else 1.0
    return with_samples(m, [value * (1 + k * spread) for k in REPETITION_OFFSETS])


def gemm_metrics():
    metrics = []
    for precision, peak in PEAKS.items():
        for gpu in (0, 1):
            for edge, scale in SHAPE_SCALE.items():
                metrics.append(metric(f"gemm/{precision}/{edge}x{edge}x{edge}/gpu{gpu}/tflops", gpu, "TFLOP/s",
                                      SUSTAINED_8192[precision] * scale, peak, {"sm_clock_max_khz": "1980000"}))
            metrics.append(metric(f"gemm/burst/{precision}/8192x8192x8192/gpu{gpu}/tflops", gpu, "TFLOP/s",
                                  BURST_8192[precision], peak, {"sm_clock_max_khz": "1980000"}))
            if precision != "fp32":
                metrics.append(metric(f"gemm/max_achievable/{precision}/gpu{gpu}/tflops", gpu, "TFLOP/s",
                                      BURST_8192[precision] * 1.02, peak, {"shape": "8192x16384x8192"}))
    return metrics


def cache_metrics():
    metrics = []
    for gpu in (0, 1):
        for variant, sweep in (("l2_read", L2_SWEEP), ("l2_read_chunked", L2_CHUNKED)):
            for size, value in sweep.items():
                metrics.append(metric(f"cache/{variant}/{size}/gpu{gpu}/bandwidth", gpu, "GB/s", value, L2_PEAK,
                                      {"l2_bytes": "62914560", "reference": "gpu-benches gpu-l2-cache h200.txt"}))
    return metrics


def stress_gpu(index, name, seconds, window_s):
    rows, windows = [], []
    for t in range(seconds + 1):
        warm = t >= 2  # the load reaches the power cap within two seconds
        temperature = 68 - 33 * math.exp(-t / 18) + noise.uniform(-0.4, 0.4)
        power = (690 + noise.uniform(-8, 8)) if warm else 180 + 200 * t
        clock = (1425 + noise.uniform(-30, 30)) if warm else 1980
        reasons = 4 if warm else 0  # software power cap
        rows.append([t, round(temperature, 1), round(power, 1), round(clock), 2619, reasons, 0, 0])
    for start in range(0, seconds, window_s):
        tflops = (655 + noise.uniform(-4, 4)) * (SECOND_GPU if index == 1 else 1.0)
        windows.append({"start_s": start, "end_s": start + window_s, "tflops": round(tflops, 2)})
    rates = [w["tflops"] for w in windows]
    return {"index": index, "name": name, "verdict": "pass", "findings": [],
            "median_tflops": statistics.median(rates), "max_temperature_c": max(r[1] for r in rows),
            "max_power_w": max(r[2] for r in rows), "slowdown_threshold_c": 87, "gemm_runs": 2460,
            "gemm_mismatches": 0, "first_gemm_mismatch": "", "memtest_passes": 12, "memtest_errors": 0,
            "first_memtest_error": "", "xid_events": [], "worker_error": "", "windows": windows,
            "telemetry": {"columns": ["t_s", "temperature_c", "power_w", "sm_clock_mhz", "memory_clock_mhz",
                                      "clock_event_reasons", "ecc_corrected", "ecc_uncorrected"],
                          "samples": rows}}


def stress_section(seconds=60, window_s=5):
    gpus = [stress_gpu(i, "NVIDIA H200", seconds, window_s) for i in (0, 1)]
    section = {"duration_s": seconds,
               "limits": {"max_temperature_c": 90, "drift": 0.1, "sibling": 0.1, "warmup_s": 10},
               "load": "BF16 GEMM 8192^3 (cuBLAS, FP32 accumulate), each result compared with the first; memory "
                       "test patterns walking ones, walking zeros, random, address-in-address between windows",
               "node_verdict": "pass", "gpus": gpus}
    metrics = []
    for gpu in gpus:
        rates = [w["tflops"] for w in gpu["windows"]]
        m = {"id": f"stress/gemm_bf16/8192/gpu{gpu['index']}/tflops",
             "benchmark": f"stress/gemm_bf16/8192/gpu{gpu['index']}", "family": "stress", "device": gpu["index"],
             "unit": "TFLOP/s", "better": "higher",
             "telemetry": {"clock_event_reasons": ["sw_power_cap"], "throttled": True}, "params": {}}
        metrics.append(with_samples(m, rates))
    return section, metrics


out = copy.deepcopy(document)
out["run"].update(id="20261201T030000Z-vm-4242", started_at="2026-12-01T03:00:00Z", finished_at="2026-12-01T03:09:30Z")
out["run"]["command_line"] = ["./build/gpubench", "run", "--suite", "full", "-o", "two_h200_stress.json"]
out["metrics"] = [m for m in out["metrics"] if not m["id"].startswith("gemm/")] + gemm_metrics() + cache_metrics()
out["stress"], stress_metrics = stress_section()
out["metrics"] += stress_metrics
with open("two_h200_stress.json", "w") as f:
    json.dump(out, f, indent=1)
