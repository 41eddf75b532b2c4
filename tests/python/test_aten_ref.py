"""The reference vendor aten_ref: ATen's CPU kernels behind the DIOPI ABI.

It must resolve every catalogue function, train the demo models bit-for-bit like
native CPU (same kernels) with nothing falling back, and match CPU on single ops with the
shapes the wrappers allocate. Each check runs in a fresh interpreter, since the vendor is
chosen once, when libopweave loads (OPWEAVE_VENDOR).
"""

import json
import pathlib
import re

import torch

REPO = pathlib.Path(__file__).resolve().parents[2]

TORCH2 = int(torch.__version__.split(".")[0]) >= 2


def _run_json(run_python, code: str) -> dict:
    proc = run_python(code, OPWEAVE_VENDOR="aten_ref")
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _not_generated() -> dict:
    """DIOPI function -> reason, from generated/aten_ref/coverage.md."""
    text = (REPO / "generated/aten_ref/coverage.md").read_text()
    return dict(re.findall(r"^\| `(\w+)` \| (.*) \|$", text, re.M))


def test_every_catalogue_function_resolves(run_python):
    report = _run_json(run_python, """
        import json, torch, opweave
        print(json.dumps(json.loads(torch.ops.opweave.report())))""")
    assert report["vendor"] == "aten_ref" and not report["load_error"]
    # generated ones plus the hand-written rest (coverage.md says which and why)
    assert report["diopi"]["missing"] == [], sorted(report["diopi"]["missing"])
    assert set(_not_generated()) <= set(report["diopi"]["resolved"])


def test_random_ops_replay_by_seed_on_the_device_generator(run_python):
    result = _run_json(run_python, """
        import json, torch, opweave
        d = opweave.device(0)
        def draw():
            opweave.manual_seed(7)
            return [torch.empty(64, device=d).uniform_().cpu(),
                    torch.empty(64, device=d).normal_().cpu(),
                    torch.randperm(16, device=d).cpu(),
                    torch.bernoulli(torch.full((64,), 0.5, device=d)).cpu(),
                    torch.empty(64, device=d).uniform_().cpu()]
        a, b = draw(), draw()
        print(json.dumps({"replay": all(bool(torch.equal(x, y)) for x, y in zip(a, b)),
                          "perm": sorted(a[2].tolist()) == list(range(16)),
                          "uniform_range": bool((a[0] >= 0).all() and (a[0] < 1).all()),
                          "draws_differ": not torch.equal(a[0], a[4])}))""")
    assert all(result.values()), result


def test_models_train_exactly_like_cpu_with_no_fallback(run_python):
    result = _run_json(run_python, """
        import json, opweave
        from opweave.demo import cnn, gpt, mlp
        out = {}
        dev, cpu, fb = gpt.compare(steps=4)
        out["gpt"] = [dev, cpu, fb]
        dev, cpu, fb, stats = cnn.compare(steps=4)
        out["cnn"] = [dev, cpu, fb]
        print(json.dumps(out))""")
    for name, (dev, cpu, fallbacks) in result.items():
        assert fallbacks == {}, name
        # the same CPU kernels on the same data: equal up to summation-order noise at most
        assert max(abs(a - b) / abs(b) for a, b in zip(dev, cpu)) <= 1e-6, name


def test_reductions_keep_the_shape_the_wrapper_allocated(run_python):
    # DIOPI leaves keepdim and dtype out (the output says them); the reference must read them
    # back from the output, or ATen resizes it with a warning and the shape goes wrong.
    result = _run_json(run_python, """
        import json, warnings, torch, opweave
        warnings.simplefilter("error")
        d = opweave.device(0)
        x = torch.randn(4, 10, 3, 3)
        checks = {
            "sum_keepdim": lambda t: t.sum(0, keepdim=True),
            "mean_keepdim": lambda t: t.mean((2, 3), keepdim=True),
            "sum_dtype": lambda t: t.sum(1, dtype=torch.float64),
            "max_dim": lambda t: t.max(1, keepdim=True)[0],
            "adaptive_pool": lambda t: torch.nn.functional.adaptive_avg_pool2d(t, 1),
            "conv": lambda t: torch.nn.functional.conv2d(t, torch.ones(2, 10, 3, 3).to(t.device)),
        }
        out = {}
        for name, f in checks.items():
            dev, cpu = f(x.to(d)).cpu(), f(x)
            out[name] = [list(dev.shape) == list(cpu.shape), str(dev.dtype) == str(cpu.dtype),
                         bool(torch.allclose(dev, cpu, atol=1e-5))]
        print(json.dumps(out))""")
    assert all(all(v) for v in result.values()), result


