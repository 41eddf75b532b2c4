"""Adam / AdamW on the device: opweave.optim's fused step (aten::_fused_adam_,
opweave::fused_adamw_ -> diopiAdam / diopiAdamW) and torch's foreach=True form (the
catalogue's `foreach:` overloads), each against torch's CPU single-tensor update from the same
weights and gradients, with nothing falling back to the CPU.

Each vendor runs in a fresh interpreter (the vendor is chosen when libopweave loads). On sim
(hand-written kernels) the parameters must agree to 1e-6 relative after 10 steps; on aten_ref
(ATen's CPU kernels behind DIOPI) they must be bit-identical. "Relative" is per parameter
tensor: the largest difference over the tensor's largest magnitude.
"""

import json

import pytest

STEPS = 10

# Runs every configuration in one interpreter and prints one JSON line:
# {config: {"max_rel": float, "equal": bool, "fallbacks": {...}}}
SCRIPT = """
import json, torch, opweave

torch.manual_seed(0)
dev = opweave.device(0)
STEPS = {steps}

def make_params():
    g = torch.Generator().manual_seed(1)
    shapes = [(16, 8), (8,), (4, 3, 5), (), (33, 17)]
    params = [torch.randn(s, generator=g) for s in shapes]
    params.append(torch.randn(6, 5, generator=g).t())   # a non-contiguous parameter
    return params

def make_grads(params):
    g = torch.Generator().manual_seed(2)
    return [[torch.randn(p.shape, generator=g).as_strided(p.shape, p.stride())
             if p.dim() else torch.randn((), generator=g) for p in params]
            for _ in range(STEPS)]

def run(make_opt, device):
    params = [torch.nn.Parameter(p.clone().to(device)) for p in make_params()]
    grads = make_grads(params)
    opt = make_opt(params)
    for step in range(STEPS):
        for p, gr in zip(params, grads[step]):
            p.grad = gr.clone().to(device)
        opt.step()
    return [p.detach().cpu() for p in params], opt

def max_rel(a, b):
    # per parameter tensor: the largest difference relative to the tensor's largest value (an
    # element-wise ratio is meaningless for the values that an update carries across zero)
    return max(float((x.double() - y.double()).abs().max() / y.double().abs().max())
               for x, y in zip(a, b) if y.numel())

CONFIGS = {{
    "adam": (torch.optim.Adam, opweave.optim.Adam, dict(lr=1e-2, weight_decay=0.1)),
    "adam_amsgrad": (torch.optim.Adam, opweave.optim.Adam,
                     dict(lr=1e-2, weight_decay=0.1, amsgrad=True)),
    "adamw": (torch.optim.AdamW, opweave.optim.AdamW, dict(lr=1e-2, weight_decay=0.1)),
    "adamw_amsgrad": (torch.optim.AdamW, opweave.optim.AdamW,
                      dict(lr=1e-2, weight_decay=0.1, amsgrad=True, betas=(0.8, 0.99))),
    "adam_maximize": (torch.optim.Adam, opweave.optim.Adam,
                      dict(lr=1e-2, weight_decay=0.1, maximize=True)),
}}

out = {{}}
for name, (torch_cls, ours_cls, kw) in CONFIGS.items():
    ref, ref_opt = run(lambda ps: torch_cls(ps, foreach=False, **kw), "cpu")
    forms = {{"fused": lambda ps: ours_cls(ps, **kw),
              "foreach": lambda ps: torch_cls(ps, foreach=True, **kw)}}
    for form, make in forms.items():
        opweave.fallback_stats(reset=True)
        got, opt = run(make, dev)
        fallbacks = opweave.fallback_stats()
        out[name + "/" + form] = {{
            "max_rel": max_rel(got, ref),
            "equal": all(bool(torch.equal(x, y)) for x, y in zip(got, ref)),
            "fallbacks": fallbacks,
            "steps": sorted({{float(s["step"]) for s in opt.state.values()}}),
        }}
print(json.dumps(out))
"""


def _run(run_python, vendor):
    proc = run_python(SCRIPT.format(steps=STEPS), OPWEAVE_VENDOR=vendor)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return json.loads(proc.stdout.strip().splitlines()[-1])


def _check(results, exact):
    assert len(results) == 10
    for config, r in results.items():
        assert r["fallbacks"] == {}, (config, r["fallbacks"])
        assert r["steps"] == [float(STEPS)], (config, r["steps"])
        if exact:
            assert r["equal"], (config, r["max_rel"])
        else:
            assert r["max_rel"] <= 1e-6, (config, r["max_rel"])


def test_adam_and_adamw_fused_and_foreach_match_cpu_on_sim(run_python):
    _check(_run(run_python, "sim"), exact=False)


def test_adam_and_adamw_fused_and_foreach_are_bit_identical_to_cpu_on_aten_ref(run_python):
    _check(_run(run_python, "aten_ref"), exact=True)


# ---- in-process checks on the default vendor (sim) ------------------------------------------

torch = pytest.importorskip("torch")


def _one_step_state(opt_cls, device, **kw):
    p = torch.nn.Parameter(torch.arange(12, dtype=torch.float32).reshape(3, 4).to(device))
    opt = opt_cls([p], **kw)
    p.grad = torch.ones(3, 4, device=device)
    opt.step()
    return opt


