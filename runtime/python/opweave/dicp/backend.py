"""opweave.compile: capture, convert, lower and run a function or module in graph mode.

A compiled callable keeps a cache of artifacts keyed by what the graph depends on (tensor
dtypes, ranks, devices, requires_grad, non-tensor arguments, and the shapes — or, with
dynamic=True, the shapes with the batch dimension symbolic). A call whose key and shape
guard match an artifact is a cache hit; otherwise the function is traced, converted and
compiled again (a cache miss; recorded in .stats).
"""

from __future__ import annotations

import threading
import time
import warnings
from dataclasses import dataclass, field
from typing import Any, Callable, Optional

import torch
from torch.utils._pytree import tree_flatten, tree_unflatten

from . import capture, native
from .codegen_c import Sym
from .compiler import Executor, FitError, fit, post_convert
from .convert import convert
from .table import Table, load_table

SAMPLE_OFFSETS = (0, 2, 5)   # dynamic: traced at B, B+2, B+5 and fitted


class CompileError(RuntimeError):
    pass


@dataclass
class Artifact:
    training: bool
    placeholder_specs: list            # TensorSpec per flat input (Sym dims when dynamic)
    dynamic: bool
    out_spec: Any
    infer: Optional[Executor] = None
    forward: Optional[Executor] = None
    backward: Optional[Executor] = None
    n_saved: int = 0
    out_diff: list = field(default_factory=list)
    grad_pos: list = field(default_factory=list)
    eager: list = field(default_factory=list)
    passes: dict = field(default_factory=dict)
    meta: list = field(default_factory=list)     # (dtype, device, requires_grad) per input
    applied: set = field(default_factory=set)    # conversion entries used (table indices)
    single_output: bool = False
    plan: Optional[int] = None    # the helper's plan id when every graph is one native segment
    n_args: int = -1              # positional tensor arguments (tensors-only calls), else -1

    def hot_check(self, tensors: list, grad_enabled: bool) -> Optional[int]:
        """check() for the fast path, plus what the cache key says (all inputs tensors, the
        training flag) and contiguity (traced with contiguous stand-ins); s0 or None."""
        meta = self.meta
        if len(tensors) != len(meta):
            return None
        any_rg = False
        for t, (dtype, device, rg, shape) in zip(tensors, meta):
            if not isinstance(t, torch.Tensor) or t.dtype != dtype or t.device != device or \
                    not t.is_contiguous():
                return None
            if t.requires_grad:
                any_rg = True
            if (self.training and t.requires_grad != rg) or (shape is not None and
                                                             t.shape != shape):
                return None
        if (grad_enabled and any_rg) != self.training:
            return None
        return self.guard(tensors) if self.dynamic else 0

    def check(self, tensors: list) -> Optional[int]:
        """s0 when the inputs (dtype, device, requires_grad, shape) fit, else None."""
        if len(tensors) != len(self.meta):
            return None
        training = self.training
        for t, (dtype, device, rg, shape) in zip(tensors, self.meta):
            if t.dtype != dtype or t.device != device or (training and t.requires_grad != rg):
                return None
            if shape is not None and t.shape != shape:
                return None
        return self.guard(tensors) if self.dynamic else 0

    def guard(self, tensors: list) -> Optional[int]:
        """s0 when the inputs' shapes fit this artifact, else None."""
        s0 = None
        for t, spec in zip(tensors, self.placeholder_specs):
            if spec is None:
                continue
            if t.dim() != len(spec.shape):
                return None
            for d, want in zip(t.shape, spec.shape):
                if isinstance(want, Sym):
                    if s0 is None:
                        if (d - want.c) % want.a:
                            return None
                        s0 = (d - want.c) // want.a
                        if s0 < 2:   # 0 and 1 specialise (broadcasting), as torch does
                            return None
                    if want.eval(s0) != d:
                        return None
                elif want != d:
                    return None
        return s0 if s0 is not None else 0


