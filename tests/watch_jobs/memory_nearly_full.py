#!/usr/bin/env python3
"""A busy job that holds nearly all of the GPU's memory (issue #38).

Takes all free memory but 2.5 GiB (as a framework that preallocates does), then multiplies 8192 x 8192 BF16 matrices
back to back on the Tensor Cores: the GPU is busy and healthy, with almost no headroom left.

What `gpubench watch` should see: memory used over 95 % of the total, SM activity near 1, tensor pipes busy. Rule that
should fire: memory_nearly_full; no other.

usage: python3 tests/watch_jobs/memory_nearly_full.py [--seconds 20] [--headroom-gib 2.5]
Prints `throughput <TFLOP/s> TFLOP/s`.
"""
import torch

from job_loop import options, run_timed


def main():
    args = options(__doc__, lambda p: p.add_argument("--headroom-gib", type=float, default=2.5))
    n = 8192
    a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    c = torch.empty_like(a)
    torch.matmul(a, b, out=c)
    torch.cuda.synchronize()
    free, _ = torch.cuda.mem_get_info()
    hold = torch.empty(max(0, free - int(args.headroom_gib * (1 << 30))), dtype=torch.uint8, device="cuda")
    hold.fill_(1)

    def step():
        for _ in range(16):
            torch.matmul(a, b, out=c)
        torch.cuda.synchronize()
        return 16 * 2.0 * n ** 3 / 1e12
    run_timed(args.seconds, step, "TFLOP/s")
    del hold


if __name__ == "__main__":
    main()
