#!/usr/bin/env python3
"""`gpubench show` and `gpubench report` of a watch document (schema gpubench.watch/1, docs/watch.md), end to end on a
recorded timeline: a memory-bound job on one H200 (tests/data/watch/memory_bound_h200.json, written by
make_memory_bound_h200.py beside it), and copies of it changed here (no diagnosis or ceilings, no GPU, a long job,
broken fields). Standard library only.

- show: per GPU the samples and span, a row per quantity (median, p90, max) with the ceiling beside it, the
  clock-event reasons, the events, the host figures and the diagnosis; --format csv is one table a row per sample;
  json and markdown hold the same; --filter is refused for a watch document.
- report: one page, an <svg> per chart (activity, math pipes, HBM, PCIe and NVLink, power, SM clock, temperature,
  memory, then the host's CPU and threads), every axis from zero, shares up to 1, the ceilings as dashed lines, the
  diagnosis named, nothing loaded from elsewhere.
- a bad document exits 2 naming the file and the field, and writes nothing.

usage: watch_show_report_test.py GPUBENCH_BINARY TEST_DATA_DIR
"""
import copy
import csv
import html.parser
import io
import json
import os
import re
import subprocess
import sys
import unittest
import xml.etree.ElementTree

from temporary_folder import TemporaryFolder
from test_arguments import DATA, GPUBENCH

sys.argv[1:] = []
FIXTURE = os.path.join(DATA, "watch", "memory_bound_h200.json")

# The charts of a GPU with every field read and of the host, in the page's order.
GPU_CHARTS = ["activity", "math pipes", "HBM bandwidth", "PCIe and NVLink", "power", "SM clock", "temperature",
              "memory used"]
HOST_CHARTS = ["job: CPU", "job: busiest thread and I/O wait"]
CSV_COLUMNS = ["t_s", "gpu", "utilization", "memory_used_gib", "memory_total_gib", "power_w", "sm_clock_mhz",
               "temperature_c", "sm_active", "sm_occupancy", "tensor_active", "dram_active", "fp64_active",
               "fp32_active", "fp16_active", "pcie_tx_gbps", "pcie_rx_gbps", "nvlink_tx_gbps", "nvlink_rx_gbps",
               "clock_event_reasons", "pcie_gen", "pcie_width", "hbm_gbps", "cpu_cores", "busiest_thread", "io_wait"]


def gpubench(*args):
    return subprocess.run([GPUBENCH, *args], capture_output=True, text=True, timeout=60)


def fixture():
    with open(FIXTURE) as f:
        return json.load(f)


