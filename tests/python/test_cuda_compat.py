"""`import opweave.cuda_compat`: CUDA-style training scripts (tests/data/cuda_scripts/) run
unchanged on the device, with every parameter and activation there, and give the losses the
same scripts give on the CPU (OPWEAVE_CUDA_COMPAT_TARGET=cpu). Needs torch 2.x (device
module, autocast for the device): skipped on 1.13 with that reason."""

import json
import pathlib

import pytest
import torch

from opweave.device_module import TORCH2
pytestmark = pytest.mark.skipif(not TORCH2, reason="needs torch 2.x: opweave.cuda_compat maps "
                                "CUDA onto the torch 2.x device module and autocast")

SCRIPTS = pathlib.Path(__file__).resolve().parents[1] / "data" / "cuda_scripts"

# The script runs as written; the only line added is the import. The harness audits where
# every module's parameters and outputs live (a forward hook on all modules) and collects the
# CPU fallbacks of the device run.
HARNESS = """
import contextlib, io, json, runpy, sys
import torch
import opweave.cuda_compat
import opweave

audit = {"tensors": 0, "elsewhere": []}

def check(module, inputs, output):
    outs = output if isinstance(output, (tuple, list)) else [output]
    for t in list(module.parameters(recurse=False)) + [o for o in outs if torch.is_tensor(o)]:
        audit["tensors"] += 1
        if t.device.type != opweave.cuda_compat.TARGET:
            audit["elsewhere"].append(f"{type(module).__name__}: {t.device}")

torch.nn.modules.module.register_module_forward_hook(check)
opweave.fallback_stats(reset=True)
out = io.StringIO()
with contextlib.redirect_stdout(out):
    runpy.run_path(sys.argv[1], run_name="__main__")
result = json.loads(out.getvalue().strip().splitlines()[-1])
result.update(audit=audit, fallbacks=opweave.fallback_stats(),
              replaced=opweave.cuda_compat.REPLACED)
print(json.dumps(result))
"""


def run_script(run_python, name: str, target: str | None = None) -> dict:
    code = HARNESS.replace("sys.argv[1]", repr(str(SCRIPTS / name)))
    env = {"OPWEAVE_CUDA_COMPAT_TARGET": target} if target else {}
    proc = run_python(code, **env)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def relative_differences(a, b):
    return [abs(x - y) / abs(y) for x, y in zip(a, b)]


@pytest.mark.parametrize("script,tolerance,again", [
    # float16 autocast: CUDA's op lists on the device, CPU autocast's own lists on the CPU;
    # 8 batches an epoch (step 8 sees step 0's batch again)
    ("mlp_amp.py", 5e-3, 8),
    # bfloat16 autocast; 4 batches in turn
    ("cnn_bf16.py", 2e-2, 4),
])
def test_cuda_script_runs_unchanged_on_the_device_like_on_cpu(run_python, script, tolerance,
                                                               again):
    dev = run_script(run_python, script)
    cpu = run_script(run_python, script, target="cpu")
    assert dev["audit"]["tensors"] > 0 and dev["audit"]["elsewhere"] == [], dev["audit"]
    assert cpu["audit"]["elsewhere"] == []
    assert len(dev["losses"]) == len(cpu["losses"]) > 0
    assert max(relative_differences(dev["losses"], cpu["losses"])) < tolerance, (dev, cpu)
    assert dev["losses"][again] < dev["losses"][0]   # the same batch, after training
    assert "torch.cuda.is_available" in dev["replaced"]


def test_mlp_script_pins_memory_and_keeps_device_statistics(run_python):
    dev = run_script(run_python, "mlp_amp.py")
    assert dev["pinned"] is True
    assert dev["max_memory_allocated"] > 0 and dev["ms"] >= 0.0


def test_nothing_changes_until_the_import(run_python):
    proc = run_python("""
        import torch, opweave
        print(torch.cuda.is_available())
        try:
            torch.zeros(1, device="cuda")
        except (RuntimeError, AssertionError) as e:
            print("refused")
        import opweave.cuda_compat as cc
        print(torch.cuda.is_available(), torch.zeros(1, device="cuda").device)
        cc.disable()
        print(torch.cuda.is_available(), cc.REPLACED)
    """)
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.split() == ["False", "refused", "True", "opweave:0", "False", "[]"]


def test_cuda_only_queries_fail_clearly_instead_of_pretending(run_python):
    proc = run_python("""
        import torch, opweave.cuda_compat
        try:
            torch.cuda.get_device_capability()
        except RuntimeError as e:
            print(e)
    """)
    assert "opweave.cuda_compat: torch.cuda.get_device_capability" in proc.stdout, proc.stderr


def test_compiled_step_does_not_recompile_with_the_layer_on(run_python):
    proc = run_python("""
        import torch, opweave.cuda_compat
        from opweave.dicp import dynamo
        compilations = []
        def backend(gm, inputs):
            compilations.append(1)
            return dynamo.sim_backend(gm, inputs)
        torch.manual_seed(0)
        model = torch.nn.Sequential(torch.nn.Linear(8, 16), torch.nn.ReLU(),
                                    torch.nn.Linear(16, 2)).cuda()
        step = torch.compile(model, backend=backend)
        opt = torch.optim.SGD(model.parameters(), lr=0.1)
        for _ in range(5):
            x = torch.randn(4, 8).cuda()
            loss = step(x).square().mean()
            opt.zero_grad(); loss.backward(); opt.step()
        print(len(compilations), x.is_cuda, str(x.device))
    """)
    assert proc.returncode == 0, proc.stderr[-3000:]
    assert proc.stdout.split() == ["1", "True", "opweave:0"]
