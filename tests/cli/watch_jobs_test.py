#!/usr/bin/env python3
"""The five PyTorch jobs `gpubench watch` is verified with on a GPU (tests/watch_jobs/, scripts/gpu_verify.sh watch),
checked without a GPU and without importing them (CI has no torch): each compiles (`python3 -m py_compile`), takes
--seconds, prints its throughput as one `throughput VALUE UNIT` line, and says in its docstring what it models and
which rule should fire. Standard library only.

usage: watch_jobs_test.py [SOURCE_ROOT]
"""
import ast
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.abspath(".")
sys.argv[1:] = []
JOBS = os.path.join(ROOT, "tests", "watch_jobs")
EXPECTED = {
    "input_bound.py": "gpu_starved",
    "fp32_no_tf32.py": "tensor_cores_idle",
    "elementwise_bandwidth.py": "memory_bandwidth_bound",
    "pageable_copies.py": "host_transfers_at_ceiling",
    "healthy_bf16.py": "none",
}


def tree(name):
    with open(os.path.join(JOBS, name)) as f:
        return ast.parse(f.read(), name)


class TheJobs(unittest.TestCase):

    def test_there_are_the_five(self):
        self.assertEqual(sorted(n for n in os.listdir(JOBS) if n.endswith(".py")), sorted(EXPECTED))

    def test_each_compiles(self):
        with tempfile.TemporaryDirectory() as folder:
            for name in EXPECTED:
                with self.subTest(job=name):
                    result = subprocess.run([sys.executable, "-m", "py_compile", os.path.join(JOBS, name)],
                                            capture_output=True, text=True, timeout=60,
                                            env=dict(os.environ, PYTHONPYCACHEPREFIX=folder))
                    self.assertEqual(result.returncode, 0, result.stderr)

    def test_each_takes_seconds_and_prints_its_throughput(self):
        for name in EXPECTED:
            with self.subTest(job=name):
                module = tree(name)
                options = [call.args[0].value for call in ast.walk(module) if isinstance(call, ast.Call)
                           and getattr(call.func, "attr", "") == "add_argument" and call.args
                           and isinstance(call.args[0], ast.Constant)]
                self.assertIn("--seconds", options)
                prints = [ast.unparse(node) for node in ast.walk(module) if isinstance(node, ast.Call)
                          and getattr(node.func, "id", "") == "print"]
                self.assertTrue(any("throughput " in p for p in prints), prints)

    def test_each_says_what_it_models_and_which_rule_should_fire(self):
        for name, rule in EXPECTED.items():
            with self.subTest(job=name):
                docstring = ast.get_docstring(tree(name))
                self.assertIsNotNone(docstring)
                self.assertIn("Rule that should fire:", docstring)
                self.assertIn(rule, docstring.split("Rule that should fire:")[1].split(".")[0])
                self.assertIn(f"python3 tests/watch_jobs/{name}", docstring)

    def test_they_need_nothing_beyond_torch_and_numpy(self):
        allowed = {"argparse", "multiprocessing", "os", "queue", "time", "numpy", "torch"}
        for name in EXPECTED:
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
