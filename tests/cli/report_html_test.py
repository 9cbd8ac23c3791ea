#!/usr/bin/env python3
"""`gpubench report` end to end, on recorded data (tests/data/): one-GPU and two-GPU runs, a made-up document with
GEMM peaks, an L2 sweep and a stress run (report/two_h200_stress.json), and a series of nights (check/healthy_*.json,
then the same with a 10 % step in memory triad, dated a night apart). Standard library only.

usage: report_html_test.py GPUBENCH_BINARY TEST_DATA_DIR file       the page is one file that opens offline: nothing
                                                                    in it loads from elsewhere, every chart is drawn
                                                                    in it as SVG; bad input writes nothing, exit 2
       report_html_test.py GPUBENCH_BINARY TEST_DATA_DIR browser    headless Chromium, with name resolution off,
                                                                    shows every chart without an error; where
                                                                    Chromium is not installed, exits 77 (CTest:
                                                                    skipped), but fails in CI (CI set)
"""
import html.parser
import xml.etree.ElementTree
import json
import math
import os
import re
import shutil
import subprocess
import sys
import tempfile
import unittest

from test_arguments import DATA, GPUBENCH

MODE = sys.argv[3] if len(sys.argv) > 3 else "file"
SKIPPED = 77

# The pages and the charts each must hold: every figure of two sizes or more, a GEMM chart per precision, the
# stress run's four, a trend per memory figure (all of them decide acceptance).
PAGES = {
    "memory_only": (["results_h200x1_memory_only.json"], 0),
    "two_h200": (["show/two_h200.json"], 9 + 1),  # PCIe 2, P2P 5, NCCL 2 (in and out of place); GEMM bf16
    "stress": (["report/two_h200_stress.json"], 11 + 5 + 4),  # the above, L2 2; GEMM 5 precisions; stress 4
    "healthy_nights": ([f"check/healthy_{n}.json" for n in range(1, 11)], 7),
}


def run(*args):
    return subprocess.run([GPUBENCH, *args], capture_output=True, text=True, timeout=120)


def nights_with_a_step(folder):
    """Twelve nights from the ten healthy runs, a day apart; from the seventh on, memory triad 10 % lower and a
    new driver: a change point `gpubench history` finds (ten nights are too few for its test at p <= 0.01)."""
    paths = []
    for night in range(1, 13):
        with open(os.path.join(DATA, "check", f"healthy_{(night - 1) % 10 + 1}.json")) as f:
            document = json.load(f)
        document["run"].update(id=f"night-{night}", started_at=f"2026-11-{10 + night:02d}T02:00:00Z")
        if night >= 7:
            document["environment"]["versions"]["driver"] = "590.10"
            for metric in document["metrics"]:
                if metric["id"].startswith("memory/triad/"):
                    metric["samples"] = [s * 0.9 for s in metric["samples"]]
                    metric["value"] *= 0.9
        paths.append(os.path.join(folder, f"night_{night:02d}.json"))
        with open(paths[-1], "w") as f:
            json.dump(document, f)
    return paths


class Page(html.parser.HTMLParser):
    """What a page holds: attributes that could load something, the text of each script and style, the charts'
    SVG elements, the render status, each figure's caption and notes."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.elements, self.loading_attributes, self.scripts, self.styles = [], [], [], []
        self.charts, self.status, self.figures = 0, None, []
        self._in, self._text = None, []
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.elements.append(tag)
        for name, value in attrs:
            if name in ("src", "href", "srcset", "action", "formaction", "poster", "data", "background", "xlink:href"):
                self.loading_attributes.append((tag, name, value))
        if tag == "svg" and attributes.get("class") == "chart":
            self.charts += 1
        if attributes.get("id") == "render-status":
            self.status = attributes
        if tag == "figure":
            self.figures.append({"caption": "", "notes": []})
        if tag in ("script", "style", "figcaption", "li"):
            self._in, self._text = tag, []

    def handle_data(self, data):
        if self._in:
            self._text.append(data)

    def handle_endtag(self, tag):
        if tag != self._in:
            return
        text = "".join(self._text)
        if tag == "script":
            self.scripts.append(text)
        elif tag == "style":
            self.styles.append(text)
        elif tag == "figcaption" and self.figures:
            self.figures[-1]["caption"] = text
        elif tag == "li" and self.figures:
            self.figures[-1]["notes"].append(text)
        self._in = None


def make_reports(folder):
    """{name: (path of the page, charts it must hold)}, every page written by gpubench report."""
    pages = {}
    for name, (inputs, charts) in PAGES.items():
        pages[name] = (os.path.join(folder, name + ".html"), charts)
        result = run("report", *[os.path.join(DATA, i) for i in inputs], "-o", pages[name][0])
        if result.returncode != 0:
            raise AssertionError(f"report {name}: exit {result.returncode}: {result.stderr}")
    pages["step"] = (os.path.join(folder, "step.html"), 7)
    result = run("report", *nights_with_a_step(folder), "-o", pages["step"][0])
    if result.returncode != 0:
        raise AssertionError(f"report step: exit {result.returncode}: {result.stderr}")
    return pages


class WithReports(unittest.TestCase):
    """The reports of make_reports, written once for a class's tests."""

    @classmethod
    def setUpClass(cls):
        cls.folder = tempfile.mkdtemp()
        cls.pages = make_reports(cls.folder)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.folder)


