#!/usr/bin/env python3
"""Mixed-precision training of a transformer's feed-forward blocks, done right: a healthy job of another kind than a
plain GEMM loop (issue #38).

Two blocks of LayerNorm, a 4096 -> 16384 -> 4096 MLP with GELU and a residual, on 8192 tokens a step, under BF16
autocast, with a fused AdamW step: matrix products on the Tensor Cores between element-wise kernels, the
optimiser's update over 270 M parameters, no data from the host.

What `gpubench watch` should see: SM activity near 1, the tensor pipes busy much of the time, HBM under its
ceiling, no copies. Rule that should fire: none ("no bottleneck found").

usage: python3 tests/watch_jobs/healthy_training.py [--seconds 20]
Prints `throughput <tokens/s> tokens/s`.
"""
import torch

from job_loop import options, run_timed

WIDTH, HIDDEN, TOKENS = 4096, 16384, 8192


class Block(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.norm = torch.nn.LayerNorm(WIDTH)
        self.up = torch.nn.Linear(WIDTH, HIDDEN)
        self.down = torch.nn.Linear(HIDDEN, WIDTH)

    def forward(self, x):
        return x + self.down(torch.nn.functional.gelu(self.up(self.norm(x))))


def main():
    args = options(__doc__)
    model = torch.nn.Sequential(Block(), Block()).cuda()
    optimiser = torch.optim.AdamW(model.parameters(), lr=1e-4, fused=True)
    x = torch.randn(TOKENS, WIDTH, device="cuda")

    def step():
        for _ in range(4):
            with torch.autocast("cuda", dtype=torch.bfloat16):
                loss = model(x).float().square().mean()
            optimiser.zero_grad(set_to_none=True)
            loss.backward()
            optimiser.step()
        torch.cuda.synchronize()
        return 4 * TOKENS
    step()
    run_timed(args.seconds, step, "tokens/s")


if __name__ == "__main__":
    main()