class _CompiledAutograd(torch.autograd.Function):
    @staticmethod
    def forward(ctx, art: Artifact, s0: int, *primals):
        outs = art.forward.run(list(primals), s0)
        n_user = len(outs) - art.n_saved
        user, saved = outs[:n_user], outs[n_user:]
        ctx.art, ctx.s0, ctx.n_primals = art, s0, len(primals)
        ctx.save_for_backward(*saved)
        non_diff = [o for o, d in zip(user, art.out_diff) if not d]
        if non_diff:
            ctx.mark_non_differentiable(*non_diff)
        return tuple(user)

    @staticmethod
    def backward(ctx, *grads):
        art = ctx.art
        tangents = [g for g, d in zip(grads, art.out_diff) if d]
        tangents = [t.contiguous() if t is not None else t for t in tangents]
        result = art.backward.run(list(ctx.saved_tensors) + tangents, ctx.s0)
        full = [None] * ctx.n_primals
        for pos, g in zip(art.grad_pos, result):
            full[pos] = g
        return (None, None) + tuple(full)


class CompiledFunction:
    """What opweave.compile returns; call it like the original function or module."""

    def __init__(self, fn: Callable, backend: str = "sim", dynamic: bool = False, *,
                 mode: str = "native", strict: bool = False):
        self.fn = fn
        self.module = fn if isinstance(fn, torch.nn.Module) else None
        self.table: Table = load_table(backend)
        if mode not in ("native", "reference"):
            raise ValueError("mode must be 'native' (compiled C on the device) or 'reference' "
                             "(vendor ops' CPU references)")
        if mode == "native" and not self.table.executable:
            raise CompileError(f"vendor '{backend}' is not executable here (its table is "
                               "validated and tested with CPU references: mode='reference')")
        self.backend = backend
        self.dynamic = bool(dynamic)
        self.mode = mode
        self.strict = strict
        self.cache: dict = {}
        self.stats = {"compiles": 0, "cache_hits": 0, "traces": 0, "runs": 0, "segments": 0,
                      "c_compiles": 0, "disk_hits": 0, "dynamic_fallbacks": 0,
                      "compile_seconds": 0.0}
        self.last: Optional[Artifact] = None
        self._lock = threading.Lock()
        self._slots = None
        self._hot: Optional[Artifact] = None   # last artifact hit on the tensors-only path
        if self.module is not None:
            try:
                self.__wrapped__ = self.module.forward
            except AttributeError:
                pass

    # -- inputs ---------------------------------------------------------------------------
    def _state(self):
        """Parameters and buffers of the module (names, tensors), read through (submodule
        dict, name) pairs found once: the module's structure is fixed after the first call,
        its tensors may be reassigned."""
        if self.module is None:
            return [], []
        if self._slots is None:
            slots = []
            for prefix, sub in self.module.named_modules():
                for kind in ("_parameters", "_buffers"):
                    for name, v in getattr(sub, kind).items():
                        if v is not None:
                            slots.append((f"{prefix}.{name}" if prefix else name,
                                          getattr(sub, kind), name))
            self._slots = slots
        return [s[0] for s in self._slots], [d[name] for _, d, name in self._slots]

    def __call__(self, *args, **kwargs):
        return self._call(args, kwargs, False)

    def train_step(self, *args, **kwargs):
        """One training step as one compiled call: the forward graph, the backward graph seeded
        with d(loss)/d(loss) = 1, and every gradient accumulated into its parameter's (or
        leaf input's) .grad, as `loss = f(*args); loss.backward()` would leave them. Returns
        the loss, detached. The function must return one differentiable value.

        Unlike loss.backward(), the backward does not go through the autograd engine, whose
        device thread costs two thread hand-offs per step: with the whole step compiled
        (no eager nodes) it runs on the calling thread in one helper call. Tensor hooks
        (register_hook, retain_grad) are not run; use the autograd path for them. A graph
        with eager nodes takes the autograd path here too."""
        return self._call(args, kwargs, True)

    def _call(self, args, kwargs, step: bool):
        if self.module is None:
            state = []
        else:
            if self._slots is None:
                self._state()
            state = [d[name] for _, d, name in self._slots]
        hot = self._hot
        if hot is not None and not kwargs and len(args) == hot.n_args:
            # the artifact of the previous call, when it runs as one native plan: one pass
            # over the inputs checks what its cache key and guards would
            flat = state + list(args)
            s0 = hot.hot_check(flat, torch.is_grad_enabled())
            if s0 is not None:
                self.last = hot
                self.stats["cache_hits"] += 1
                self.stats["runs"] += 1
                if step:
                    return self._step_native(hot, s0, flat)
                outs = (_native_train if hot.training else _native_call)(hot.plan, s0, flat)
                if hot.single_output:
                    return outs[0]
                return tree_unflatten(list(outs), hot.out_spec)
        if not kwargs and all(isinstance(a, torch.Tensor) for a in args):
            flat = state + list(args)       # fast path: tensors only
            training = torch.is_grad_enabled() and any(t.requires_grad for t in flat)
            for art in self.cache.get((training, len(args), ()), ()):
                s0 = art.check(flat)
                if s0 is not None:
                    self.stats["cache_hits"] += 1
                    return self._run(art, s0, flat, training, step)
        return self._call_slow(state, args, kwargs, step)

    def _step_native(self, art, s0, tensors):
        if not art.training:
            raise RuntimeError("opweave.compile: train_step needs an input that requires grad, "
                               "with grad mode enabled")
        if not art.single_output:
            raise RuntimeError("opweave.compile: train_step needs a function that returns one "
                               "value (the loss)")
        return _native_step(art.plan, s0, tensors)[0]

    def _run(self, art, s0, tensors, training, step=False):
        self.last = art
        self.stats["runs"] += 1
        if art.plan is not None and art.n_args >= 0:
            self._hot = art
        if not all(t.is_contiguous() for t in tensors):
            # graphs are traced with contiguous stand-ins (views were recorded for them)
            tensors = [t if t.is_contiguous() else t.contiguous() for t in tensors]
        if step and art.plan is not None:
            return self._step_native(art, s0, tensors)
        if step:   # eager nodes: the autograd path, then the backward as train_step's own
            loss = self._run(art, s0, tensors, training)
            if not isinstance(loss, torch.Tensor) or not loss.requires_grad:
                raise RuntimeError("opweave.compile: train_step needs a function that returns "
                                   "one differentiable value (the loss), with grad enabled")
            loss.backward()
            return loss.detach()
        if art.plan is not None:   # one helper call (training: a C++ autograd function)
            outs = (_native_train if training else _native_call)(art.plan, s0, tensors)
        elif training:
            outs = _CompiledAutograd.apply(art, s0, *tensors)
        else:
            outs = art.infer.run(tensors, s0)
        if art.single_output:
            return outs[0]
        return tree_unflatten(list(outs), art.out_spec)

    def _call_slow(self, state, args, kwargs, step=False):
        names = [s[0] for s in self._slots] if self.module is not None else []
        leaves, in_spec = tree_flatten((args, kwargs))
        flat = state + list(leaves)
        training = torch.is_grad_enabled() and any(
            isinstance(x, torch.Tensor) and x.requires_grad for x in flat)
        consts = tuple((i, x) for i, x in enumerate(flat) if not isinstance(x, torch.Tensor))
        simple = not kwargs and not consts
        key = (training, len(args) if simple else str(in_spec), consts)
        tensors = [x for x in flat if isinstance(x, torch.Tensor)]
        with self._lock:
            candidates = self.cache.setdefault(key, [])
            for a in candidates:
                s0 = a.check(tensors)
                if s0 is not None:
                    self.stats["cache_hits"] += 1
                    return self._run(a, s0, tensors, training, step)
            n_state = len(state)
            dyn = batch_inputs(flat, n_state) if self.dynamic else (False,) * len(flat)
            start = time.perf_counter()
            try:
                art, s0 = self._compile(flat, names, n_state, in_spec, training, dyn)
            except (FitError, capture.CaptureError) as e:
                if not any(dyn):
                    raise
                # the batch guess was wrong (e.g. a weight whose first dim equals the
                # batch) or the graph is not affine in it: compile for these shapes
                warnings.warn(f"opweave.dicp: no symbolic batch for this call ({e}); "
                              "compiling for its static shapes")
                self.stats["dynamic_fallbacks"] += 1
                art, s0 = self._compile(flat, names, n_state, in_spec, training,
                                        (False,) * len(flat))
            self.stats["compile_seconds"] += time.perf_counter() - start
            self.stats["compiles"] += 1
            if simple and len(tensors) == len(flat) == n_state + len(args):
                art.n_args = len(args)     # tensors only, none nested: the hot path may take it
            candidates.append(art)
        return self._run(art, s0, tensors, training, step)

    # -- compilation ----------------------------------------------------------------------
    def _compile(self, flat, names, n_state, in_spec, training, dyn):
        batch = None
        if any(dyn):
            batch = next(x.shape[0] for x, d in zip(flat, dyn) if d)
            if batch < 2:
                dyn = tuple(False for _ in dyn)   # 0 and 1 specialise: a static graph
                self.stats["dynamic_fallbacks"] += 1
        samples = [batch + k for k in SAMPLE_OFFSETS] if any(dyn) else [None]
        kernels = native.resolved_kernels(self.table.graph_kernels) \
            if self.mode == "native" else None
        results = []
        for b in samples:
            sig = capture.Signature()
            flat_fn = capture.flat_function(self.fn, self.module, names, n_state, in_spec, sig)
            standins = [capture.standin(x, b if d else None, training and x.requires_grad)
                        if isinstance(x, torch.Tensor) else x for x, d in zip(flat, dyn)]
            tensor_pos = [i for i, x in enumerate(flat) if isinstance(x, torch.Tensor)]
            self.stats["traces"] += 1
            if training:
                jgm, n_primals, n_tangents, grad_pos = capture.trace_joint(
                    _tensor_only(flat_fn, flat, tensor_pos), [standins[i] for i in tensor_pos], sig)
                cgm, conv = convert(jgm, self.table, kernels=kernels, strict=self.strict)
                fw, bw, n_saved = capture.partition(cgm, n_primals, sig.out_count)
                passes = post_convert(fw, self.table)   # rewrites of both graphs, summed
                for name, n in post_convert(bw, self.table).items():
                    passes[name] = passes.get(name, 0) + n
                results.append(dict(fw=fw, bw=bw, n_saved=n_saved, sig=sig, grad_pos=grad_pos,
                                    eager=conv.eager, passes=passes, applied=conv.applied))
            else:
                gm = capture.trace(_tensor_only(flat_fn, flat, tensor_pos),
                                   [standins[i] for i in tensor_pos])
                cgm, conv = convert(gm, self.table, kernels=kernels, strict=self.strict)
                passes = post_convert(cgm, self.table)
                results.append(dict(gm=cgm, sig=sig, eager=conv.eager, passes=passes,
                                    applied=conv.applied))
        r0 = results[0]
        native_code = self.mode == "native"
        label = getattr(self.fn, "__name__", type(self.fn).__name__)
        try:
            if training:
                fw = fit([r["fw"] for r in results], samples) if len(results) > 1 else r0["fw"]
                bw = fit([r["bw"] for r in results], samples) if len(results) > 1 else r0["bw"]
            else:
                gm = fit([r["gm"] for r in results], samples) if len(results) > 1 else r0["gm"]
        except FitError as e:
            raise FitError(f"dynamic=True but {e}") from None
        sig = r0["sig"]
        if training:
            art = Artifact(True, [], any(dyn), sig.out_spec, n_saved=r0["n_saved"],
                           out_diff=sig.out_requires_grad, grad_pos=r0["grad_pos"],
                           eager=r0["eager"], passes=r0["passes"])
            art.forward = Executor(fw, self.table, native_code=native_code,
                                   label=f"{label} forward", stats=self.stats)
            art.backward = Executor(bw, self.table, native_code=native_code,
                                    label=f"{label} backward", stats=self.stats)
            ph = art.forward.placeholders
        else:
            art = Artifact(False, [], any(dyn), sig.out_spec, eager=r0["eager"],
                           passes=r0["passes"])
            art.infer = Executor(gm, self.table, native_code=native_code, label=label,
                                 stats=self.stats)
            ph = art.infer.placeholders
        art.applied = set(r0["applied"])
        art.placeholder_specs = [p.meta["spec"][0] for p in ph]
        tensors = [x for x in flat if isinstance(x, torch.Tensor)]
        art.meta = [(x.dtype, x.device, bool(x.requires_grad),
                     None if any(isinstance(d, Sym) for d in spec.shape) else x.shape)
                    for x, spec in zip(tensors, art.placeholder_specs)]
        art.single_output = sig.out_spec is not None and sig.out_spec.num_leaves == 1 and \
            not sig.out_spec.children_specs
        if native_code:
            art.plan = _make_plan(art, len(tensors))
        s0 = art.guard(tensors)
        if s0 is None:
            raise CompileError("opweave.dicp: internal error: the compiled graph does not accept "
                               "the inputs it was compiled for")
        return art, s0

    def describe(self) -> str:
        art = self.last
        if art is None:
            return "not compiled yet"
        parts = [e.describe() for e in (art.infer, art.forward, art.backward) if e is not None]
        return "\n".join(parts)


