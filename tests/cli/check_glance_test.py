#!/usr/bin/env python3
"""`gpubench check` read at a glance (#29), against golden files in tests/data/check_glance/golden/ (--update rewrites them):
a healthy run of the memory family alone (night 1 of nightly_h200x1, cut to what `run --filter '^memory/'` measures)
fits a terminal in the summary and a few lines, with the 86 figures its filter left out in one line, in the console,
Markdown and JUnit forms; and a slowed copy lists what needs a person.

usage: check_glance_test.py GPUBENCH_BINARY TEST_DATA_DIR [--update]
"""
import os
import subprocess
import sys
import unittest
import xml.etree.ElementTree as ET

from temporary_folder import TemporaryFolder
from test_arguments import DATA, GPUBENCH, UPDATE

GOLDEN = os.path.join(DATA, "check_glance", "golden")
RUN = "check_glance/night1_memory_only.json"
BASELINE = "nightly_h200x1/baseline.json"


def run(*args):
    return subprocess.run([GPUBENCH, *args], capture_output=True, text=True, timeout=120, cwd=DATA)


class HealthyFilteredRun(TemporaryFolder, unittest.TestCase):
    def same_as_golden(self, name, text):
        path = os.path.join(GOLDEN, name)
        if UPDATE:
            with open(path, "w") as f:
                f.write(text)
        with open(path) as f:
            self.assertEqual(text, f.read(), f"{name} differs from its golden file (--update rewrites it)")

    def test_the_console_is_the_summary_and_a_few_lines(self):
        result = run("check", RUN, "--baseline", BASELINE, "--no-color")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertLess(len(result.stdout.splitlines()), 15)
        self.assertIn("86 of the baseline's figures left out by the run's own --filter '^memory/'", result.stdout)
        self.assertNotIn("missing  ", result.stdout)
        self.same_as_golden("night1_memory_only.txt", result.stdout)

    def test_every_figure_on_request(self):
        result = run("check", RUN, "--baseline", BASELINE, "--no-color", "--all")
        self.assertEqual(sum(line.startswith("pass ") for line in result.stdout.splitlines()), 7)

    def test_markdown_and_junit_leave_the_filtered_figures_out_too(self):
        markdown = self.write("check.md", "")
        junit = self.write("check.xml", "")
        result = run("check", RUN, "--baseline", BASELINE, "--markdown", markdown, "--junit", junit)
        self.assertEqual(result.returncode, 0, result.stderr)
        with open(markdown) as f:
            text = f.read()
        self.assertEqual(sum(line.startswith("| pass ") for line in text.splitlines()), 7)
        self.same_as_golden("night1_memory_only.md", text)
        cases = ET.parse(junit).getroot().findall("./testsuite/testcase")
        self.assertEqual(len(cases), 7, "one per figure measured, none for those the filter left out")
        self.assertEqual([c for c in cases if c.find("skipped") is not None], [])
        with open(junit) as f:
            self.same_as_golden("night1_memory_only.xml", f.read())

    def test_a_report_folder_that_is_not_there_yet_is_made(self):
        junit = os.path.join(self.tmp, "reports", "check.xml")
        result = run("check", RUN, "--baseline", BASELINE, "--junit", junit)
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertTrue(os.path.isfile(junit))

    def test_an_output_that_cannot_be_written_hides_neither_the_verdict_nor_the_other_outputs(self):
        blocker = self.write("a_file", "")
        junit = os.path.join(self.tmp, "check.xml")
        result = run("check", RUN, "--baseline", BASELINE, "--no-color", "--junit", junit,
                     "--prometheus", os.path.join(blocker, "gpubench.prom"))
        self.assertEqual(result.returncode, 2, "an output not written")
        self.assertIn("PASS: ", result.stdout)
        self.assertTrue(os.path.isfile(junit))
        self.assertIn("cannot write " + os.path.join(blocker, "gpubench.prom"), result.stderr)
        self.assertIn("the verdict above is PASS (exit 0 when every output is written)", result.stderr)


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
