"""What the watch jobs share: the command line (--seconds and a job's own options), the timed loop, and the GEMM loop.

Each job module describes itself in its docstring (what it models, what `gpubench watch` should see and say) and
calls `options()` and `run_timed()`, which prints `throughput <rate> <unit>` at the end, as gpu_verify.sh reads it.
"""
import argparse
import queue
import time


def options(doc, add=None):
    """The job's options: --seconds (how long the timed part runs), then whatever `add(parser)` adds."""
    parser = argparse.ArgumentParser(description=doc.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=20.0, help="how long to run the timed part (default 20)")
    if add is not None:
        add(parser)
    return parser.parse_args()


def run_timed(seconds, step, unit, finish=None):
    """Calls step() until `seconds` have passed, each call returning the work it did in `unit`; then finish() (a
    synchronisation, so that queued GPU work is counted in the time) and prints the rate."""
    done = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        done += step()
    if finish is not None:
        finish()
    elapsed = time.perf_counter() - start
    print(f"throughput {done / elapsed:.3f} {unit}", flush=True)


def run_square_products(seconds, n, dtype, queued, warmups):
    """Multiplies two random n x n matrices of `dtype` on the GPU, `queued` products at a time between two
    synchronisations, after `warmups` untimed ones (cuBLAS's choice of kernel, the clocks up), and prints TFLOP/s."""
    import torch  # here, so that the jobs that need no torch, and the test that compiles them, do not import it

    a = torch.randn(n, n, device="cuda", dtype=dtype)
    b = torch.randn(n, n, device="cuda", dtype=dtype)
    c = torch.empty_like(a)
    for _ in range(warmups):
        torch.matmul(a, b, out=c)
    torch.cuda.synchronize()

    def step():
        for _ in range(queued):
            torch.matmul(a, b, out=c)
        torch.cuda.synchronize()
        return queued * 2.0 * n ** 3 / 1e12
    run_timed(seconds, step, "TFLOP/s")


def put_until_stopped(batches, item, stop):
    """Puts `item` on the queue `batches`, waiting while it is full, unless the event `stop` is set meanwhile."""
    while not stop.is_set():
        try:
            batches.put(item, timeout=0.1)
            return
        except queue.Full:
            pass
