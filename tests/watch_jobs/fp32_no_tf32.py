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
import torch

from job_loop import options, run_square_products


def main():
    args = options(__doc__, lambda parser: parser.add_argument(
        "--size", type=int, default=8192, help="the matrices' side (default 8192)"))

    torch.backends.cuda.matmul.allow_tf32 = False
    torch.backends.cudnn.allow_tf32 = False
    torch.set_float32_matmul_precision("highest")
    # a few queued at once keep the GPU busy while Python checks the time
    run_square_products(args.seconds, args.size, torch.float32, queued=4, warmups=2)


if __name__ == "__main__":
    main()
