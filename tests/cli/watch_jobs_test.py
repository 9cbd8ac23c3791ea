#!/usr/bin/env python3
"""The PyTorch jobs `gpubench watch` is judged on (tests/watch_jobs/corpus.json, scripts/gpu_verify.sh watch), checked
without a GPU and without importing them (CI has no torch): the manifest names only jobs that exist, each with a
recording in tests/data/watch/corpus/; each job compiles (`python3 -m py_compile`), takes --seconds, prints its
throughput as one `throughput VALUE UNIT` line, and says in its docstring what it models and which rules should fire,
as the manifest expects of every run of it. Standard library only.

usage: watch_jobs_test.py [SOURCE_ROOT]
"""
import ast
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.abspath(".")
sys.argv[1:] = []
JOBS = os.path.join(ROOT, "tests", "watch_jobs")
RECORDED = os.path.join(ROOT, "tests", "data", "watch", "corpus")
with open(os.path.join(JOBS, "corpus.json")) as f:
    CORPUS = json.load(f)["jobs"]
SHARED = "job_loop.py"  # what the jobs share: options and the timed loop
SCRIPTS = sorted({job["args"][0] for job in CORPUS})


def tree(name):
    with open(os.path.join(JOBS, name)) as f:
        return ast.parse(f.read(), name)


class TheCorpus(unittest.TestCase):

    def test_every_script_is_in_the_manifest_and_every_run_was_recorded(self):
        scripts = sorted(n for n in os.listdir(JOBS) if n.endswith(".py") and n != SHARED)
        self.assertEqual(scripts, SCRIPTS)
        self.assertGreaterEqual(len(CORPUS), 12)
        for job in CORPUS:
            with self.subTest(job=job["name"]):
                self.assertTrue(os.path.isfile(os.path.join(RECORDED, job["name"] + ".json")))
        self.assertEqual(len({job["name"] for job in CORPUS}), len(CORPUS), "names repeat")

    def test_each_compiles(self):
        with tempfile.TemporaryDirectory() as folder:
            for name in SCRIPTS + [SHARED]:
                with self.subTest(job=name):
                    result = subprocess.run([sys.executable, "-m", "py_compile", os.path.join(JOBS, name)],
                                            capture_output=True, text=True, timeout=60,
                                            env=dict(os.environ, PYTHONPYCACHEPREFIX=folder))
                    self.assertEqual(result.returncode, 0, result.stderr)

    def test_each_takes_seconds_and_prints_its_throughput(self):
        shared = ast.unparse(tree(SHARED))
        self.assertIn("'--seconds'", shared)
        self.assertIn("print(f'throughput ", shared)
        for name in SCRIPTS:
            with self.subTest(job=name):
                calls = [ast.unparse(node.func) for node in ast.walk(tree(name)) if isinstance(node, ast.Call)]
                own = [c for c in calls if c.endswith("add_argument")]
                if "options" in calls:  # job_loop's --seconds and timed loop (also through its GEMM loop)
                    self.assertTrue({"run_timed", "run_square_products"} & set(calls))
                else:
                    self.assertTrue(own)
                    self.assertIn("--seconds", ast.unparse(tree(name)))
                    self.assertIn("throughput ", ast.unparse(tree(name)))

    def test_each_says_what_it_models_and_which_rules_should_fire(self):
        for job in CORPUS:
            name = job["args"][0]
            with self.subTest(job=job["name"]):
                docstring = " ".join((ast.get_docstring(tree(name)) or "").split())
                self.assertTrue(docstring)
                self.assertIn(f"python3 tests/watch_jobs/{name}", docstring)
                should = docstring.split("Rule that should fire:")[1].split(";")[0]
                for rule, cause in job["fired"].items():
                    self.assertIn(rule, should)
                    if cause:
                        self.assertIn(cause, should)
                if not job["fired"]:
                    self.assertIn("none", should)

    def test_they_need_nothing_beyond_torch_numpy_and_the_standard_library(self):
        allowed = {"argparse", "mmap", "multiprocessing", "os", "queue", "socket", "tempfile", "threading", "time",
                   "numpy", "torch", "job_loop"}
        for name in SCRIPTS + [SHARED]:
            with self.subTest(job=name):
                imported = set()
                for node in ast.walk(tree(name)):
                    if isinstance(node, ast.Import):
                        imported.update(a.name.split(".")[0] for a in node.names)
                    elif isinstance(node, ast.ImportFrom):
                        imported.add(node.module.split(".")[0])
                self.assertLessEqual(imported, allowed)


if __name__ == "__main__":
    unittest.main(verbosity=2)
