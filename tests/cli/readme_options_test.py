#!/usr/bin/env python3
"""README's command table names every option the programs take: each option that `gpubench COMMAND --help` (and
`gpubench-mpi --help`, where it was built) lists appears in that command's row or rows, by one of its names.

usage: readme_options_test.py README GPUBENCH_BINARY [GPUBENCH_MPI_BINARY]
"""
import os
import re
import subprocess
import sys
import unittest

README, GPUBENCH = sys.argv[1:3]
GPUBENCH_MPI = sys.argv[3] if len(sys.argv) > 3 else ""
sys.argv[1:] = []

COMMANDS = ["run", "list", "env", "check", "compare", "show", "report", "baseline create", "history", "doctor",
            "stress", "acceptance"]


def options_in_help(argv):
    """The options a --help lists, each as the tuple of its names ("-o", "--output"), --help left out."""
    text = subprocess.run([*argv, "--help"], capture_output=True, text=True, timeout=60, check=True).stdout
    options = {tuple(names.split(",")) for names in re.findall(r"^\s+((?:-\w,)?--?[\w-]+)", text, re.MULTILINE)}
    return options - {("-h", "--help")}


def table_rows(starting_with):
    """The command table's rows whose first cell begins with `starting_with`, joined."""
    with open(README) as f:
        rows = [line for line in f if line.startswith("| `" + starting_with + " ") or line.startswith("| `" + starting_with + "`")]
    return "\n".join(rows)


class ReadmeNamesEveryOption(unittest.TestCase):
    def assert_named(self, options, rows, what):
        self.assertTrue(rows, f"README's command table has no row for {what}")
        for names in sorted(options):
            named = any(re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", rows) for name in names)
            self.assertTrue(named, f"{what}: README's command table does not name {' or '.join(names)}")

    def test_gpubench(self):
        for command in COMMANDS:
            with self.subTest(command=command):
                self.assert_named(options_in_help([GPUBENCH, *command.split()]), table_rows("gpubench " + command),
                                  "gpubench " + command)

    def test_gpubench_mpi(self):
        if not GPUBENCH_MPI:
            self.skipTest("no gpubench-mpi here: MPI was not found")
        if not os.path.exists(GPUBENCH_MPI):
            self.skipTest("gpubench-mpi is not built in this build folder (the asan preset builds the CPU targets)")
        self.assert_named(options_in_help([GPUBENCH_MPI]), table_rows("mpirun -np N gpubench-mpi"), "gpubench-mpi")


if __name__ == "__main__":
    unittest.main(verbosity=2)
