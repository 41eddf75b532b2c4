"""Which side is wrong? The float64 referee on models where CPU float32 is the less accurate side.

    python3 -m opweave.demo.referee                        # small ResNet on 8-bit pixels
    python3 -m opweave.demo.referee --model forecaster     # raw sensor readings, layer norm
    python3 -m opweave.demo.referee --path build --build-dir build/autocompare

Autocompare checks the device against the CPU in the same dtype and, without a referee, calls
every difference the device's fault. Here it is the CPU's:

  cnn         demo/cnn.py's small ResNet fed 8-bit pixel values (0..255: images decoded to float
              without the /255 and mean/std normalisation). Its first convolution sums 27
              products of up to 255 x weight; the sim accumulates in float64 and rounds once,
              ATen's float32 CPU kernel rounds along the way, by more than the float32
              tolerance (1e-5 absolute + 1e-5 relative) at some outputs.
  forecaster  a 24-step pressure forecast from 96 raw readings of 3 sensors (hPa around 1013,
              kelvin around 288, % humidity), each sensor's window normalised over its 96
              readings (LayerNorm over time, as time-series models do). A window's mean is
              hundreds of times its spread: ATen's float32 CPU layer norm loses those digits,
              the sim keeps them (it sums in float64).

Per model: `--steps` SGD steps under OpAutoCompare (or, `--path build`, under the autocompare
build: child processes with OPWEAVE_BUILD_DIR=--build-dir), first with the same-dtype compare
only (reference "none": ditorch's and DIPU's verdict), then with the float64 referee; the
checks where device and CPU disagree are listed with their verdict and the three distances
(device-CPU, device-float64, CPU-float64, in units of the tolerance). Then, as issue #18
measured on torchvision models: one training step's parameter gradients on the device and in
CPU float32 against the same step in CPU float64 (max abs difference / largest gradient).
"""

from __future__ import annotations

import argparse
import copy
import json
import os
import subprocess
import sys
import tempfile

import torch
import torch.nn.functional as F

import opweave
from opweave.demo import cnn

# ---------------------------------------------------------------- models and data


class Forecaster(torch.nn.Module):
    """Pressure in 24 steps from 96 readings of (pressure, temperature, humidity): each sensor's
    window normalised over time, a convolution, an MLP, the forecast put back on the pressure
    window's scale."""

    def __init__(self, window: int = 96, horizon: int = 24, width: int = 16):
        super().__init__()
        self.norm = torch.nn.LayerNorm(window, elementwise_affine=False)
        self.conv = torch.nn.Conv1d(3, width, 5, padding=2)
        self.fc1 = torch.nn.Linear(width * window, 128)
        self.fc2 = torch.nn.Linear(128, horizon)

    def forward(self, x):
        p = x[:, 0]
        mu, sd = p.mean(-1, keepdim=True), p.std(-1, keepdim=True)
        z = F.gelu(self.conv(self.norm(x))).flatten(1)
        return self.fc2(F.gelu(self.fc1(z))) * sd + mu


def cnn_data(n: int, seed: int):
    """demo/cnn.py's images as 8-bit pixel values (whole numbers 0..255) and their labels."""
    x, y = cnn.make_data(n, seed)
    return ((x - x.min()) / (x.max() - x.min()) * 255).round(), y


def forecaster_data(n: int, seed: int, window: int = 96, horizon: int = 24):
    g = torch.Generator().manual_seed(seed)

    def walk(level, step):    # a random walk around a level: slowly drifting readings
        return level + (torch.randn(n, window + horizon, generator=g) * step).cumsum(-1)
    p, t, h = walk(1013.0, 0.3), walk(288.0, 0.2), walk(70.0, 1.0)
    return torch.stack([p[:, :window], t[:, :window], h[:, :window]], 1), p[:, window:]


MODELS = {
    "cnn": (cnn.make_model, cnn_data, F.cross_entropy, 0.05),
    "forecaster": (lambda seed: (torch.manual_seed(seed), Forecaster())[1], forecaster_data,
                   F.mse_loss, 1e-4),
}
DESCRIPTION = {
    "cnn": "small ResNet (demo/cnn.py), 3x16x16 images as 8-bit pixel values",
    "forecaster": "pressure forecaster, 3 raw sensor channels x 96 readings, LayerNorm over time",
}


def train(name: str, device, steps: int, batch: int = 32, seed: int = 0) -> list[float]:
    make, data, loss_fn, lr = MODELS[name]
    x, y = data(256, seed)
    model = make(seed).to(device).train()
    opt = torch.optim.SGD(model.parameters(), lr=lr, momentum=0.9, foreach=False)
    losses = []
    for step in range(steps):
        i = (step * batch) % x.shape[0]
        opt.zero_grad(set_to_none=True)
        loss = loss_fn(model(x[i:i + batch].to(device)), y[i:i + batch].to(device))
        loss.backward()
        opt.step()
        losses.append(loss.item())
    return losses


def gradient_errors(name: str, device, batch: int = 32, seed: int = 0) -> dict:
    """One step's parameter gradients on the device and in CPU float32 against CPU float64:
    max abs difference over all parameters / the largest float64 gradient."""
    make, data, loss_fn, _ = MODELS[name]
    x, y = data(batch, seed)
    model = make(seed)

    def grads(dev, dtype):
        m = copy.deepcopy(model).to(device=dev, dtype=dtype).train()
        loss_fn(m(x.to(device=dev, dtype=dtype)),
                y.to(device=dev, dtype=dtype if y.is_floating_point() else y.dtype)).backward()
        return [p.grad.detach().cpu().double() for p in m.parameters()]

    exact = grads("cpu", torch.float64)
    largest = max(float(g.abs().max()) for g in exact)
    out = {}
    for side, dev in (("device", device), ("cpu_float32", "cpu")):
        got = grads(dev, torch.float32)
        out[side] = max(float((a - b).abs().max()) for a, b in zip(got, exact)) / largest
    return out


