#!/usr/bin/env python3
"""One Python thread launching small GPU work: a host-bound loop (issue #38).

`--kernels tiny`: element-wise operations on a 4096-element tensor launched one after another without a pause, as a
hand-written optimiser or a per-parameter loop does; each runs a couple of microseconds on the GPU, less than it takes
Python to launch the next. `--kernels medium`: two 1536 x 1536 FP16 matrix products and a reduction per step, then
the loss read back with `.item()`, as a training loop that logs every step does: the GPU idles while the host
synchronises and launches again.

What `gpubench watch` should see: the GPU idle most of the time (SM activity well under 0.5), one thread of the job
at a full core, the job's CPU about one core. Rule that should fire: gpu_starved, cause host_thread; no other.

usage: python3 tests/watch_jobs/host_bound_loop.py [--seconds 20] [--kernels tiny|medium]
Prints `throughput <steps/s> steps/s`.
"""
import torch

from job_loop import options, run_timed


def main():
    args = options(__doc__, lambda p: p.add_argument("--kernels", choices=["tiny", "medium"], default="tiny"))
    if args.kernels == "tiny":
        x = torch.rand(4096, device="cuda")

        def step():
            for _ in range(50):
                x.mul_(0.999).add_(0.001)
            return 1
    else:
        a = torch.randn(1536, 1536, device="cuda", dtype=torch.float16)
        b = torch.randn(1536, 1536, device="cuda", dtype=torch.float16)

        def step():
            c = (a @ b) @ b
            c.float().mean().item()  # the host waits for the GPU every step
            return 1
    step()
    torch.cuda.synchronize()
    run_timed(args.seconds, step, "steps/s", torch.cuda.synchronize)


if __name__ == "__main__":
    main()