_native_call = _native_train = _native_step = None


def _make_plan(art: Artifact, n_primals: int) -> Optional[int]:
    """Registers the artifact's graphs with the helper as one plan (called with one op:
    no Python between the graphs and the kernels, and in training a C++ autograd function
    whose backward needs no GIL); None when a graph has eager nodes (Python runs it)."""
    global _native_call, _native_train, _native_step
    ops = native.load_helper()
    if _native_call is None:
        # the overloads' own callables: no OpOverloadPacket lookup per call
        _native_call = getattr(ops.call.default, "_op", ops.call.default)
        _native_train = getattr(ops.train.default, "_op", ops.train.default)
        _native_step = getattr(ops.step.default, "_op", ops.step.default)
    if art.training:
        f, b = art.forward.native_map(), art.backward.native_map()
        if f is None or b is None:
            return None
        n_user = len(art.forward.outputs) - art.n_saved
        return int(ops.plan(f[0], f[1], f[2], b[0], b[1], b[2], n_user,
                            [int(bool(d)) for d in art.out_diff], list(art.grad_pos), n_primals))
    f = art.infer.native_map()
    if f is None:
        return None
    return int(ops.plan(f[0], f[1], f[2], -1, [], [], len(art.infer.outputs), [], [],
                        n_primals))


