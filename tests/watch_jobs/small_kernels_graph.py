#!/usr/bin/env python3
"""Hundreds of tiny kernels replayed from a CUDA Graph: the GPU busy all the time with work that fills few SMs
(issue #38).

Captures 400 element-wise operations on a 4096-element tensor (16 blocks: 16 of the GPU's SMs at most) in one CUDA
Graph and replays it, 20 replays queued at a time: the host launches one graph per 400 kernels, so the GPU never
waits for it, yet each kernel keeps almost every SM idle.

What `gpubench watch` should see: utilisation near 100 %, SM activity far under 0.5, no copies. Rule that
should fire: many_small_kernels; not gpu_starved (a kernel runs nearly all the time: the GPU is not waiting
for the host).

usage: python3 tests/watch_jobs/small_kernels_graph.py [--seconds 20]
Prints `throughput <kernels/s> kernels/s`.
"""
import torch

from job_loop import options, run_timed

KERNELS = 400


def main():
    args = options(__doc__)
    x = torch.rand(4096, device="cuda")
    stream = torch.cuda.Stream()
    with torch.cuda.stream(stream):  # capture on a side stream, as torch.cuda.graph requires
        for _ in range(3):
            x.mul_(0.999).add_(0.001)
    torch.cuda.synchronize()
    graph = torch.cuda.CUDAGraph()
    with torch.cuda.graph(graph):
        for _ in range(KERNELS // 2):
            x.mul_(0.999).add_(0.001)

    def step():
        for _ in range(20):
            graph.replay()
        torch.cuda.synchronize()
        return 20 * KERNELS
    run_timed(args.seconds, step, "kernels/s")


if __name__ == "__main__":
    main()
