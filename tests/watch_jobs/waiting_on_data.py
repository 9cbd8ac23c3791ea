#!/usr/bin/env python3
"""Batches that arrive slowly from outside the job, its CPU idle meanwhile: the GPU starved by a wait (issue #38).

`--loaders N` threads fetch the data of each batch from a slow source and queue it; the main thread copies each
batch to the GPU and runs a short step on it. The source:
  - `sleep`: each fetch pauses (as a rate-limited API or a back-off does) and then makes the batch;
  - `disk`: each fetch reads 32 MiB of a 1 GiB file around the page cache (O_DIRECT, or where the file system
    refuses it, with the file's cached pages dropped before each read), so every byte comes from the device;
  - `socket`: each fetch receives 1 MiB over TCP from a server process that sends slowly (started outside the
    job's process tree, as a remote store would be); `--socket-timeout S` makes the receive wait in poll() first,
    as Python does for a socket with a timeout.

What `gpubench watch` should see: SM activity near 0, the job's CPU mostly idle, its working threads blocked on
the source. Rule that should fire: gpu_starved, cause waiting_sleep, waiting_disk or waiting_network; no other.

usage: python3 tests/watch_jobs/waiting_on_data.py [--seconds 20] [--source sleep|disk|socket] [--loaders 1]
       [--dir /var/tmp] [--socket-timeout S]
Prints `throughput <batches/s> batches/s` and, for disk and socket, the rate the source gave.
"""
import mmap
import os
import queue
import socket
import tempfile
import threading
import time

import numpy as np

from job_loop import options, put_until_stopped, run_timed

CHUNK = 32 << 20        # bytes read from the file per fetch
FILE_SIZE = 1 << 30
MESSAGE = 1 << 20       # bytes the socket server sends per fetch
SERVER_PAUSE_S = 0.05   # the server's pause before each message


def make_file(folder):
    """A 1 GiB file of random bytes, written and flushed before the job touches the GPU."""
    fd, path = tempfile.mkstemp(prefix="gpubench-watch-job-", dir=folder)
    block = np.random.default_rng(0).integers(0, 256, size=64 << 20, dtype=np.uint8).tobytes()
    with os.fdopen(fd, "wb") as out:
        for _ in range(FILE_SIZE // len(block)):
            out.write(block)
        out.flush()
        os.fsync(out.fileno())
    return path


def disk_reader(path):
    """A fetch function reading CHUNK bytes at a time, past the page cache."""
    buffer = mmap.mmap(-1, CHUNK)  # page-aligned, as O_DIRECT needs
    try:
        fd = os.open(path, os.O_RDONLY | os.O_DIRECT)
        direct = True
    except OSError:
        fd = os.open(path, os.O_RDONLY)
        direct = False
    state = {"offset": 0}
    lock = threading.Lock()

    def fetch():
        with lock:
            offset = state["offset"]
            state["offset"] = (offset + CHUNK) % FILE_SIZE
        if not direct:
            os.posix_fadvise(fd, offset, CHUNK, os.POSIX_FADV_DONTNEED)
        return os.preadv(fd, [buffer], offset)
    return fetch, ("O_DIRECT" if direct else "cache dropped before each read")


def serve_slowly(listener):
    """The slow remote store: sends MESSAGE bytes to each client after a pause, for ever (until the job ends)."""
    payload = bytes(MESSAGE)
    def client(connection):
        with connection:
            try:
                while True:
                    time.sleep(SERVER_PAUSE_S)
                    connection.sendall(payload)
            except OSError:
                pass
    while True:
        connection, _ = listener.accept()
        threading.Thread(target=client, args=(connection,), daemon=True).start()


def start_server_outside_the_job():
    """Forks twice, so that the server is no descendant of the job (watch follows the job's process tree), and
    returns its port. Done before CUDA is touched: a forked child may not use its parent's CUDA context."""
    job = os.getpid()
    listener = socket.create_server(("127.0.0.1", 0))
    port = listener.getsockname()[1]
    first = os.fork()
    if first == 0:
        if os.fork() == 0:
            os.setsid()
            threading.Thread(target=serve_slowly, args=(listener,), daemon=True).start()
            while True:  # the server ends once the job's main process has
                time.sleep(1)
                try:
                    os.kill(job, 0)
                except OSError:
                    os._exit(0)
        os._exit(0)
    os.waitpid(first, 0)
    listener.close()
    return port


def socket_reader(port, timeout):
    def connect():
        connection = socket.create_connection(("127.0.0.1", port))
        connection.settimeout(timeout)
        return connection
    local = threading.local()
    buffer_size = MESSAGE

    def fetch():
        if not hasattr(local, "connection"):
            local.connection = connect()
            local.buffer = bytearray(buffer_size)
        view = memoryview(local.buffer)
        got = 0
        while got < MESSAGE:
            n = local.connection.recv_into(view[got:])
            if n == 0:
                raise ConnectionError("the slow server closed the connection")
            got += n
        return got
    return fetch


def main():
    def add(p):
        p.add_argument("--source", choices=["sleep", "disk", "socket"], default="sleep")
        p.add_argument("--loaders", type=int, default=1, help="threads fetching batches (default 1)")
        p.add_argument("--dir", default="/var/tmp", help="where the disk source's file goes (default /var/tmp)")
        p.add_argument("--socket-timeout", type=float, default=None,
                       help="a timeout on the socket (Python then waits in poll() before each receive)")
        p.add_argument("--pause", type=float, default=0.05, help="the sleep source's pause per batch (default 0.05 s)")
    args = options(__doc__, add)
    path = None
    if args.source == "disk":
        path = make_file(args.dir)
        fetch, how = disk_reader(path)
        print(f"reading {path} ({how})", flush=True)
    elif args.source == "socket":
        fetch = socket_reader(start_server_outside_the_job(), args.socket_timeout)
    else:
        def fetch():
            time.sleep(args.pause)
            return 0

    fetched = {"bytes": 0}
    batches = queue.Queue(maxsize=4)
    stop = threading.Event()

    def loader(seed):
        rng = np.random.default_rng(seed)
        while not stop.is_set():
            fetched["bytes"] += fetch()
            put_until_stopped(batches, rng.standard_normal((256, 1024), dtype=np.float32), stop)

    import torch
    model = torch.nn.Linear(1024, 1024).cuda()

    def step():
        x = torch.from_numpy(batches.get()).cuda()
        model(x).square().mean().backward()
        return 1

    for seed in range(args.loaders):
        threading.Thread(target=loader, args=(seed,), daemon=True).start()
    step()
    started, before = time.perf_counter(), fetched["bytes"]
    run_timed(args.seconds, step, "batches/s", torch.cuda.synchronize)
    if args.source != "sleep":
        rate = (fetched["bytes"] - before) / (time.perf_counter() - started) / 1e6
        print(f"source {rate:.1f} MB/s", flush=True)
    stop.set()
    if path:
        os.unlink(path)


if __name__ == "__main__":
    main()