class Page(html.parser.HTMLParser):
    """Attributes that could load something, the scripts, the charts' SVG text, the render status, list items."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.loading, self.scripts, self.items, self.status = [], [], [], None
        self.charts = re.findall(r'<svg class="chart".*?</svg>', text, re.S)
        self._in, self._text = None, []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        for name, value in attrs:
            if name in ("src", "href", "srcset", "action", "data", "xlink:href"):
                self.loading.append((tag, name, value))
        if attributes.get("id") == "render-status":
            self.status = attributes
        if tag in ("script", "li"):
            self._in, self._text = tag, []

    def handle_data(self, data):
        if self._in:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag == self._in:
            (self.scripts if tag == "script" else self.items).append("".join(self._text))
            self._in = None


def chart_axes(svg):
    """(title, the y ticks' labels as numbers, the legend's labels, how many dashed references) of one chart."""
    chart = xml.etree.ElementTree.fromstring(svg)
    ticks = [float(t.text) for t in chart.iter("text") if t.get("text-anchor") == "end"]
    legend = [t.text for g in chart.iter("g") if g.get("class") == "entry" for t in g.iter("text")]
    references = sum(1 for g in chart.iter("g") if g.get("class") == "series"
                     for p in g.iter("path") if p.get("stroke") == "#444444")
    return chart.get("aria-label"), ticks, legend, references


class Show(TemporaryFolder, unittest.TestCase):

    def test_text_gives_each_quantity_over_the_job_and_the_diagnosis(self):
        result = gpubench("show", FIXTURE)
        self.assertEqual(result.returncode, 0, result.stderr)
        text = result.stdout
        self.assertIn("GPU 0 (NVIDIA H200): 31 samples over 30.0 s", text)
        self.assertIn("exited with 0 after 31.4 s", text)
        self.assertIn("ceilings: baselines/nvidia-h200-x1.json (baseline", text)
        rows = {line.split("  ")[0]: line for line in text.splitlines()}
        for name in ("utilisation", "SM active", "tensor pipes", "DRAM active", "HBM", "PCIe into the GPU",
                     "PCIe from the GPU", "NVLink out", "memory used", "power", "SM clock", "temperature", "CPU",
                     "busiest thread", "I/O wait"):
            self.assertIn(name, rows, f"no row for {name}")
        # HBM: DRAM activity x the theoretical peak, held against the 4412 GB/s measured.
        hbm = rows["HBM"].split()
        gpu = fixture()["gpus"][0]
        hbm_values = sorted(s["dram_active"] * gpu["dram_peak_gbps"] for s in gpu["samples"])
        self.assertEqual(hbm[1:6], ["GB/s", f"{hbm_values[len(hbm_values) // 2]:.0f}",
                                    f"{hbm_values[27]:.0f}", f"{hbm_values[-1]:.0f}", "31"])
        self.assertIn("measured 4412 GB/s", rows["HBM"])
        self.assertRegex(rows["HBM"], r"9[01] %$")
        self.assertIn("clock-event reasons: gpu_idle 3 % (of 31 samples)", text)
        self.assertIn("events: none", text)
        self.assertIn("diagnosis: 1 finding", text)
        self.assertIn("FIRED memory_bandwidth_bound: DRAM traffic at 80 %+", text)
        self.assertIn("fix: The job moves bytes as fast as this GPU's HBM allows", text)
        self.assertIn("not run nvlink_near_ceiling", text)
        self.assertIn("host: the job's processes, 31 samples, 16 cores allowed", text)

    def test_csv_is_one_table_a_row_per_sample(self):
        result = gpubench("show", FIXTURE, "--format", "csv")
        self.assertEqual(result.returncode, 0, result.stderr)
        rows = list(csv.reader(io.StringIO(result.stdout)))
        self.assertEqual(rows[0], CSV_COLUMNS)
        gpu = fixture()["gpus"][0]
        samples = gpu["samples"]
        self.assertEqual(len(rows) - 1, len(samples))
        for row, sample in zip(rows[1:], samples):
            record = dict(zip(CSV_COLUMNS, row))
            self.assertEqual(len(row), len(CSV_COLUMNS))
            self.assertEqual(float(record["t_s"]), sample["t_s"])
            self.assertEqual(record["gpu"], "0")
            for field in ("utilization", "sm_active", "dram_active", "power_w", "pcie_rx_gbps"):
                self.assertAlmostEqual(float(record[field]), sample[field], delta=abs(sample[field]) * 1e-5)
            self.assertEqual(int(record["clock_event_reasons"]), sample["clock_event_reasons"])
            self.assertAlmostEqual(float(record["hbm_gbps"]), sample["dram_active"] * gpu["dram_peak_gbps"], delta=0.5)
            self.assertEqual(float(record["io_wait"]), 0)
            self.assertTrue(0.9 < float(record["cpu_cores"]) < 1.5)

    def test_csv_leaves_a_field_not_read_empty(self):
        document = fixture()
        for sample in document["gpus"][0]["samples"]:
            for field in ("sm_active", "dram_active", "tensor_active"):
                del sample[field]
        result = gpubench("show", self.write_doc("no_gpm.json", document), "--format", "csv")
        self.assertEqual(result.returncode, 0, result.stderr)
        for record in list(csv.DictReader(io.StringIO(result.stdout))):
            self.assertEqual((record["sm_active"], record["dram_active"], record["hbm_gbps"]), ("", "", ""))
            self.assertNotEqual(record["utilization"], "")

    def test_csv_of_a_timeline_without_gpus_has_a_row_per_host_sample(self):
        document = fixture()
        document["gpus"] = []
        document["gpu_unavailable"] = "NVML unavailable: libnvidia-ml.so.1: cannot open shared object file"
        document["diagnosis"] = []
        path = self.write_doc("no_gpu.json", document)
        rows = list(csv.DictReader(io.StringIO(gpubench("show", path, "--format", "csv").stdout)))
        self.assertEqual(len(rows), len(document["host"]))
        self.assertEqual({r["gpu"] for r in rows}, {""})
        text = gpubench("show", path)
        self.assertEqual(text.returncode, 0, text.stderr)
        self.assertIn("no GPU was sampled: NVML unavailable", text.stdout)

    def test_json_and_markdown_hold_the_same(self):
        result = gpubench("show", FIXTURE, "--format", "json")
        self.assertEqual(result.returncode, 0, result.stderr)
        shown = json.loads(result.stdout)
        self.assertEqual(shown["schema"], "gpubench.watch-show/1")
        gpu = shown["gpus"][0]
        self.assertEqual((gpu["index"], gpu["samples"]), (0, 31))
        hbm = next(q for q in gpu["quantities"] if q["name"] == "HBM")
        self.assertTrue(3900 < hbm["median"] < 4100 and hbm["p90"] <= hbm["max"])
        self.assertEqual([f["rule"] for f in gpu["diagnosis"]["findings"] if f["outcome"] == "fired"],
                         ["memory_bandwidth_bound"])
        markdown = gpubench("show", FIXTURE, "--format", "markdown")
        self.assertEqual(markdown.returncode, 0, markdown.stderr)
        self.assertIn("#### GPU 0 (NVIDIA H200)", markdown.stdout)
        self.assertIn("FIRED `memory_bandwidth_bound`", markdown.stdout)

    def test_a_document_without_diagnosis_or_ceilings_shows_its_timeline(self):
        """A timeline alone (as watch_timeline.hpp writes one) is a watch document too."""
        document = fixture()
        for key in ("diagnosis", "ceilings", "diagnosed_gpus", "diagnosed_gpus_basis", "job", "hostname"):
            del document[key]
        result = gpubench("show", self.write_doc("timeline.json", document))
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("diagnosis: none in the document", result.stdout)
        self.assertIn("ceilings: none in the document", result.stdout)
        self.assertNotIn("FIRED", result.stdout)

    def test_filter_is_refused(self):
        result = gpubench("show", FIXTURE, "--filter", "hbm")
        self.assertEqual(result.returncode, 2)
        self.assertIn("watch document", result.stderr)


class Report(TemporaryFolder, unittest.TestCase):

    def report(self, path):
        out = os.path.join(self.tmp, "page.html")
        result = gpubench("report", path, "-o", out)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(out, encoding="utf-8") as f:
            return f.read()

    def test_a_chart_per_quantity_group_each_an_svg_and_nothing_from_elsewhere(self):
        text = self.report(FIXTURE)
        page = Page(text)
        titles = [chart_axes(svg)[0] for svg in page.charts]
        self.assertEqual(titles, [f"GPU 0: {c}" for c in ("activity (share of the time)", "math pipes (share of the time)",
                                                          "HBM bandwidth (GB/s)", "PCIe and NVLink (GB/s)", "power (W)",
                                                          "SM clock (MHz)", "temperature (C)", "memory used (GiB)")]
                         + ["job: CPU (cores)", "job: busiest thread and I/O wait (share of the time)"])
        charts = str(len(page.charts))
        self.assertEqual((page.status["data-expected"], page.status["data-charts"], page.status["data-errors"]),
                         (charts, charts, "0"))
        for tag, attribute, value in page.loading:
            self.assertTrue(value.startswith("#"), f"<{tag} {attribute}={value!r}> is not in the page")
        self.assertNotRegex(text, r"<script[^>]*\bsrc=|<link\b|<img\b|<iframe\b")
        self.assertEqual(len(page.scripts), 1, "the page's own script, inlined; no chart library")
        self.assertIsNone(re.search(r"[a-zA-Z][a-zA-Z0-9+.-]*://", text))

    def test_every_axis_starts_at_zero_and_shares_run_to_one(self):
        for svg in Page(self.report(FIXTURE)).charts:
            title, ticks, _, _ = chart_axes(svg)
            self.assertEqual(ticks[0], 0, title)
            if "share" in title:
                self.assertEqual(ticks[-1], 1, title)

    def test_the_ceilings_are_drawn_as_lines(self):
        charts = {chart_axes(svg)[0]: chart_axes(svg) for svg in Page(self.report(FIXTURE)).charts}
        _, ticks, legend, references = charts["GPU 0: HBM bandwidth (GB/s)"]
        self.assertEqual(references, 1)
        self.assertIn("measured 4412 GB/s (memory/read/1GiB/gpu0/bandwidth)", legend)
        self.assertGreaterEqual(ticks[-1], 4412)
        _, _, legend, references = charts["GPU 0: PCIe and NVLink (GB/s)"]
        self.assertEqual(references, 4)  # pinned and pageable, each way
        self.assertIn("pageable H2D 8.80 GB/s (pcie/h2d/pageable/1GiB/gpu0/bandwidth)", legend)
        self.assertEqual(charts["GPU 0: temperature (C)"][3], 1)  # NVML's slowdown threshold
        self.assertEqual(charts["GPU 0: memory used (GiB)"][3], 1)  # the total
        self.assertEqual(charts["job: CPU (cores)"][3], 1)  # the cores the job may run on

    def test_the_diagnosis_is_named(self):
        text = self.report(FIXTURE)
        self.assertIn("diagnosis: 1 finding", text)
        items = Page(text).items
        fired = [i for i in items if i.startswith("FIRED memory_bandwidth_bound")]
        self.assertEqual(len(fired), 1, items)
        self.assertIn("Fix: The job moves bytes as fast as this GPU's HBM allows", fired[0])
        self.assertTrue(any(i.startswith("could not run nvlink_near_ceiling") for i in items))

    def test_without_diagnosis_or_ceilings_the_timeline_is_drawn_alone(self):
        document = fixture()
        for key in ("diagnosis", "ceilings"):
            del document[key]
        text = self.report(self.write_doc("timeline.json", document))
        self.assertIn("no diagnosis in the document", text)
        self.assertNotIn("FIRED", text)
        charts = {chart_axes(svg)[0]: chart_axes(svg) for svg in Page(text).charts}
        self.assertEqual(charts["GPU 0: HBM bandwidth (GB/s)"][3], 0)
        self.assertEqual(charts["GPU 0: PCIe and NVLink (GB/s)"][3], 0)

    def test_a_long_job_is_thinned_with_a_note(self):
        document = fixture()
        gpu = document["gpus"][0]
        steady = gpu["samples"][5]
        gpu["samples"] = [dict(copy.deepcopy(steady), t_s=1.0 + i) for i in range(5000)]
        document["host"] = [dict(document["host"][5], t_s=1.0 + i) for i in range(5000)]
        text = self.report(self.write_doc("long.json", document))
        self.assertIn("5000 samples, drawn as the lowest and highest of each of 1000 equal stretches", text)
        self.assertLess(len(text), 4_000_000)


class BadDocument(TemporaryFolder, unittest.TestCase):

    def test_a_bad_field_exits_2_naming_the_file_and_the_field(self):
        document = fixture()
        document["gpus"][0]["samples"][2]["sm_active"] = 1.7
        path = self.write_doc("bad.json", document)
        out = os.path.join(self.tmp, "page.html")
        for args in (["show", path], ["show", path, "--format", "csv"], ["report", path, "-o", out]):
            with self.subTest(args=args[0:1] + args[2:]):
                result = gpubench(*args)
                self.assertEqual(result.returncode, 2, result.stderr)
                self.assertIn(path, result.stderr)
                self.assertIn("gpus[0].samples[2].sm_active", result.stderr)
                self.assertEqual(result.stdout, "")
        self.assertFalse(os.path.exists(out), "report wrote a page of a bad document")

    def test_a_bad_diagnosis_exits_2_naming_the_field(self):
        document = fixture()
        document["diagnosis"][0]["findings"][2]["outcome"] = "exploded"
        path = self.write_doc("bad_diagnosis.json", document)
        result = gpubench("show", path)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn(path, result.stderr)
        self.assertIn("diagnosis[0].findings[2].outcome", result.stderr)

    def test_watchs_diagnosis_alone_is_not_a_document_to_show(self):
        path = self.write_doc("diagnosis.json", {"schema": "gpubench.watch-diagnosis/1", "diagnosis": []})
        result = gpubench("show", path)
        self.assertEqual(result.returncode, 2)
        self.assertIn("gpubench.watch-diagnosis/1", result.stderr)
        self.assertIn("gpubench watch -o FILE", result.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
