#!/usr/bin/env python3
"""Every command has its reference page, docs/commands/NAME.md, and the page names every option the command takes:
each option that `gpubench NAME --help` lists (a command with subcommands, as `baseline`, through its subcommands'
--help; `gpubench-mpi --help` where it was built) stands, by one of its names, in the first cell of a row of one of
the page's option tables, so that the page and --help cannot drift apart.

usage: command_pages_test.py DOCS_COMMANDS_DIR GPUBENCH_BINARY [GPUBENCH_MPI_BINARY]
"""
import os
import re
import subprocess
import sys
import unittest

PAGES, GPUBENCH = sys.argv[1:3]
GPUBENCH_MPI = sys.argv[3] if len(sys.argv) > 3 else ""
sys.argv[1:] = []

# Pages of programs rather than of a gpubench command, and the index.
NOT_COMMANDS = {"README.md", "gpubench-mpi.md", "gpubench-micro.md"}


def help_text(argv):
    return subprocess.run([*argv, "--help"], capture_output=True, text=True, timeout=60, check=True).stdout


def listed(text, heading):
    """The names under a CLI11 help heading ("Options:", "Subcommands:"), each line's first word."""
    match = re.search(r"^" + heading + r":\n((?:  .*\n?)*)", text, re.MULTILINE)
    return [line.split()[0] for line in match.group(1).splitlines() if line.strip()] if match else []


def options_in_help(argv):
    """The options a command's --help lists, with its subcommands', each as the tuple of its names ("-o", "--output"),
    --help left out."""
    text = help_text(argv)
    options = {tuple(names.split(",")) for names in listed(text, "Options") if names.startswith("-")}
    for sub in listed(text, "Subcommands"):
        options |= options_in_help([*argv, sub])
    return options - {("-h", "--help")}


def option_cells(page):
    """The first cell of every table row of a page, joined."""
    with open(os.path.join(PAGES, page)) as f:
        return "\n".join(line.split("|")[1] for line in f if line.startswith("| "))


class CommandPagesNameEveryOption(unittest.TestCase):
    def assert_named(self, options, page):
        self.assertTrue(os.path.exists(os.path.join(PAGES, page)), f"docs/commands/{page} is missing")
        cells = option_cells(page)
        for names in sorted(options):
            named = any(re.search(r"(?<![\w-])" + re.escape(name) + r"(?![\w-])", cells) for name in names)
            self.assertTrue(named, f"docs/commands/{page} has no option row for {' or '.join(names)}")

    def test_every_command_has_its_page(self):
        commands = listed(help_text([GPUBENCH]), "Subcommands")
        self.assertIn("run", commands)
        for command in commands:
            with self.subTest(command=command):
                self.assert_named(options_in_help([GPUBENCH, command]), command + ".md")
        pages = {page for page in os.listdir(PAGES) if page.endswith(".md")} - NOT_COMMANDS
        self.assertEqual(pages - {c + ".md" for c in commands}, set(), "pages of commands gpubench does not have")

    def test_gpubench_mpi(self):
        if not GPUBENCH_MPI:
            self.skipTest("no gpubench-mpi here: MPI was not found")
        if not os.path.exists(GPUBENCH_MPI):
            self.skipTest("gpubench-mpi is not built in this build folder (the asan preset builds the CPU targets)")
        self.assert_named(options_in_help([GPUBENCH_MPI]), "gpubench-mpi.md")

    def test_catches_a_missing_option(self):
        # The check itself: an option no row names fails, one named in prose only too.
        with self.assertRaises(AssertionError):
            self.assert_named({("--no-such-option",)}, "run.md")
        with self.assertRaises(AssertionError):
            self.assert_named({("--gpubench_catalogue",)}, "gpubench-micro.md")


if __name__ == "__main__":
    unittest.main(verbosity=2)
