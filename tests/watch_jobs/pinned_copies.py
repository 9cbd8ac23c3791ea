#!/usr/bin/env python3
"""Results copied back to pinned host memory, back to back: a job at the host link's ceiling (issue #38).

Copies 512 MiB from the GPU into page-locked host memory, again and again, eight queued at a time: the link runs at
its pinned ceiling while no kernel runs, so NVML's utilisation reads high (the copy engines count) and SM activity
near 0.

What `gpubench watch` should see: PCIe from the GPU near this node's pinned device-to-host ceiling. Rule that
should fire: host_transfers_at_ceiling; no other (the utilisation is the copies', not kernels').

usage: python3 tests/watch_jobs/pinned_copies.py [--seconds 20] [--mib 512]
Prints `throughput <GB/s> GB/s`: the copies' rate.
"""
import torch

from job_loop import options, run_timed


def main():
    args = options(__doc__, lambda p: p.add_argument("--mib", type=int, default=512, help="bytes per copy (MiB)"))
    size = args.mib << 20
    device = torch.randint(0, 255, (size,), dtype=torch.uint8, device="cuda")
    host = torch.empty(size, dtype=torch.uint8, pin_memory=True)
    host.copy_(device)
    torch.cuda.synchronize()

    def step():
        for _ in range(8):
            host.copy_(device, non_blocking=True)
        torch.cuda.synchronize()
        return 8 * size / 1e9
    run_timed(args.seconds, step, "GB/s")


if __name__ == "__main__":
    main()
