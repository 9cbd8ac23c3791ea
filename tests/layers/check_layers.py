#!/usr/bin/env python3
"""Arrows run one way: cli -> harness -> benchmarks -> kernels (docs/architecture.md).

Reads every #include of kernels/, benchmarks/ and harness/ and fails, naming file and line, on one that points
up: kernels/ may include only kernels/; benchmarks/ may include benchmarks/ and kernels/; harness/ may include
all three. Inside harness/ a folder may include its own files and the folders of a lower rank in HARNESS_RANKS
(plus the few sideways arrows in HARNESS_ALSO). Standard and third-party headers are not looked at.

usage: check_layers.py SOURCE_ROOT     check the tree
       check_layers.py --self-test     check that an upward include is caught (in a temporary tree)
"""
import os
import re
import sys
import tempfile

LAYERS = {"kernels": 1, "benchmarks": 2, "harness": 3}
GENERATED = {"gpubench": "harness"}  # gpubench/version.hpp is generated from harness/version.hpp.in

# Lowest first. A folder may include its own files and those of folders with a smaller number.
HARNESS_RANKS = {
    "environment": 1,
    "results": 2,
    "runner": 3, "baseline": 3, "doctor": 3,
    "verdict": 4, "stress": 4,
    "watch": 4,  # a job's telemetry against this node's measured ceilings (results documents)
    "acceptance": 5,  # judges a node from doctor, verdict and stress
    "report": 6,  # writes every command's verdicts, acceptance's among them, in each format
    "cli": 7, "mpi": 7,  # the programs: gpubench and gpubench-mpi
}
# gpubench-mpi exits with the CLI's exit codes; doctor reads the kernel log through journalctl or dmesg, started
# as the runner starts its children (runner includes nothing of doctor's).
HARNESS_ALSO = {"mpi": {"cli"}, "doctor": {"runner"}}

SOURCE_SUFFIXES = (".h", ".hpp", ".cuh", ".c", ".cc", ".cpp", ".cu", ".in")
INCLUDE = re.compile(r'^\s*#\s*include\s*[<"]([^">]+)[">]')


def problem(source, target):
    """Why `source` (a path under the root) may not include `target` (as written), or None."""
    src_parts, dst_parts = source.split("/"), target.split("/")
    dst_top = GENERATED.get(dst_parts[0], dst_parts[0])
    if dst_top not in LAYERS:
        return None  # a system or third-party header
    src_top = src_parts[0]
    if LAYERS[dst_top] > LAYERS[src_top]:
        return f"{src_top}/ may not include {dst_top}/ (arrows run cli -> harness -> benchmarks -> kernels)"
    if src_top == "harness" and dst_top == "harness" and dst_parts[0] == "harness" and len(src_parts) > 2 \
            and len(dst_parts) > 2:
        src_dir, dst_dir = src_parts[1], dst_parts[1]
        if src_dir == dst_dir or dst_dir in HARNESS_ALSO.get(src_dir, set()):
            return None
        if src_dir not in HARNESS_RANKS or dst_dir not in HARNESS_RANKS:
            unknown = src_dir if src_dir not in HARNESS_RANKS else dst_dir
            return f"harness/{unknown}/ has no rank: add it to HARNESS_RANKS in tests/layers/check_layers.py"
        if HARNESS_RANKS[dst_dir] >= HARNESS_RANKS[src_dir]:
            return (f"harness/{src_dir}/ (rank {HARNESS_RANKS[src_dir]}) may not include harness/{dst_dir}/ "
                    f"(rank {HARNESS_RANKS[dst_dir]}): move what both need to the lower folder")
    return None


def check(root):
    """Returns (files read, list of 'path:line: message')."""
    files, found = 0, []
    for top in LAYERS:
        for folder, _, names in os.walk(os.path.join(root, top)):
            for name in sorted(names):
                if not name.endswith(SOURCE_SUFFIXES):
                    continue
                path = os.path.join(folder, name)
                relative = os.path.relpath(path, root).replace(os.sep, "/")
                files += 1
                with open(path, encoding="utf-8", errors="replace") as text:
                    for number, line in enumerate(text, 1):
                        match = INCLUDE.match(line)
                        why = match and problem(relative, match.group(1))
                        if why:
                            found.append(f"{relative}:{number}: #include \"{match.group(1)}\": {why}")
    return files, found


def self_test():
    cases = {
        "kernels/a.cu": ('#include "kernels/b.cuh"\n#include "benchmarks/common/cuda_check.hpp"\n', ["kernels/a.cu:2:"]),
        "benchmarks/a.cpp": ('#include <vector>\n#include "kernels/b.cuh"\n#include <harness/results/x.hpp>\n',
                             ["benchmarks/a.cpp:3:"]),
        "benchmarks/common/b.hpp": ('#include "gpubench/version.hpp"\n', ["benchmarks/common/b.hpp:1:"]),
        "harness/results/a.cpp": ('#include "harness/results/b.hpp"\n#include "harness/runner/c.hpp"\n'
                                  '#include "benchmarks/common/d.hpp"\n', ["harness/results/a.cpp:2:"]),
        "harness/baseline/a.hpp": ('#include "harness/doctor/b.hpp"\n', ["harness/baseline/a.hpp:1:"]),
        "harness/mpi/main.cpp": ('#include "harness/cli/exit_codes.hpp"\n#include "harness/runner/a.hpp"\n', []),
        "harness/cli/main.cpp": ('#include "harness/mpi/a.hpp"\n', ["harness/cli/main.cpp:1:"]),
    }
    with tempfile.TemporaryDirectory() as root:
        for path, (text, _) in cases.items():
            os.makedirs(os.path.join(root, os.path.dirname(path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as out:
                out.write(text)
        _, found = check(root)
    want = sorted(prefix for _, prefixes in cases.values() for prefix in prefixes)
    got = sorted(line[: line.index(":", line.index(":") + 1) + 1] for line in found)
    if got != want:
        print("self-test: expected upward includes at", want, "\nfound:", *found, sep="\n  ")
        return 1
    print(f"self-test: all {len(want)} upward includes caught, nothing else")
    return 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    if len(argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    files, found = check(argv[1])
    if files == 0:
        print(f"no sources under {argv[1]}/{{kernels,benchmarks,harness}}: wrong source root?", file=sys.stderr)
        return 2
    for line in found:
        print(line)
    if found:
        print(f"{len(found)} include(s) point up a layer; see docs/architecture.md, section Layers")
        return 1
    print(f"{files} files: every include points down a layer or stays in its own")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
