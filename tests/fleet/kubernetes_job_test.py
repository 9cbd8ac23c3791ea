#!/usr/bin/env python3
"""examples/kubernetes/gpubench-acceptance-job.yaml against the Job schema of real Kubernetes versions, offline:
kubernetes-validate from PyPI (pinned in scripts/setup.sh) carries the OpenAPI-derived JSON schemas of each release
and validates strictly, so an unknown or misspelt field fails as well as a wrong type or a missing required one.
- the manifest passes for the oldest and newest Kubernetes the test pins (1.30, and the package's own newest);
- three broken copies fail, each for its reason (the check can fail);
- the container's script is valid bash.
Without kubernetes-validate it exits 77, which CTest reports as skipped, but fails in CI (CI set).

usage: kubernetes_job_test.py MANIFEST
"""
import copy
import os
import subprocess
import sys
import unittest

MANIFEST = sys.argv[1]
sys.argv[1:] = []
SKIPPED = 77
VERSIONS = ["1.30.0", "1.37.0"]  # a release still common on clusters, and the newest kubernetes-validate 1.37 carries

try:
    import kubernetes_validate
    import yaml
except ImportError as e:
    print(f"kubernetes_job_test: {e} (scripts/setup.sh installs kubernetes-validate from PyPI)", file=sys.stderr)
    sys.exit(1 if os.environ.get("CI") else SKIPPED)


def load():
    with open(MANIFEST) as f:
        return yaml.safe_load(f)


class TheJobManifest(unittest.TestCase):
    def test_it_is_a_valid_job_for_each_pinned_kubernetes(self):
        job = load()
        self.assertEqual((job["apiVersion"], job["kind"]), ("batch/v1", "Job"))
        for version in VERSIONS:
            with self.subTest(version=version):
                kubernetes_validate.validate(job, version, strict=True)

    def broken(self, change):
        job = copy.deepcopy(load())
        change(job)
        for version in VERSIONS:
            with self.subTest(version=version), self.assertRaises(kubernetes_validate.ValidationError) as caught:
                kubernetes_validate.validate(job, version, strict=True)
        return str(caught.exception)

    def test_a_misspelt_field_fails(self):
        def misspell(job):
            spec = job["spec"]["template"]["spec"]
            spec["restartPolicyy"] = spec.pop("restartPolicy")
        self.assertIn("restartPolicyy", self.broken(misspell))

    def test_a_wrong_type_fails(self):
        def wrong_type(job):
            job["spec"]["backoffLimit"] = "none"
        self.assertIn("none", self.broken(wrong_type))

    def test_a_missing_required_field_fails(self):
        def no_name(job):
            del job["spec"]["template"]["spec"]["containers"][0]["name"]
        self.assertIn("name", self.broken(no_name))

    def test_the_containers_script_is_bash(self):
        container = load()["spec"]["template"]["spec"]["containers"][0]
        self.assertEqual(container["command"], ["/bin/bash", "-c"])
        parsed = subprocess.run(["bash", "-n"], input=container["args"][0], capture_output=True, text=True)
        self.assertEqual(parsed.returncode, 0, parsed.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
