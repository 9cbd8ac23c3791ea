#!/usr/bin/env python3
"""Element-wise work on large tensors: a job bound by HBM bandwidth (issue #31).

Models the unfused element-wise parts of a model (bias, activation, residual adds, optimizer updates) run one
kernel at a time in eager mode: each reads its operands from HBM and writes its result back, doing one or two
floating-point operations per 4 bytes moved. Three FP32 tensors of --gib GiB each (1 by default), far larger than the
L2 cache, go through a chain of adds and multiplies into preallocated outputs (no allocation in the loop).

What `gpubench watch` should see: DRAM activity high, HBM at 80 % or more of this GPU's measured bandwidth, the
tensor pipes idle, SM activity high (the kernels occupy the SMs while they wait on memory).
Rule that should fire: memory_bandwidth_bound (fix: fuse the element-wise kernels, move fewer bytes). No other.

usage: python3 tests/watch_jobs/elementwise_bandwidth.py [--seconds 20] [--gib 1]
Prints `throughput <GB/s> GB/s` at the end: the bytes the kernels must read and write per second (10^9 bytes).
"""
import torch

from job_loop import options, run_timed


def main():
    args = options(__doc__, lambda parser: parser.add_argument(
        "--gib", type=float, default=1.0, help="size of each of the three tensors, GiB (default 1)"))

    count = int(args.gib * 2 ** 30) // 4
    a = torch.rand(count, device="cuda", dtype=torch.float32)
    b = torch.rand(count, device="cuda", dtype=torch.float32)
    c = torch.empty_like(a)
    tensor_bytes = 4 * count

    def chain():
        """Four kernels, 3 + 3 + 2 + 2 tensors moved: 10 x tensor_bytes. The values stay bounded however long it
        runs: a comes back as it was (to rounding), b only changes sign."""
        torch.add(a, b, out=c)       # c = a + b         reads 2, writes 1
        torch.sub(c, b, out=a)       # a = c - b         reads 2, writes 1
        torch.mul(b, -1.0, out=b)    # b = -b            reads 1, writes 1
        torch.mul(c, 0.5, out=c)     # c = c / 2         reads 1, writes 1
        return 10 * tensor_bytes

    for _ in range(3):  # warm-up
        chain()
    torch.cuda.synchronize()

    def step():
        moved = sum(chain() for _ in range(8))
        torch.cuda.synchronize()
        return moved / 1e9
    run_timed(args.seconds, step, "GB/s")


if __name__ == "__main__":
    main()