class ReportFile(WithReports):

    def page(self, name):
        with open(self.pages[name][0], encoding="utf-8") as f:
            return f.read()

    def test_nothing_in_the_page_loads_from_elsewhere(self):
        for name in self.pages:
            with self.subTest(page=name):
                text = self.page(name)
                page = Page(text)
                for tag, attribute, value in page.loading_attributes:
                    self.assertTrue(value.startswith("#"), f"<{tag} {attribute}={value!r}> is not in the page")
                for tag in ("link", "img", "iframe", "object", "embed", "video", "audio", "source", "base"):
                    self.assertNotIn(tag, page.elements)
                for style in page.styles:
                    self.assertNotRegex(style, r"url\(|@import")
                self.assertEqual(len(page.scripts), 1, "the page's own script, inlined; no chart library")
                for script in page.scripts:
                    self.assertNotRegex(script, r"\bimport\s*\(|importScripts|XMLHttpRequest|\bfetch\s*\(|WebSocket")
                address = re.search(r"[a-zA-Z][a-zA-Z0-9+.-]*://|//[a-z0-9.-]+\.[a-z]{2,}/", text)
                self.assertIsNone(address, text[address.start() - 60:address.end() + 60] if address else "")

    def test_every_chart_is_drawn_in_the_page(self):
        for name, (path, charts) in self.pages.items():
            with self.subTest(page=name):
                text = self.page(name)
                page = Page(text)
                self.assertEqual(page.charts, charts)
                self.assertEqual((page.status["data-expected"], page.status["data-charts"], page.status["data-errors"],
                                  page.status["data-done"]), (str(charts), str(charts), "0", "true"))
                for svg in re.findall(r'<svg class="chart".*?</svg>', text, re.S):
                    chart = xml.etree.ElementTree.fromstring(svg)  # well-formed, or this raises
                    for series in chart.iter("g"):
                        if series.get("class") != "series":
                            continue
                        drawn = [e for e in series if e.tag in ("path", "circle", "rect")]
                        self.assertTrue(drawn, f"{chart.get('aria-label')}: series {series.get('data-series')}")
                        for element in drawn:
                            numbers = re.findall(r"-?\d+(?:\.\d+)?", " ".join(
                                element.get(a, "") for a in ("d", "cx", "cy", "x", "y", "width", "height")))
                            self.assertTrue(numbers and all(math.isfinite(float(n)) for n in numbers), element.attrib)
                self.assertLess(os.path.getsize(path), 400_000)

    def test_a_small_difference_is_drawn_small(self):
        """The nights' memory figures differ by a few percent at most (but memcpy_d2d, made to move +-16 %): each trend's
        value axis starts at zero, so
        that they lie as far apart as they differ, not from the bottom of the chart to its top."""
        values = {}
        for n in range(1, 11):
            with open(os.path.join(DATA, "check", f"healthy_{n}.json")) as f:
                for metric in json.load(f)["metrics"]:
                    values.setdefault(metric["id"], []).append(metric["value"])
        charts = re.findall(r'<svg class="chart".*?</svg>', self.page("healthy_nights"), re.S)
        self.assertEqual(len(charts), 7)
        for svg in charts:
            chart = xml.etree.ElementTree.fromstring(svg)
            figures = values[chart.get("aria-label")]
            ticks = [float(t.text) for t in chart.iter("text") if t.get("text-anchor") == "end"]
            grid = [float(line.get("y1")) for line in chart.iter("line") if line.get("stroke") == "#e6e6e6"]
            points = [float(c.get("cy")) for c in chart.iter("circle")]
            self.assertEqual(ticks[0], 0, chart.get("aria-label"))
            drawn = (max(points) - min(points)) / (max(grid) - min(grid))
            self.assertAlmostEqual(drawn, (max(figures) - min(figures)) / ticks[-1], delta=0.002,
                                   msg=chart.get("aria-label"))
            if chart.get("aria-label") != "memory/memcpy_d2d/1GiB/gpu0/bandwidth":  # made to move +-16 %
                self.assertLess(drawn, 0.05, chart.get("aria-label"))

    def test_the_change_point_is_described_below_its_chart(self):
        figures = {f["caption"]: f["notes"] for f in Page(self.page("step")).figures}
        notes = figures["memory/triad/1GiB/gpu0/bandwidth"]
        self.assertEqual(len(notes), 1, notes)
        self.assertRegex(notes[0], r"^2026-11-17 02:00, vm: 4391\.\d -> 3950\.\d GB/s \(-10\.0 %, worse, .*"
                                   r"between runs night-6 and night-7\); what else changed: driver 580\.159\.04 -> 590\.10$")
        self.assertEqual(figures["memory/read/1GiB/gpu0/bandwidth"], [], "no step there")

    def test_the_peer_matrices_as_heatmaps(self):
        text = self.page("two_h200")
        self.assertEqual(text.count('<table class="heatmap">'), 11, "5 p2p figures at 2 sizes, and latency")


