#!/usr/bin/env python3
"""`cmake --install` into a fresh prefix, then the installed gpubench run from an unrelated working directory:
it finds gpubench-micro beside it (`list`) and the baselines installed under share/ (`check` with no --baseline),
also after the prefix is moved. And the build tree's gpubench finds the source tree's baselines from anywhere.
Standard library only; no GPU needed (CUDA_VISIBLE_DEVICES=-1).

usage: installed_prefix_test.py CMAKE BUILD_DIR BUILT_GPUBENCH SOURCE_DIR
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import unittest

CMAKE, BUILD_DIR, BUILT_GPUBENCH, SOURCE_DIR = sys.argv[1:5]
sys.argv[1:5] = []
RECORDED_RUN = os.path.join(SOURCE_DIR, "tests", "data", "results_h200x1_memory_only.json")  # 1 x H200


def environment():
    env = {k: v for k, v in os.environ.items() if k not in ("GPUBENCH_BASELINES", "GPUBENCH_MICRO")}
    env["CUDA_VISIBLE_DEVICES"] = "-1"
    return env


class InstalledPrefix(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp(prefix="gpubench-install-test-")
        self.prefix = os.path.join(self.tmp, "prefix")
        self.elsewhere = os.path.join(self.tmp, "elsewhere")  # the working directory: nothing of gpubench's in it
        os.mkdir(self.elsewhere)
        installed = subprocess.run([CMAKE, "--install", BUILD_DIR, "--prefix", self.prefix],
                                   capture_output=True, text=True, timeout=120)
        self.assertEqual(installed.returncode, 0, installed.stdout + installed.stderr)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def gpubench(self, program, *args):
        return subprocess.run([program, *args], capture_output=True, text=True, timeout=120, cwd=self.elsewhere,
                              env=environment())

    def assert_checked_against(self, program, baselines_folder):
        result = self.gpubench(program, "check", RECORDED_RUN, "--json")
        self.assertEqual(result.returncode, 0, result.stderr)
        used = json.loads(result.stdout)["baseline"]
        self.assertEqual(os.path.realpath(used), os.path.realpath(os.path.join(baselines_folder, "nvidia-h200-x1.json")))

    def test_the_layout(self):
        for program in ("gpubench", "gpubench-micro"):
            self.assertTrue(os.access(os.path.join(self.prefix, "bin", program), os.X_OK), program)
        shipped = sorted(f for f in os.listdir(os.path.join(SOURCE_DIR, "baselines")) if f.endswith(".json"))
        installed = sorted(os.listdir(os.path.join(self.prefix, "share", "gpubench", "baselines")))
        self.assertEqual(installed, sorted(shipped + ["README.md"]))

    def test_list_finds_gpubench_micro_beside_it(self):
        result = self.gpubench(os.path.join(self.prefix, "bin", "gpubench"), "list", "--filter", "^memory/triad/")
        self.assertEqual(result.returncode, 0, result.stderr)
        self.assertIn("memory/triad/1GiB/gpu0", result.stdout)

    def test_check_finds_the_installed_baselines_also_after_the_prefix_moved(self):
        self.assert_checked_against(os.path.join(self.prefix, "bin", "gpubench"),
                                    os.path.join(self.prefix, "share", "gpubench", "baselines"))
        moved = os.path.join(self.tmp, "moved")
        os.rename(self.prefix, moved)
        self.assert_checked_against(os.path.join(moved, "bin", "gpubench"), os.path.join(moved, "share", "gpubench", "baselines"))

    def test_the_build_trees_program_finds_the_source_trees_baselines(self):
        self.assert_checked_against(BUILT_GPUBENCH, os.path.join(SOURCE_DIR, "baselines"))


if __name__ == "__main__":
    unittest.main(verbosity=2)
