"""A backward function's cases, derived from its forward's (so the backward sees the data
it would see in training)."""

from __future__ import annotations

from .case_builder import CaseBuilder
from .plan import FnPlan
from .values import attr_values


def _from_forward(what: str, of: str, fc: dict):
    """The value `conformance.from_forward` gives a backward argument in forward case `fc`."""
    if what == "channels":   # [out channels] when the forward had a bias
        has_bias = fc["inputs"].get("bias") is not None
        return [fc["inputs"][of]["shape"][0]] if has_bias else None
    if what == "attr":
        return fc["attrs"][of]
    shape = fc["inputs"][of]["shape"]
    return list(shape) if what == "shape" else shape[0]


def backward_cases(p: FnPlan, fwd: FnPlan, fwd_cases: list[dict]) -> list[dict]:
    """Cases of a Backward function from those of its forward: `output` is the forward's
    result, `grad_output` (or `grad`) has its shape, the arguments both share take the
    forward's values, and other tensors take the forward's further outputs in order (layer
    norm's saved mean and 1/std), so the backward sees the data it would see in training."""
    fwd_inputs = {a.name for a in fwd.inputs}
    fwd_attrs = {a.name for a in fwd.attrs}
    fwd_out = fwd.outputs[0].name
    extra_outs = [a.name for a in fwd.outputs[1:] if a.direction == "out"]
    unmatched = [a.name for a in p.inputs if a.name not in ("grad_output", "grad", "output")
                 and a.name not in fwd_inputs]
    if len(unmatched) > len(extra_outs):
        raise p.err(f"backward input(s) {', '.join(unmatched)} have no counterpart in "
                    f"{fwd.fn.name}")
    from_extra = dict(zip(unmatched, extra_outs))
    from_forward = dict(p.fn.conformance.from_forward)
    cases = []
    for fc in fwd_cases:
        layout = next((t.get("layout") for t in fc["inputs"].values()
                       if t is not None and t.get("layout")), "contiguous")
        inputs = {}
        for a in p.inputs:
            if a.name in ("grad_output", "grad"):
                spec = {"like": fwd_out, "values": "normal"}
            elif a.name == "output":
                spec = {"from": fwd_out}
            elif a.name in from_extra:
                spec = {"from": from_extra[a.name]}
            else:
                if fc["inputs"][a.name] is None:
                    inputs[a.name] = None
                    continue
                spec = {"from": a.name}
            if layout != "contiguous":
                spec["layout"] = layout
            inputs[a.name] = spec
        attrs = {}
        for a in p.attrs:
            if a.name in p.constants:
                attrs[a.name] = p.constants[a.name]
            elif a.name in fwd_attrs:
                attrs[a.name] = fc["attrs"][a.name]
            elif a.name in from_forward:
                attrs[a.name] = _from_forward(*from_forward[a.name], fc)
            else:
                attrs[a.name] = attr_values(p, a, fc["dtype"])[0]
        builder = CaseBuilder(p, fc["dtype"])
        given = {}
        mask_arg = getattr(p.binding, "output_mask", "")
        if mask_arg:   # compute only the gradients whose tensor exists (no weight: no grad_weight)
            returns = sorted((src.index, name) for name, src in p.binding.sources
                             if src.kind == "return")
            mask = []
            for _, name in returns:
                rule = p.rules.get(name)
                arg = rule.args[0] if rule is not None and rule.rule == "like" else None
                diopi = next((d for d, at in p.diopi_to_aten.items() if at == arg), None)
                # grad_bias of a forward without bias is not wanted either
                of = name[len("grad_"):] if name.startswith("grad_") else ""
                absent = (diopi in inputs and inputs[diopi] is None) or (
                    of in fc["inputs"] and fc["inputs"][of] is None)
                mask.append(not absent)
            given[mask_arg] = mask
        aten = builder.aten_only(**given)
        forward = {"fn": fwd.fn.name, "inputs": fc["inputs"], "attrs": fc["attrs"]}
        if fc.get("aten"):
            forward["aten"] = fc["aten"]
        case = {"dtype": fc["dtype"], "tag": fc["tag"], "inputs": inputs, "attrs": attrs}
        if aten:
            case["aten"] = aten
        if fc.get("out_layout"):
            case["out_layout"] = fc["out_layout"]
        case["forward"] = forward
        cases.append(case)
    return cases