def test_views_of_many_geometries_stay_independent(run_python):
    # aten_ref views each handle as a CPU tensor kept from call to call, by geometry (dtype,
    # sizes, strides) in a set-associative table: a seen shape is found, a new one takes a free
    # view of another shape, and a kernel with more same-shaped tensors than the table holds
    # gets one-off views. Hundreds of random shapes, strides and dtypes, with six same-shaped
    # inputs to one kernel, must compute exactly what CPU computes.
    result = _run_json(run_python, """
        import json, torch, opweave
        d = opweave.device(0)
        g = torch.Generator().manual_seed(0)
        bad = []
        for i in range(300):
            shape = torch.randint(1, 5, (int(torch.randint(1, 5, (1,), generator=g)),),
                                  generator=g).tolist()
            dtype = [torch.float32, torch.float64, torch.int64][i % 3]
            a = (torch.randn(shape, generator=g) * 10).to(dtype)
            b = (torch.randn(shape, generator=g) * 10).to(dtype)
            if a.dim() > 1 and i % 2:
                a, b = a.transpose(0, -1), b.transpose(0, -1)   # strided inputs
            da, db = a.to(d), b.to(d)
            pairs = [(da + db, a + b), (torch.cat([da] * 6), torch.cat([a] * 6)),
                     (torch.stack([da, db, da, db, da, db]), torch.stack([a, b, a, b, a, b])),
                     (da.clone().mul_(3), a.clone().mul_(3))]
            for k, (dev, cpu) in enumerate(pairs):
                dev = dev.cpu()
                if dev.dtype != cpu.dtype or dev.shape != cpu.shape or not torch.equal(dev, cpu):
                    bad.append([i, k, shape, str(dtype)])
        print(json.dumps({"bad": bad[:5], "fallbacks": opweave.fallback_stats()}))""")
    assert result == {"bad": [], "fallbacks": {}}, result


def test_kernel_errors_become_python_exceptions(run_python):
    # an index out of range passes the wrapper's checks and fails inside ATen's CPU kernel:
    # the vendor returns a DIOPI error with ATen's message, the wrapper raises it
    result = _run_json(run_python, """
        import json, torch, opweave
        d = opweave.device(0)
        try:
            torch.gather(torch.ones(3, device=d), 0, torch.tensor([7], device=d))
            print(json.dumps({"raised": ""}))
        except RuntimeError as e:
            print(json.dumps({"raised": str(e)}))""")
    assert "diopiGather failed" in result["raised"], result
    assert "aten_ref: index 7 is out of bounds" in result["raised"], result


def test_dtypes_atens_cpu_lacks_fall_back_and_strided_outputs_are_written(run_python):
    # float16 exp has no ATen 1.13 CPU kernel: the vendor declines the dtype and the op runs
    # through the CPU fallback (upcast); torch 2.x's CPU has it, so there it runs on the
    # vendor with no fallback. softmax's CPU out= kernel assumes a contiguous output,
    # so a strided one goes through a temporary.
    result = _run_json(run_python, """
        import json, torch, opweave
        d = opweave.device(0)
        x = torch.randn(4, 6)
        opweave.fallback_stats(reset=True)
        half = torch.exp(x.half().to(d)).cpu()
        fallbacks = opweave.fallback_stats()
        out = torch.zeros(4, 12, device=d)
        torch.ops.aten._softmax.out(x.to(d), 1, False, out=out[:, ::2])
        print(json.dumps({
            "half_ok": bool(torch.allclose(half.float(), x.exp(), rtol=1e-2, atol=1e-3)),
            "half_fell_back": list(fallbacks),
            "strided_ok": bool(torch.allclose(out[:, ::2].cpu(), torch.softmax(x, 1), atol=1e-6)),
            "gaps_untouched": bool((out[:, 1::2].cpu() == 0).all())}))""")
    expected_fallbacks = [] if TORCH2 else ["aten::exp.out"]
    assert result["half_ok"] and result["half_fell_back"] == expected_fallbacks, result
    assert result["strided_ok"] and result["gaps_untouched"], result
