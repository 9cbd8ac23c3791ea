#!/usr/bin/env python3
"""Derives the `gpubench check` test files from ../results_h200x1_memory_only.json, a run recorded on an H200.

healthy_1..10.json the recording with every sample scaled by 1.000, 1.002, 0.998, ... (ten healthy runs, as
                   baselines/README.md recommends); memcpy_d2d moves a further +-16 % between them, as a
                   host-bound figure may, so that its noise band (52 %) is too wide to catch a halved link.
                   baseline.json is `gpubench baseline create healthy_*.json` (made by the test, and committed):
                   memcpy_d2d does not gate there, every other metric does.
mixed.json         the recording edited so that every verdict appears once:
                   read pass, write regression (-10 %), copy improvement (+8 %), scale noisy (-5 % with a
                   +-12 % spread), add missing, triad failed, memcpy_d2d informational (-9 %, which would be a
                   regression if it gated), and a metric the baseline lacks.
Run it from this directory; it overwrites the JSON files.
"""
import copy
import json
import statistics

with open("../results_h200x1_memory_only.json") as f:
    recorded = json.load(f)


def scaled(doc, factor, run_id, memcpy_factor=1.0):
    out = copy.deepcopy(doc)
    out["run"]["id"] = run_id
    for m in out["metrics"]:
        f = factor * (memcpy_factor if m["id"].split("/")[1] == "memcpy_d2d" else 1.0)
        set_samples(m, [s * f for s in m["samples"]])
    return out


def set_samples(metric, samples):
    metric["samples"] = samples
    med = statistics.median(samples)
    metric["value"] = med
    mad = statistics.median([abs(s - med) for s in samples])
    metric["statistics"].update(count=len(samples), median=med, mean=statistics.fmean(samples),
                                min=min(samples), max=max(samples), mad=mad,
                                stddev=statistics.stdev(samples) if len(samples) > 1 else 0.0)
    if "peak" in metric:
        metric["efficiency"] = med / metric["peak"]


factors = [1.000, 1.002, 0.998, 1.001, 0.999, 1.0015, 0.9985, 1.0005, 0.9995, 1.000]
memcpy_factors = [1.00, 1.16, 0.84, 1.12, 0.88, 1.08, 0.92, 1.04, 0.96, 1.00]
for i, (factor, memcpy_factor) in enumerate(zip(factors, memcpy_factors), start=1):
    with open(f"healthy_{i}.json", "w") as f:
        json.dump(scaled(recorded, factor, f"healthy-{i}", memcpy_factor), f, indent=1)

mixed = scaled(recorded, 1.0, "mixed")
by_id = {m["id"].split("/")[1]: m for m in mixed["metrics"]}
set_samples(by_id["write"], [s * 0.90 for s in by_id["write"]["samples"]])
set_samples(by_id["copy"], [s * 1.08 for s in by_id["copy"]["samples"]])
set_samples(by_id["memcpy_d2d"], [s * 0.91 for s in by_id["memcpy_d2d"]["samples"]])
v = by_id["scale"]["value"] * 0.95
set_samples(by_id["scale"], [v * 0.88, v, v * 1.12])
new_metric = copy.deepcopy(by_id["read"])
new_metric["id"] = "memory/read/4GiB/gpu0/bandwidth"
new_metric["benchmark"] = "memory/read/4GiB/gpu0"
mixed["metrics"] = [m for m in mixed["metrics"] if m["id"].split("/")[1] not in ("add", "triad")] + [new_metric]
mixed["failures"] = [{"benchmark": "memory/triad/1GiB/gpu0", "family": "memory",
                      "reason": "verification failed: 3 wrong output elements of 268435456 after triad",
                      "advice": "re-run; then gpubench stress"}]
with open("mixed.json", "w") as f:
    json.dump(mixed, f, indent=1)
