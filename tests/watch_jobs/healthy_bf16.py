#!/usr/bin/env python3
"""BF16 matrix products back to back: a healthy compute-bound job (issue #31).

Models the inner loop of mixed-precision training done right: 8192 x 8192 x 8192 BF16 products, queued back to back
so that the GPU never waits for the host, on the Tensor Cores, with nothing copied to or from the host.

What `gpubench watch` should see: SM activity near 1, the tensor pipes busy, HBM well under its ceiling, no PCIe
traffic to speak of. Rule that should fire: none ("no bottleneck found"). The power cap may show among the
clock-event reasons: a sustained GEMM on a power-capped GPU reaches it by design.

usage: python3 tests/watch_jobs/healthy_bf16.py [--seconds 20] [--size 8192]
Prints `throughput <TFLOP/s> TFLOP/s` at the end: the BF16 products' rate over the timed part.
"""
import argparse
import time

import torch


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to run (default 20)")
    parser.add_argument("--size", type=int, default=8192, help="the matrices' side (default 8192)")
    args = parser.parse_args()

    n = args.size
    a = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    b = torch.randn(n, n, device="cuda", dtype=torch.bfloat16)
    c = torch.empty_like(a)
    for _ in range(5):  # warm-up: cuBLAS's choice of kernel, the clocks up
        torch.matmul(a, b, out=c)
    torch.cuda.synchronize()

    products = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        for _ in range(16):  # about 20 ms of work queued at once: the GPU never waits for Python
            torch.matmul(a, b, out=c)
        products += 16
        torch.cuda.synchronize()
    elapsed = time.perf_counter() - start
    print(f"throughput {2.0 * n ** 3 * products / elapsed / 1e12:.3f} TFLOP/s", flush=True)


if __name__ == "__main__":
    main()