def batch_inputs(flat, n_state) -> tuple:
    """Which inputs have a symbolic batch dimension (dim 0): the non-parameter tensors whose
    first dimension equals that of the first non-parameter input of rank >= 2 (else >= 1)."""
    user = [x for x in flat[n_state:] if isinstance(x, torch.Tensor) and x.dim() >= 1]
    if not user:
        return (False,) * len(flat)
    lead = next((x for x in user if x.dim() >= 2), user[0])
    batch = lead.shape[0]
    return tuple(i >= n_state and isinstance(x, torch.Tensor) and x.dim() >= 1 and
                 x.shape[0] == batch for i, x in enumerate(flat))


def _tensor_only(flat_fn, flat, tensor_pos):
    """flat_fn over tensor leaves only (non-tensor leaves are baked in as constants)."""
    def fn(*tensors):
        leaves = list(flat)
        for i, t in zip(tensor_pos, tensors):
            leaves[i] = t
        return flat_fn(*leaves)
    return fn


def compile(fn, backend: str = "sim", dynamic: bool = False, **options) -> CompiledFunction:
    """Graph mode: `opweave.compile(model_or_fn, backend="sim", dynamic=False)`.

    The first call traces the function to an ATen graph (forward and backward when an input
    requires grad), converts it with the vendor's generated table, fuses, infers shapes,
    generates C that calls the vendor's kernels in order and compiles it (cached on disk by
    hash). dynamic=True makes the batch dimension (dim 0 of every non-parameter tensor
    input) symbolic: one compilation serves every batch size >= 2. Options: mode='reference'
    (run the vendor ops' CPU references; any vendor), strict=True (fail on any ATen op the
    table does not convert instead of running it eagerly)."""
    return CompiledFunction(fn, backend, dynamic, **options)
