"""The arguments the CLI tests take: the gpubench binary, then the test data folder (this tree's when a test runs by
hand from the source root), and --update for the tests that rewrite their golden files."""
import os
import sys

GPUBENCH = os.path.abspath(sys.argv[1]) if len(sys.argv) > 1 else os.path.abspath("build/gpubench")
DATA = os.path.abspath(sys.argv[2]) if len(sys.argv) > 2 else os.path.abspath("tests/data")
UPDATE = "--update" in sys.argv
