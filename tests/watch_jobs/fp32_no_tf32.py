#!/usr/bin/env python3
"""FP32 matrix products with TF32 off: the Tensor Cores idle under a compute-bound load (issue #31).

Models a training or inference job that multiplies FP32 matrices without allowing TF32 (PyTorch's default for
matmul since 1.12: torch.backends.cuda.matmul.allow_tf32 = False), so that cuBLAS runs them on the FP32 pipes
while the Tensor Cores, which would run them several times faster in TF32 or BF16, do nothing.

What `gpubench watch` should see: SM activity near 1, the FP32 pipe busy, the tensor pipes at 0.
Rule that should fire: tensor_cores_idle (fix: allow TF32, or BF16 autocast). No other.

usage: python3 tests/watch_jobs/fp32_no_tf32.py [--seconds 20] [--size 8192]
Prints `throughput <TFLOP/s> TFLOP/s` at the end: the FP32 products' rate over the timed part.
"""
import argparse
import time

import torch


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to run (default 20)")
    parser.add_argument("--size", type=int, default=8192, help="the matrices' side (default 8192)")
    args = parser.parse_args()

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    n = args.size
    a = torch.randn(n, n, device="cuda", dtype=torch.float32)
    b = torch.randn(n, n, device="cuda", dtype=torch.float32)
    c = torch.empty_like(a)
    for _ in range(2):  # warm-up: cuBLAS's choice of kernel, the clocks up
        torch.matmul(a, b, out=c)
    torch.cuda.synchronize()

    products = 0
    start = time.perf_counter()
    while time.perf_counter() - start < args.seconds:
        for _ in range(4):  # a few queued at once keep the GPU busy while Python checks the time
            torch.matmul(a, b, out=c)
        products += 4
        torch.cuda.synchronize()
    elapsed = time.perf_counter() - start
    print(f"throughput {2.0 * n ** 3 * products / elapsed / 1e12:.3f} TFLOP/s", flush=True)


if __name__ == "__main__":
    main()