# ---------------------------------------------------------------- the two compare paths


def _row(seq, op, which, verdict, d_cpu, d_64, c_64) -> dict:
    return {"seq": seq, "op": op, "pass": which, "verdict": verdict, "device_cpu": d_cpu,
            "device_float64": d_64, "cpu_float64": c_64}


def verdicts_tools(name: str, device, steps: int, reference: str) -> dict:
    """Training steps under OpAutoCompare: the checks where device and CPU disagreed."""
    from opweave.tools import OpAutoCompare
    with tempfile.TemporaryDirectory() as d:
        with OpAutoCompare(d, reference=reference, verbose=False, save_failures=False) as ac:
            train(name, device, steps)
    rows = [_row(r["seq"], r["op"], r["pass"], r["verdict"], r["device_cpu"],
                 r["device_float64"], r["cpu_float64"]) for r in ac.disagreements()]
    checks = sum(v["forward"][0] + v["backward"][0] for v in ac.summary().values())
    return {"checks": checks, "rows": rows}


def verdicts_build(name: str, steps: int, reference: str, build_dir: str) -> dict:
    """The same steps in a child process on the autocompare build: every ATen call compared."""
    with tempfile.TemporaryDirectory() as d:
        log = os.path.join(d, "compare.jsonl")
        env = dict(os.environ, OPWEAVE_BUILD_DIR=os.path.abspath(build_dir),
                   OPWEAVE_AUTOCOMPARE_FILE=log, OPWEAVE_AUTOCOMPARE_REFERENCE=reference,
                   OPWEAVE_AUTOCOMPARE="1")
        proc = subprocess.run([sys.executable, "-m", "opweave.demo.referee", "--child", name,
                               "--steps", str(steps)], env=env, capture_output=True, text=True)
        if proc.returncode != 0:
            raise RuntimeError(f"autocompare child failed:\n{proc.stderr[-3000:]}")
        with open(log, encoding="utf-8") as f:
            lines = [json.loads(line) for line in f if line.strip()]
    rows = [_row(i + 1, r["op"], "aten", r["verdict"], r["device_cpu"], r["device_float64"],
                 r["cpu_float64"]) for i, r in enumerate(lines) if r["verdict"] != "pass"]
    return {"checks": len(lines), "rows": rows}


def _units(v) -> str:
    return "-" if v is None else f"{v:.3g}"


def print_verdicts(title: str, result: dict) -> None:
    failing = sum(r["verdict"] == "fail" for r in result["rows"])
    print(f"{title}: {result['checks']} checks, {len(result['rows'])} disagree with the CPU, "
          f"{failing} failing")
    if result["rows"]:
        print(f"  {'seq':>5}  {'op':<40} {'pass':<9} {'verdict':<14} {'device-cpu':>10} "
              f"{'device-f64':>10} {'cpu-f64':>10}   (x tolerance)")
    for r in result["rows"]:
        print(f"  {r['seq']:>5}  {r['op']:<40} {r['pass']:<9} {r['verdict']:<14} "
              f"{_units(r['device_cpu']):>10} {_units(r['device_float64']):>10} "
              f"{_units(r['cpu_float64']):>10}")


def run(name: str, path: str, steps: int, build_dir: str | None = None) -> dict:
    device = opweave.device(0)
    result = {"model": name}
    for reference in ("none", "float64"):
        result[reference] = (verdicts_build(name, steps, reference, build_dir) if path == "build"
                             else verdicts_tools(name, device, steps, reference))
    result["gradients"] = gradient_errors(name, device)
    return result


def main(argv=None) -> int:
    p = argparse.ArgumentParser(description=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--model", choices=sorted(MODELS), action="append",
                   help="model(s) to run (default: both)")
    p.add_argument("--path", choices=("tools", "build"), default="tools",
                   help="OpAutoCompare (tools) or the autocompare build (build)")
    p.add_argument("--build-dir", help="the autocompare build, for --path build "
                                       "(default $OPWEAVE_AUTOCOMPARE_BUILD_DIR)")
    p.add_argument("--steps", type=int, default=3)
    p.add_argument("--json", help="write the verdicts here")
    p.add_argument("--child", help=argparse.SUPPRESS)   # --path build: the run being compared
    args = p.parse_args(argv)
    if args.child:
        train(args.child, opweave.device(0), args.steps)
        return 0
    build_dir = args.build_dir or os.environ.get("OPWEAVE_AUTOCOMPARE_BUILD_DIR")
    if args.path == "build" and not build_dir:
        p.error("--path build needs --build-dir (a `make build-autocompare` build)")
    results = []
    for name in args.model or sorted(MODELS):
        print(f"== {DESCRIPTION[name]}: {args.steps} SGD steps on {opweave.device(0)} "
              f"(vendor {opweave.report()['vendor']}), compared "
              f"{'per ATen call (autocompare build)' if args.path == 'build' else 'per op (OpAutoCompare)'}")
        r = run(name, args.path, args.steps, build_dir)
        print_verdicts("before: same-dtype compare only (reference none)", r["none"])
        print_verdicts("after:  float64 referee (reference float64)", r["float64"])
        g = r["gradients"]
        print(f"one step's gradients vs CPU float64 (max abs error / largest gradient): "
              f"device {g['device']:.2e}, CPU float32 {g['cpu_float32']:.2e}\n")
        results.append(r)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