def test_state_dict_has_torchs_layout_and_round_trips(dev0):
    import opweave
    ours = _one_step_state(opweave.optim.AdamW, dev0, amsgrad=True)
    theirs = _one_step_state(torch.optim.AdamW, "cpu", amsgrad=True)
    s_ours, s_theirs = ours.state_dict(), theirs.state_dict()
    assert s_ours["param_groups"][0].keys() == s_theirs["param_groups"][0].keys()
    st_ours, st_theirs = s_ours["state"][0], s_theirs["state"][0]
    assert st_ours.keys() == st_theirs.keys() == {"step", "exp_avg", "exp_avg_sq",
                                                   "max_exp_avg_sq"}
    assert st_ours["step"].device.type == "cpu" and st_ours["step"].dtype == torch.float32
    for k in st_ours:
        torch.testing.assert_close(st_ours[k].cpu(), st_theirs[k], rtol=1e-6, atol=1e-7)

    # resume: a fresh optimizer loading the state continues exactly like the original one
    p2 = torch.nn.Parameter(ours.param_groups[0]["params"][0].detach().clone())
    resumed = opweave.optim.AdamW([p2], amsgrad=True)
    # as from a checkpoint: torch 1.13 cannot deepcopy a privateuseone tensor, which
    # load_state_dict does; it moves the state to the parameter's device itself
    # (copies: .cpu() of the CPU step is the step tensor itself, and torch 2.x's
    # load_state_dict no longer deep-copies, so both optimizers would count on one tensor)
    on_host = {"state": {k: {n: t.cpu().clone() for n, t in st.items()} for k, st in s_ours["state"].items()},
               "param_groups": s_ours["param_groups"]}
    resumed.load_state_dict(on_host)
    assert resumed.state[p2]["exp_avg"].device == dev0
    assert resumed.state[p2]["step"].device.type == "cpu"
    for opt in (ours, resumed):
        q = opt.param_groups[0]["params"][0]
        q.grad = torch.full((3, 4), 0.5, device=dev0)
        opt.step()
    assert torch.equal(ours.param_groups[0]["params"][0].cpu(), p2.cpu())
    assert float(resumed.state[p2]["step"]) == 2.0


def test_fused_adam_refuses_grad_scale(dev0):
    p = torch.zeros(4, device=dev0)
    g = torch.ones(4, device=dev0)
    m, v = torch.zeros(4, device=dev0), torch.zeros(4, device=dev0)
    step = torch.tensor(1.)
    with pytest.raises(RuntimeError, match="grad_scale / found_inf .* not supported"):
        torch._fused_adam_([p], [g], [m], [v], [], [step], lr=1e-3, beta1=0.9, beta2=0.999,
                           weight_decay=0.0, eps=1e-8, amsgrad=False, maximize=False,
                           grad_scale=torch.ones((), device=dev0))


def test_fused_adam_reads_device_step_tensors(dev0):
    from torch.optim.adam import adam as torch_adam
    # torch's own layout for fused/capturable state: the step on the device
    p_dev = torch.linspace(-1, 1, 10, device=dev0)
    p_cpu = p_dev.cpu()
    g = torch.linspace(0.5, -0.3, 10)
    state = {d: [torch.zeros(10, device=d), torch.zeros(10, device=d)] for d in (dev0, "cpu")}
    for step in (1.0, 2.0):
        torch._fused_adam_([p_dev], [g.to(dev0)], [state[dev0][0]], [state[dev0][1]], [],
                           [torch.full((1,), step, device=dev0)], lr=1e-2, beta1=0.9,
                           beta2=0.999, weight_decay=0.0, eps=1e-8, amsgrad=False,
                           maximize=False)
        torch_adam([p_cpu], [g.clone()], [state["cpu"][0]], [state["cpu"][1]], [],
                              [torch.tensor(step - 1)], foreach=False, amsgrad=False, beta1=0.9,
                              beta2=0.999, lr=1e-2, weight_decay=0.0, eps=1e-8, maximize=False)
    torch.testing.assert_close(p_dev.cpu(), p_cpu, rtol=1e-6, atol=1e-7)


@pytest.mark.parametrize("name,op", [("Adam", "aten::_fused_adam_"),
                                     ("AdamW", "opweave::fused_adamw_")])
def test_the_step_is_one_fused_call_per_group_not_torchs_math(dev0, name, op):
    # The results cannot tell: torch's single-tensor update computes the same numbers. Once,
    # on torch 2.x, the device's renamed type sent every parameter there unnoticed.
    import opweave
    params = [torch.nn.Parameter(torch.randn(5, device=dev0)) for _ in range(3)]
    for p in params:
        p.grad = torch.randn(5, device=dev0)
    opt = getattr(opweave.optim, name)(params, lr=1e-2)
    with torch.autograd.profiler.profile() as prof:
        opt.step()
    names = [e.name for e in prof.function_events]
    assert names.count(op) == 1, names
    assert not {"aten::addcdiv_", "aten::lerp_", "aten::sqrt"} & set(names), names


def test_params_off_the_device_use_torchs_update():
    import opweave
    p = torch.nn.Parameter(torch.ones(5))
    q = torch.nn.Parameter(torch.ones(5))
    ours, theirs = opweave.optim.Adam([p], lr=0.1), torch.optim.Adam([q], lr=0.1)
    for opt, t in ((ours, p), (theirs, q)):
        t.grad = torch.arange(5.)
        opt.step()
    assert torch.equal(p, q)


def test_options_the_fused_form_lacks_are_refused():
    import opweave
    p = [torch.nn.Parameter(torch.ones(2))]
    with pytest.raises(ValueError, match="foreach"):
        opweave.optim.Adam(p, foreach=True)
    with pytest.raises(ValueError, match="capturable"):
        opweave.optim.AdamW(p, capturable=True)
