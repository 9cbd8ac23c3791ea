#!/usr/bin/env python3
"""Host-to-device copies from pageable memory: transfers at the pageable ceiling (issue #31).

Models a job that moves its batches to the GPU from ordinary (pageable) host memory: a DataLoader without
pin_memory=True, or tensors made on the CPU and sent with .cuda(). The driver stages each such copy through a pinned
buffer of its own, so it runs at the pageable rate, well below what the same copy reaches from pinned memory. The
loop copies one --mib MiB buffer (512 by default) from a pageable host tensor into the GPU, back to back, with
nothing else to do.

What `gpubench watch` should see: PCIe traffic into the GPU near the pageable H2D copy rate this node measured
(pcie/h2d/pageable/1GiB), SM activity and the tensor pipes near 0.
Rule that should fire: host_transfers_at_ceiling, at the pageable ceiling (fix: pin the buffers). No other.

usage: python3 tests/watch_jobs/pageable_copies.py [--seconds 20] [--mib 512]
Prints `throughput <GB/s> GB/s` at the end: the bytes copied into the GPU per second (10^9 bytes).
"""
import torch

from job_loop import options, run_timed


def main():
    args = options(__doc__, lambda parser: parser.add_argument(
        "--mib", type=int, default=512, help="the buffer's size, MiB (default 512)"))

    size = args.mib * 2 ** 20
    host = torch.ones(size, dtype=torch.uint8)  # pageable: not pin_memory(), and every page touched
    assert not host.is_pinned()
    device = torch.empty(size, dtype=torch.uint8, device="cuda")
    for _ in range(2):  # warm-up
        device.copy_(host)
    torch.cuda.synchronize()

    def step():
        device.copy_(host)  # from pageable memory the copy returns when it is done
        return size / 1e9
    run_timed(args.seconds, step, "GB/s", torch.cuda.synchronize)


if __name__ == "__main__":
    main()
