"""A tour of the device on torch 2.x: torch.accelerator, the device module, a torch.save /
torch.load round trip, and an MLP trained through torch.compile with OpWeave's graph backend.

    make torch2 CMD='python3 -m opweave.demo.torch2'
"""

from __future__ import annotations

import argparse
import copy
import io
import sys

import torch

import opweave


def accelerator() -> None:
    print(f"torch {torch.__version__}, device type {opweave.DEVICE!r}")
    print(f"torch.accelerator: is_available={torch.accelerator.is_available()} "
          f"device_count={torch.accelerator.device_count()} "
          f"current_accelerator={torch.accelerator.current_accelerator()} "
          f"current_device_index={torch.accelerator.current_device_index()}")
    mod = getattr(torch, opweave.DEVICE)
    print(f"torch.{opweave.DEVICE}: is_available={mod.is_available()} "
          f"device_count={mod.device_count()} amp dtypes={mod.get_amp_supported_dtype()}")


def save_load() -> None:
    torch.manual_seed(0)
    model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(), torch.nn.Linear(16, 4))
    model.to(opweave.device(0))
    buf = io.BytesIO()
    torch.save(model.state_dict(), buf)
    size = buf.tell()
    for where in (None, "cpu", str(opweave.device(1))):
        buf.seek(0)
        state = torch.load(buf, map_location=where)
        same = all(torch.equal(state[k].cpu(), v.cpu()) for k, v in model.state_dict().items())
        devices = sorted({str(t.device) for t in state.values()})
        print(f"torch.save/torch.load ({size} bytes), map_location={where}: devices {devices}, "
              f"identical={same}")


def compiled_vs_eager(steps: int) -> tuple[list[float], list[float], int]:
    """An MLP trained `steps` SGD steps through torch.compile(backend=opweave_sim) and eagerly,
    both on the device: (compiled losses, eager losses, dynamo compilations)."""
    import torch._dynamo
    from opweave.dicp import dynamo

    torch._dynamo.reset()
    compilations = []

    def backend(gm, example_inputs):
        compilations.append(len(gm.graph.nodes))
        return dynamo.sim_backend(gm, example_inputs)

    torch.manual_seed(0)
    base = torch.nn.Sequential(torch.nn.Linear(20, 64), torch.nn.ReLU(), torch.nn.Linear(64, 5))
    x, y = torch.randn(256, 20), torch.randint(0, 5, (256,))

    def train(compiled: bool) -> list[float]:
        model = copy.deepcopy(base).to(opweave.DEVICE)
        fwd = torch.compile(model, backend=backend) if compiled else model
        opt = torch.optim.SGD(model.parameters(), lr=0.05)
        losses = []
        for step in range(steps):
            i = (step * 32) % 256
            opt.zero_grad()
            loss = torch.nn.functional.cross_entropy(fwd(x[i:i + 32].to(opweave.DEVICE)),
                                                     y[i:i + 32].to(opweave.DEVICE))
            loss.backward()
            opt.step()
            losses.append(loss.item())
        return losses

    compiled = train(True)
    return compiled, train(False), len(compilations)


def compiled_training(steps: int) -> None:
    compiled, eager, compilations = compiled_vs_eager(steps)
    worst = max(abs(a - b) / abs(b) for a, b in zip(compiled, eager))
    print(f"torch.compile(backend=opweave_sim), MLP 20-64-5, {steps} SGD steps: "
          f"loss {compiled[0]:.4f} -> {compiled[-1]:.4f}, max relative difference from eager "
          f"{worst:.2e}, dynamo compilations {compilations}")


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--steps", type=int, default=20)
    args = p.parse_args(argv)
    if int(torch.__version__.split(".")[0]) < 2:
        print("this tour needs torch 2.x (make torch2 CMD='python3 -m opweave.demo.torch2')")
        return 1
    accelerator()
    save_load()
    compiled_training(args.steps)
    return 0


if __name__ == "__main__":
    sys.exit(main())