class BadInput(unittest.TestCase):
    def setUp(self):
        self.folder = tempfile.mkdtemp()
        self.output = os.path.join(self.folder, "report.html")
        self.good = os.path.join(DATA, "show", "two_h200.json")

    def tearDown(self):
        shutil.rmtree(self.folder)

    def refused(self, *args, saying, env=None):
        result = subprocess.run([GPUBENCH, "report", *args], capture_output=True, text=True, timeout=60,
                                env=env or os.environ)
        self.assertEqual(result.returncode, 2, result.stderr)
        self.assertIn(saying, result.stderr)
        return result

    def test_bad_input_writes_nothing(self):
        baseline = os.path.join(DATA, "check", "baseline.json")
        not_json = os.path.join(DATA, "check", "make_check_data.py")
        for args, saying in (([os.path.join(self.folder, "absent.json")], "does not exist"),
                             ([baseline], "gpubench.baseline/1"),
                             ([self.good, not_json], "make_check_data.py"),
                             ([self.good, "--trend", "(a+)*"], "--trend")):
            with self.subTest(args=args):
                self.refused(*args, "-o", self.output, saying=saying)
                self.assertFalse(os.path.exists(self.output))

    def test_an_output_over_an_input_is_refused(self):
        copy = os.path.join(self.folder, "run.json")
        shutil.copy(self.good, copy)
        self.refused(copy, "-o", copy, saying="--output")
        with open(copy) as mine, open(self.good) as theirs:
            self.assertEqual(mine.read(), theirs.read())

    def test_chart_js_is_no_longer_needed_and_its_option_is_ignored_with_a_note(self):
        env = dict(os.environ, GPUBENCH_CHART_JS=os.path.join(self.folder, "none.js"))
        result = subprocess.run([GPUBENCH, "report", self.good, "-o", self.output, "--chart-js", "/no/chart.js"],
                                capture_output=True, text=True, timeout=60, env=env)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("--chart-js is no longer used and is ignored", result.stderr)
        self.assertTrue(os.path.exists(self.output))
        self.assertNotIn("--chart-js", run("report", "--help").stdout, "retired: not offered any more")


class ReportAFolder(unittest.TestCase):
    """report, like history, takes a folder: every results document under it, what else is there named and passed
    over."""

    def test_a_folder_of_nights_is_the_nights(self):
        with tempfile.TemporaryDirectory() as folder:
            os.makedirs(os.path.join(folder, "vm"))
            for n in range(1, 11):
                shutil.copy(os.path.join(DATA, "check", f"healthy_{n}.json"), os.path.join(folder, "vm"))
            shutil.copy(os.path.join(DATA, "check", "baseline.json"), folder)
            output = os.path.join(folder, "report.html")
            result = run("report", folder, "-o", output)
            self.assertEqual(result.returncode, 0, result.stderr)
            self.assertIn("report: skipping " + os.path.join(folder, "baseline.json") + ": not a results document",
                          result.stderr)
            with open(output, encoding="utf-8") as f:
                page = Page(f.read())
            self.assertEqual(page.charts, PAGES["healthy_nights"][1], "the trends of the ten nights")
            self.assertEqual(page.status["data-charts"], page.status["data-expected"])


class InBrowser(WithReports):
    def test_every_chart_is_drawn_without_an_error(self):
        for name, (path, charts) in self.pages.items():
            with self.subTest(page=name):
                # No name resolves, so the page cannot lean on the network; a profile of its own per run.
                with tempfile.TemporaryDirectory() as profile:
                    result = subprocess.run(
                        ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run",
                         "--host-resolver-rules=MAP * ~NOTFOUND", f"--user-data-dir={profile}", "--dump-dom",
                         "file://" + path],
                        capture_output=True, text=True, timeout=120)
                self.assertEqual(result.returncode, 0, result.stderr[-2000:])
                status = Page(result.stdout).status
                self.assertIsNotNone(status, result.stdout[-2000:])
                problems = re.search(r'id="render-status".*?</div>', result.stdout, re.S)
                self.assertEqual(status["data-done"], "true")
                self.assertEqual(status["data-errors"], "0", problems.group(0) if problems else "")
                self.assertEqual(status["data-charts"], str(charts))
                self.assertEqual(Page(result.stdout).charts, charts, "every chart in the page as the browser read it")


if __name__ == "__main__":
    if MODE == "browser":
        if shutil.which("chromium") is None:
            print("no chromium on PATH to open the report in (scripts/setup.sh installs Debian's chromium)")
            sys.exit(1 if os.environ.get("CI") else SKIPPED)
        cases = [InBrowser]
    else:
        cases = [ReportFile, BadInput, ReportAFolder]
    suite = unittest.TestSuite(unittest.defaultTestLoader.loadTestsFromTestCase(case) for case in cases)
    sys.exit(0 if unittest.TextTestRunner(verbosity=2).run(suite).wasSuccessful() else 1)
