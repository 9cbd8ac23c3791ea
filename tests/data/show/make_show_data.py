#!/usr/bin/env python3
"""Writes the two-GPU results documents the `show` and `compare` tests read. The repository holds no results
document of a two-GPU run; these are made in its shape from what was recorded on one:

two_h200.json        `gpubench run --suite full --filter ...` on the 2 x H200 node behind
                     ../../../baselines/nvidia-h200-x2-nv18.json: memory triad and BF16 GEMM on each GPU, pinned PCIe
                     copies at the quick suite's four sizes, every p2p figure of both ordered pairs at 16 MiB and 1 GiB,
                     and the NCCL all-reduce with Ring and Tree (Simple protocol) at five sizes, out of place and in place.
                     Each metric's value is the baseline's expected value (the median of three recorded runs); its five
                     repetitions spread about it by the baseline's run-to-run spread. The baseline has no in-place
                     figure of a forced algorithm (the quick suite does not run one): those are the out-of-place figure
                     less 0.5 %. Params are abridged to those that say how it was measured; NCCL's are complete.
                     Environment: ../results_h200x1_memory_only.json's, with a second H200 and the NV18 link between
                     them.
two_h200_later.json  the same node a night later: Ring all-reduce at 1 GiB out of place 6 % slower in every repetition,
                     BF16 GEMM on GPU 1 3 % faster, the 0 -> 1 latency's median 0.5 % higher with its repetitions
                     still among the first night's; every other figure as before.
Run it from this directory; it overwrites both files.
"""
import copy
import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from results_samples import with_samples  # noqa: E402 (found through the path above)

with open("../../../baselines/nvidia-h200-x2-nv18.json") as f:
    baseline = json.load(f)["metrics"]
with open("../results_h200x1_memory_only.json") as f:
    recorded = json.load(f)

# Spread of the five repetitions, in units of the baseline's spread, in the order they ran.
REPETITION_OFFSETS = [0.5, -1.0, 0.0, 1.0, -0.5]
NCCL_SIZES = {"8B": 8, "4KiB": 4096, "2MiB": 2 << 20, "128MiB": 128 << 20, "1GiB": 1 << 30}


def six(value):
    return "%.6g" % value


def metric(metric_id, device, params, expected=None, spread=None, peak=None):
    entry = baseline.get(metric_id)
    expected = entry["expected"] if expected is None else expected
    spread = entry["spread"] if spread is None else spread
    benchmark, figure = metric_id.rsplit("/", 1)
    m = {"id": metric_id, "benchmark": benchmark, "family": metric_id.split("/")[0], "device": device,
         "unit": entry["unit"] if entry else "GB/s", "better": entry["better"] if entry else "higher",
         "telemetry": {"clock_event_reasons": [], "sm_clock_mhz": 1980.0, "throttled": False}, "params": params}
    if peak is not None:
        m["peak"] = peak
    return with_samples(m, [expected + k * spread for k in REPETITION_OFFSETS])


