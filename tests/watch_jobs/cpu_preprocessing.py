#!/usr/bin/env python3
"""Batches prepared on the CPU by a pool of threads, a short GPU step each: the GPU starved by preprocessing
(issue #38).

`--threads N` loader threads each build batches with NumPy (sorting, exponentials, square roots of 2048 x 512
float32 arrays: NumPy releases Python's GIL inside them, so N threads keep N cores busy) and hand them over through a
queue; the main thread copies each batch to the GPU and runs a small network's forward and backward pass on it.
`--work python` makes the loaders' work a Python loop instead, which holds the GIL: the threads take turns on about
one core.

What `gpubench watch` should see: SM activity well under 0.5; the job's CPU near N cores (about one with --work
python), no single thread at a full core. Rule that should fire: gpu_starved, cause cpu_preprocessing; no other.

usage: python3 tests/watch_jobs/cpu_preprocessing.py [--seconds 20] [--threads 4] [--work numpy|python]
Prints `throughput <batches/s> batches/s`.
"""
import queue
import threading

import numpy as np

from job_loop import options, put_until_stopped, run_timed

ROWS, COLUMNS = 2048, 512


def numpy_batch(rng, raw):
    x = np.sort(raw + rng.standard_normal(raw.shape, dtype=np.float32), axis=1)
    x = np.exp(-np.abs(x)) * np.sqrt(np.abs(x) + 1.0)
    return np.ascontiguousarray(x[:, ::4])


def python_batch(rng, raw):
    total = 0.0
    for value in raw[0, :].tolist() * 40:  # a per-element Python loop: holds the GIL
        total = total * 0.5 + value
    return np.full((ROWS, COLUMNS // 4), total, dtype=np.float32)


def main():
    def add(p):
        p.add_argument("--threads", type=int, default=4, help="loader threads (default 4)")
        p.add_argument("--work", choices=["numpy", "python"], default="numpy")
    args = options(__doc__, add)
    make = numpy_batch if args.work == "numpy" else python_batch
    batches = queue.Queue(maxsize=2 * args.threads)
    stop = threading.Event()

    def loader(seed):
        rng = np.random.default_rng(seed)
        raw = rng.standard_normal((ROWS, COLUMNS), dtype=np.float32)
        while not stop.is_set():
            put_until_stopped(batches, make(rng, raw), stop)

    import torch
    model = torch.nn.Sequential(torch.nn.Linear(COLUMNS // 4, 256), torch.nn.ReLU(), torch.nn.Linear(256, 1)).cuda()
    optimiser = torch.optim.SGD(model.parameters(), lr=0.01)

    def step():
        x = torch.from_numpy(batches.get()).cuda()
        loss = model(x).square().mean()
        optimiser.zero_grad(set_to_none=True)
        loss.backward()
        optimiser.step()
        return 1

    threads = [threading.Thread(target=loader, args=(seed,), daemon=True) for seed in range(args.threads)]
    for thread in threads:
        thread.start()
    step()
    run_timed(args.seconds, step, "batches/s", torch.cuda.synchronize)
    stop.set()


if __name__ == "__main__":
    main()
