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
import torch

from job_loop import options, run_square_products


def main():
    args = options(__doc__, lambda parser: parser.add_argument(
        "--size", type=int, default=8192, help="the matrices' side (default 8192)"))

    # about 20 ms of work queued at once: the GPU never waits for Python
    run_square_products(args.seconds, args.size, torch.bfloat16, queued=16, warmups=5)


if __name__ == "__main__":
    main()