def pair_params(a, b, size_bytes=None):
    params = {"from": f"gpu{a}", "to": f"gpu{b}", "p2p_access": "true", "link": "NV18", "link_source": "nvml",
              "nvlinks": "18", "link_via": "nvswitch"}
    if size_bytes is not None:
        params.update(bytes=str(size_bytes), timed_from="gate release",
                      copies_per_iteration=str(max(1, min(64, (64 << 20) // size_bytes))))
    return params


def allreduce(algo, size, placement):
    out_of_place = f"nccl/allreduce/{algo}/simple/{size}/out_of_place/busbw"
    entry = baseline[out_of_place]
    factor = 1.0 if placement == "out_of_place" else 0.995
    m = metric(f"nccl/allreduce/{algo}/simple/{size}/{placement}/busbw", None, {},
               expected=entry["expected"] * factor, spread=entry["spread"] * factor)
    m["unit"], m["better"] = "GB/s", "higher"
    size_bytes = NCCL_SIZES[size]
    calls = 16 if size_bytes <= 1 << 20 else 4 if size_bytes <= 8 << 20 else 2 if size_bytes < 64 << 20 else 1
    # Two ranks: busbw = algbw x 2(n-1)/n = algbw. Each repetition's time differs, so the params list all five.
    m["params"] = {"time_us": "; ".join(six(size_bytes / (s * 1e3)) for s in m["samples"]),
                   "algbw_GBps": "; ".join(six(s) for s in m["samples"]), "bytes": str(size_bytes), "ranks": "2",
                   "placement": placement, "calls_per_sample": str(calls), "datatype": "float32", "op": "sum",
                   "nccl_algo_forced": algo, "nccl_proto_forced": "simple", "nccl_algo_used": algo,
                   "nccl_proto_used": "simple", "mode": "single_process"}
    return m


def two_gpu_environment():
    env = copy.deepcopy(recorded["environment"])
    second = copy.deepcopy(env["gpus"][0])
    second.update(index=1, pci_bus_id="0000:00:07.0", serial="1653924042281",
                  uuid="GPU-7a1c20e4-9b3d-2f61-8c5e-44d0a1b3c9f2", temperature_c=37)
    env["gpus"].append(second)
    env["topology"] = {"devices": [0, 1], "p2p_access": [[True, True], [True, True]],
                       "links": [{"a": 0, "b": 1, "kind": "NV18", "nvlinks": 18, "via": "nvswitch",
                                  "cuda_p2p_performance_rank": 0}]}
    return env


def first_night():
    dram_peak = recorded["metrics"][5]["peak"]
    metrics = [metric(f"memory/triad/1GiB/gpu{g}/bandwidth", g, {"array_bytes": "1073741824",
                      "bytes_per_launch": "3221225472", "launch": "grid65536xblock1024xunroll1+cs"}, peak=dram_peak)
               for g in (0, 1)]
    metrics += [metric(f"gemm/bf16/8192x8192x8192/gpu{g}/tflops", g, {"sm_clock_max_khz": "1980000"})
                for g in (0, 1)]
    for direction in ("h2d", "d2h"):
        for g in (0, 1):
            for size, size_bytes in (("4KiB", 4096), ("1MiB", 1 << 20), ("64MiB", 64 << 20), ("1GiB", 1 << 30)):
                metrics.append(metric(f"pcie/{direction}/pinned/{size}/gpu{g}/bandwidth", g,
                                      {"bytes": str(size_bytes),
                                       "host_memory": "pinned (mmap + cudaHostRegister)"}))
    metrics.append(metric("pcie/bidirectional/pinned/1GiB/all_gpus/bandwidth", None,
                          {"bytes": "1073741824", "gpus": "2",
                           "host_memory": "pinned (mmap + cudaHostRegister)"}))
    for variant in ("ce_unidir", "ce_bidir", "sm_write", "sm_read", "staged_host"):
        for size, size_bytes in (("16MiB", 16 << 20), ("1GiB", 1 << 30)):
            for a, b in ((0, 1), (1, 0)):
                metrics.append(metric(f"p2p/{variant}/{size}/gpu{a}-gpu{b}/bandwidth", a, pair_params(a, b, size_bytes)))
    for a, b in ((0, 1), (1, 0)):
        metrics.append(metric(f"p2p/latency/gpu{a}-gpu{b}/latency", a, pair_params(a, b)))
    for algo in ("ring", "tree"):
        for size in NCCL_SIZES:
            for placement in ("out_of_place", "in_place"):
                metrics.append(allreduce(algo, size, placement))
    families = [{"family": f, "status": "ok", "seconds": s, "exit_code": 0, "telemetry": {}}
                for f, s in (("memory", 9.8), ("gemm", 61.2), ("pcie", 48.4), ("p2p", 37.9), ("nccl.ring_simple", 44.1),
                             ("nccl.tree_simple", 45.6))]
    return {"schema": "gpubench.results/1",
            "run": {"id": "20261130T020000Z-vm-3141", "started_at": "2026-11-30T02:00:00Z",
                    "finished_at": "2026-11-30T02:04:07Z", "host": "vm", "gpubench_version": "0.1.0",
                    "git_revision": "unknown",
                    "command_line": ["./build/gpubench", "run", "--suite", "full", "--filter",
                                     "^(memory/triad|gemm/bf16/8192x|pcie/(h2d|d2h)/pinned/(4KiB|1MiB|64MiB|1GiB)/"
                                     "|pcie/bidirectional/pinned/1GiB/all|p2p/[a-z_]+/(16MiB|1GiB)/|p2p/latency/"
                                     "|nccl/allreduce/(ring|tree)/simple/(8B|4KiB|2MiB|128MiB|1GiB)/)",
                                     "-o", "/var/lib/gpubench/vm/20261130.json"],
                    "suite": "full", "devices": [0, 1], "interrupted": False},
            "environment": two_gpu_environment(), "families": families, "metrics": metrics, "failures": [],
            "skipped": []}


def night_after(first):
    later = copy.deepcopy(first)
    later["run"].update(id="20261201T020000Z-vm-2718", started_at="2026-12-01T02:00:00Z",
                        finished_at="2026-12-01T02:04:11Z")
    later["run"]["command_line"][-1] = "/var/lib/gpubench/vm/20261201.json"
    by_id = {m["id"]: m for m in later["metrics"]}
    ring = by_id["nccl/allreduce/ring/simple/1GiB/out_of_place/busbw"]
    with_samples(ring, [s * 0.94 for s in ring["samples"]])
    ring["params"]["time_us"] = "; ".join(six((1 << 30) / (s * 1e3)) for s in ring["samples"])
    ring["params"]["algbw_GBps"] = "; ".join(six(s) for s in ring["samples"])
    gemm = by_id["gemm/bf16/8192x8192x8192/gpu1/tflops"]
    with_samples(gemm, [s * 1.03 for s in gemm["samples"]])
    latency = by_id["p2p/latency/gpu0-gpu1/latency"]
    lowest, highest = min(latency["samples"]), max(latency["samples"])
    median = latency["value"] * 1.005
    with_samples(latency, [median, lowest + 0.1, highest - 0.1, median + 0.2, lowest + 0.2])
    return later


first = first_night()
with open("two_h200.json", "w") as f:
    json.dump(first, f, indent=1)
with open("two_h200_later.json", "w") as f:
    json.dump(night_after(first), f, indent=1)
