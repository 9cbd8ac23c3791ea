#!/usr/bin/env python3
"""CPU-side preprocessing starves the GPU: an input-bound training loop (issue #31).

Models a training job whose data loader decodes and augments each sample in Python on the CPU: a pool of loader
processes, one per core this job may run on (as a DataLoader with num_workers set to the core count), each turning
raw samples into a batch with a per-sample Python "decode" (a byte loop) and numpy augmentation (random crop, flip,
normalisation), while the main process feeds each batch to a small network whose forward and backward pass takes
the GPU a millisecond or two. Every core is busy preprocessing; the GPU waits for the next batch most of the time.

What `gpubench watch` should see: SM activity well under 0.5, the job's processes using (nearly) every core they
may run on. Rule that should fire: gpu_starved, cause cpu_preprocessing (fix: decode and augment on the GPU, cache
preprocessed data). No other; in particular not many_small_kernels, since the GPU is mostly idle, not launching.

usage: python3 tests/watch_jobs/input_bound.py [--seconds 20] [--workers N] [--batch 64]
Prints `throughput <samples/s> samples/s` at the end: the samples the GPU trained on per second.
"""
import multiprocessing
import os

import numpy as np

from job_loop import options, put_until_stopped, run_timed

SIDE = 72   # a raw sample: SIDE x SIDE RGB
CROP = 64   # what the network sees


def decode(raw):
    """A stand-in for decoding a compressed sample: a byte-at-a-time loop in Python."""
    state = 0
    out = bytearray(len(raw))
    for i, byte in enumerate(raw):
        state = (state * 31 + byte) & 0xFF
        out[i] = state
    return np.frombuffer(bytes(out), dtype=np.uint8).reshape(SIDE, SIDE, 3)


def augment(image, rng):
    """Random crop, random horizontal flip, per-channel normalisation, HWC -> CHW, in float32."""
    y, x = rng.integers(0, SIDE - CROP + 1, size=2)
    crop = image[y:y + CROP, x:x + CROP].astype(np.float32) / 255.0
    if rng.random() < 0.5:
        crop = crop[:, ::-1]
    mean = crop.mean(axis=(0, 1), keepdims=True)
    std = crop.std(axis=(0, 1), keepdims=True) + 1e-6
    return np.ascontiguousarray(((crop - mean) / std).transpose(2, 0, 1))


def loader(seed, batch, batches, stop):
    """One loader process: raw samples in, batches of preprocessed samples and labels out."""
    batches.cancel_join_thread()  # at exit, do not wait to flush batches nobody will read
    rng = np.random.default_rng(seed)
    raw_samples = [rng.integers(0, 256, size=SIDE * SIDE * 3, dtype=np.uint8).tobytes() for _ in range(16)]
    while not stop.is_set():
        images = np.stack([augment(decode(raw_samples[rng.integers(0, 16)]), rng) for _ in range(batch)])
        labels = rng.integers(0, 10, size=batch)
        put_until_stopped(batches, (images, labels), stop)


def main():
    def add(parser):
        parser.add_argument("--workers", type=int, default=len(os.sched_getaffinity(0)),
                            help="loader processes (default: one per core this job may run on)")
        parser.add_argument("--batch", type=int, default=64, help="samples per batch (default 64)")
    args = options(__doc__, add)

    # The loaders are forked before this process touches CUDA (a forked child cannot use a parent's CUDA context).
    context = multiprocessing.get_context("fork")
    batches = context.Queue(maxsize=4 * args.workers)
    stop = context.Event()
    workers = [context.Process(target=loader, args=(seed, args.batch, batches, stop), daemon=True)
               for seed in range(args.workers)]
    for worker in workers:
        worker.start()

    import torch  # after the fork, as above

    model = torch.nn.Sequential(
        torch.nn.Conv2d(3, 32, 3, padding=1), torch.nn.ReLU(), torch.nn.MaxPool2d(4),
        torch.nn.Flatten(), torch.nn.Linear(32 * (CROP // 4) ** 2, 10)).cuda()
    optimiser = torch.optim.SGD(model.parameters(), lr=0.01)

    def step(images, labels):
        x = torch.from_numpy(images).cuda()
        y = torch.from_numpy(labels).cuda()
        loss = torch.nn.functional.cross_entropy(model(x), y)
        optimiser.zero_grad(set_to_none=True)
        loss.backward()
        optimiser.step()

    step(*batches.get())  # warm-up: CUDA's context, cuDNN's choice of kernels
    torch.cuda.synchronize()

    def train():
        images, labels = batches.get()
        step(images, labels)
        return len(labels)
    run_timed(args.seconds, train, "samples/s", torch.cuda.synchronize)
    stop.set()
    for worker in workers:  # the batches still queued are of no use: stop the loaders now
        worker.terminate()
    for worker in workers:
        worker.join(timeout=5)


if __name__ == "__main__":
    main()
