"""What the op tools share: the TorchFunctionMode they install while started, op names and
include/exclude filters, and walking the arguments of a call.

A tool is a `torch.overrides.TorchFunctionMode`. While it is started it sits on torch's
mode stack and sees every torch-function-level call (`torch.nn.functional.linear`,
`torch.Tensor.add_`, `torch.mm`, ...); when it is stopped it is off the stack and torch
runs exactly as if the tool did not exist (no hook, no flag, no patched function).

Granularity: the outermost call is one op (`F.cross_entropy` is one op, not log_softmax +
nll_loss): torch takes the mode off its stack while the mode handles a call, and torch's
Python functions re-dispatch to the mode at their entry, so the calls made inside a torch
function are not seen separately (select `cross_entropy`, not `nll_loss`). The conformance
bridge goes below this level: it records the ATen calls of each captured op.
"""

from __future__ import annotations

import os
import re

import torch
from torch.overrides import TorchFunctionMode, resolve_name

from torch.overrides import _get_current_function_mode


def _push_mode(mode) -> None:
    TorchFunctionMode.__enter__(mode)     # torch 1.13: push on the mode stack


def _pop_mode(mode) -> None:
    TorchFunctionMode.__exit__(mode, None, None, None)


from .. import DEVICE as DEVICE_TYPE  # noqa: E402  ("opweave" on torch 2.x, "privateuseone" on 1.13)

# Device types a capture may record for this device (one made on the other torch version).
RECORDED_DEVICE_TYPES = frozenset({DEVICE_TYPE, "privateuseone"})

# Calls that are not computations: metadata, conversions to Python, autograd plumbing, host
# copies. Never an op for any tool (matched against the last component of the name).
NOT_OPS = frozenset("""
    size dim ndimension stride numel nelement element_size is_contiguous is_floating_point
    is_complex is_signed data_ptr storage storage_offset untyped_storage _storage is_shared
    share_memory_ pin_memory is_pinned _is_view get_device type __len__ __repr__ __format__
    __str__ __hash__ __bool__ __int__ __float__ __index__ __complex__ __nonzero__ __reduce_ex__
    __reduce__ __deepcopy__ __setstate__ __getstate__ __array__ __array_wrap__ __contains__
    __dir__ __iter__ __reversed__ tolist item numpy backward register_hook retain_grad
    requires_grad_ detach detach_ cpu cuda to __torch_function__ _make_subclass
    _fix_weakref dim_order has_names refine_names rename rename_ align_to
    _has_compatible_shallow_copy_type is_same_size is_set_to _version _nnz is_coalesced
    is_inference is_neg is_conj resolve_conj resolve_neg
""".split())

# Results with no defined content: comparing or replaying them is meaningless.
UNINITIALISED = frozenset("""
    empty empty_like new_empty new_empty_strided empty_strided resize_ resize_as_ set_
""".split())

# Random ops: a device result can never match a CPU one.
RANDOM = frozenset("""
    dropout dropout_ dropout1d dropout2d dropout3d alpha_dropout feature_alpha_dropout rrelu
    rrelu_ bernoulli bernoulli_ multinomial normal normal_ uniform_ random_ exponential_
    geometric_ log_normal_ cauchy_ rand_like randn_like randint_like randperm poisson
""".split())

# Ops whose result shares memory with an input: a copy on CPU would break the aliasing.
VIEWS = frozenset("""
    view view_as reshape reshape_as t T mT t_ transpose transpose_ permute expand expand_as
    narrow select squeeze squeeze_ unsqueeze unsqueeze_ __getitem__ unbind split split_with_sizes
    chunk tensor_split as_strided diagonal unfold movedim moveaxis flatten unflatten real imag
    view_as_real view_as_complex alias swapaxes swapdims contiguous
""".split())

INPLACE_DUNDERS = frozenset("""
    __iadd__ __isub__ __imul__ __itruediv__ __ifloordiv__ __imod__ __ipow__ __iand__ __ior__
    __ixor__ __ilshift__ __irshift__ __imatmul__ __setitem__
""".split())


def op_name(func) -> str:
    """`torch.nn.functional.linear`, `torch.Tensor.add_`, `torch.mm`, ..."""
    name = None
    try:
        name = resolve_name(func)
    except Exception:  # noqa: BLE001 - resolve_name walks torch's tables; never fatal
        name = None
    if not name:
        module = getattr(func, "__module__", None) or "?"
        name = f"{module}.{getattr(func, '__qualname__', getattr(func, '__name__', repr(func)))}"
        return name
    # torch's table knows some functions by an alias (torch.mm as torch.spmm): prefer the
    # function's own name where the same object is reachable under it
    own = getattr(func, "__name__", None)
    if own and own != short_name(name) and own.isidentifier():
        prefix = name.rsplit(".", 1)[0]
        obj = torch
        for part in prefix.split(".")[1:] + [own]:
            obj = getattr(obj, part, None)
            if obj is None:
                break
        if obj is func:
            name = f"{prefix}.{own}"
    return name


def short_name(name: str) -> str:
    return name.rsplit(".", 1)[-1]


def is_mutating(name: str, kwargs: dict) -> bool:
    """True for in-place and out= calls: `add_`, `__iadd__`, `__setitem__`, `out=`, `inplace=True`."""
    short = short_name(name)
    if short in INPLACE_DUNDERS:
        return True
    if short.endswith("_") and not short.startswith("__"):
        return True
    return kwargs.get("out") is not None or kwargs.get("inplace") is True


def _split(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        value = value.split(",")
    return [v.strip() for v in value if v and v.strip()]


class OpFilter:
    """Selects op names. A pattern matches a name when it equals the full name (`torch.mm`),
    its last component (`mm`), a dotted suffix (`functional.linear`), or fully matches
    either as a regular expression (`.*softmax`, `torch\\.Tensor\\..*_`). An empty include
    list selects everything; exclude wins over include."""

    def __init__(self, include=None, exclude=None):
        self.include = _split(include)
        self.exclude = _split(exclude)
        self._inc = [self._compile(p) for p in self.include]
        self._exc = [self._compile(p) for p in self.exclude]

    @staticmethod
    def _compile(pattern: str):
        try:
            rx = re.compile(pattern)
        except re.error:
            rx = re.compile(re.escape(pattern))
        return pattern, rx

    @staticmethod
    def _hit(compiled, name: str, short: str) -> bool:
        pattern, rx = compiled
        return (pattern == name or pattern == short or name.endswith("." + pattern)
                or rx.fullmatch(name) is not None or rx.fullmatch(short) is not None)

    def __call__(self, name: str) -> bool:
        short = short_name(name)
        if self._inc and not any(self._hit(c, name, short) for c in self._inc):
            return False
        return not any(self._hit(c, name, short) for c in self._exc)

    def __repr__(self) -> str:
        return f"OpFilter(include={self.include}, exclude={self.exclude})"


def env_list(tool: str, what: str):
    """OPWEAVE_TOOLS_<TOOL>_<WHAT>, else OPWEAVE_TOOLS_<WHAT> (None when neither is set)."""
    for key in (f"OPWEAVE_TOOLS_{tool}_{what}", f"OPWEAVE_TOOLS_{what}"):
        value = os.environ.get(key)
        if value is not None:
            return value
    return None


# ---- walking arguments ----------------------------------------------------------------------

def flatten_tensors(obj, out: list | None = None) -> list[torch.Tensor]:
    """Tensors in `obj` (nested tuples, lists, dicts), in a stable order."""
    if out is None:
        out = []
    if isinstance(obj, torch.Tensor):
        out.append(obj)
    elif isinstance(obj, (list, tuple)):
        for item in obj:
            flatten_tensors(item, out)
    elif isinstance(obj, dict):
        for key in obj:
            flatten_tensors(obj[key], out)
    return out


def map_tensors(obj, fn):
    """`obj` with every tensor t replaced by fn(t); containers rebuilt (named tuples and
    torch.return_types kept)."""
    if isinstance(obj, torch.Tensor):
        return fn(obj)
    if isinstance(obj, list):
        return [map_tensors(v, fn) for v in obj]
    if isinstance(obj, tuple):
        items = [map_tensors(v, fn) for v in obj]
        if type(obj) is tuple:
            return tuple(items)
        if hasattr(obj, "_fields"):            # collections.namedtuple
            return type(obj)(*items)
        try:                                    # torch.return_types structseq, torch.Size
            return type(obj)(items)
        except TypeError:
            return tuple(items)
    if isinstance(obj, dict):
        return {k: map_tensors(v, fn) for k, v in obj.items()}
    return obj


def map_values(obj, fn):
    """Like map_tensors, but fn sees every leaf (tensors, devices, scalars, ...)."""
    if isinstance(obj, (list, tuple)) and not isinstance(obj, torch.Size):
        items = [map_values(v, fn) for v in obj]
        if isinstance(obj, list):
            return items
        if type(obj) is tuple:
            return tuple(items)
        if hasattr(obj, "_fields"):
            return type(obj)(*items)
        try:
            return type(obj)(items)
        except TypeError:
            return tuple(items)
    if isinstance(obj, dict):
        return {k: map_values(v, fn) for k, v in obj.items()}
    return fn(obj)


def first_device_tensor(args, kwargs) -> torch.Tensor | None:
    for t in flatten_tensors((args, kwargs)):
        if t.device.type == DEVICE_TYPE:
            return t
    return None


def to_cpu_device(value):
    """A device argument (`device=`, `.to(dev)`) pointing at the accelerator, moved to CPU."""
    if isinstance(value, torch.device) and value.type == DEVICE_TYPE:
        return torch.device("cpu")
    if isinstance(value, str) and value.split(":")[0] in RECORDED_DEVICE_TYPES:
        return "cpu"
    return value


def sync(device: torch.device | None) -> None:
    import opweave
    opweave.synchronize(device.index if device is not None and device.index is not None else None)


class OpTool(TorchFunctionMode):
    """Base of the op tools: `with tool:` or `tool.start()` ... `tool.stop()`.

    Subclasses set TOOL (the environment prefix: OPWEAVE_TOOLS_<TOOL>_INCLUDE/_EXCLUDE) and
    DEFAULT_EXCLUDE (names never selected unless included explicitly), and implement
    `_op(func, name, args, kwargs, device)`."""

    TOOL = "OP"
    DEFAULT_EXCLUDE: frozenset = frozenset()   # not selected unless included by name
    NEVER: frozenset = frozenset()             # not selected, whatever the include list

    def __init__(self, include=None, exclude=None):
        super().__init__()
        inc = include if include is not None else env_list(self.TOOL, "INCLUDE")
        exc = exclude if exclude is not None else env_list(self.TOOL, "EXCLUDE")
        self.filter = OpFilter(inc, exc)
        self._explicit = set(self.filter.include)
        self._decisions: dict = {}
        self._busy = False
        self._active = False

    # ---- life cycle ----
    def start(self):
        """Install the tool (push its mode on torch's stack on the calling thread)."""
        if not self._active:
            self._on_start()
            _push_mode(self)
            self._active = True
        return self

    def stop(self):
        """Remove the tool; the mode stack is as it was before start()."""
        if not self._active:
            return self
        if _get_current_function_mode() is not self:
            raise RuntimeError(f"{type(self).__name__}.stop(): another torch function mode was "
                               "started after this tool and is still active; stop tools in the "
                               "reverse order of starting them")
        _pop_mode(self)
        self._active = False
        self._on_stop()
        return self

    @property
    def active(self) -> bool:
        return self._active

    def __enter__(self):
        return self.start()

    def __exit__(self, exc_type, exc, tb):
        self.stop()
        return False

    def _on_start(self) -> None:
        pass

    def _on_stop(self) -> None:
        pass

    # ---- selection ----
    def _decide(self, func):
        name = op_name(func)
        short = short_name(name)
        if (name.endswith((".__get__", ".__set__", ".__delete__")) or short in NOT_OPS
                or short in self.NEVER):
            selected = False
        elif short in self.DEFAULT_EXCLUDE and not any(
                p in (name, short) for p in self._explicit):
            selected = False
        else:
            selected = self.filter(name)
        decision = (name, selected)
        try:
            self._decisions[func] = decision
        except TypeError:  # unhashable callable
            pass
        return decision

    def selects(self, name: str) -> bool:
        """Whether a call named `name` would be handled by this tool."""
        short = short_name(name)
        if short in NOT_OPS or short in self.NEVER:
            return False
        if short in self.DEFAULT_EXCLUDE and not any(p in (name, short) for p in self._explicit):
            return False
        return self.filter(name)

    def __torch_function__(self, func, types_, args=(), kwargs=None):
        if kwargs is None:
            kwargs = {}
        if self._busy:
            return func(*args, **kwargs)
        try:
            decision = self._decisions.get(func) or self._decide(func)
        except TypeError:
            decision = self._decide(func)
        if decision[1]:
            dev = first_device_tensor(args, kwargs)
            if dev is not None:
                return self._op(func, decision[0], args, kwargs, dev.device)
        return func(*args, **kwargs)

    def _op(self, func, name, args, kwargs, device):
        return func(*args, **kwargs)

    class _Busy:
        def __init__(self, tool):
            self.tool = tool
            self.before = False

        def __enter__(self):
            self.before = self.tool._busy
            self.tool._busy = True

        def __exit__(self, *exc):
            self.tool._busy = self.before
            return False

    def busy(self):
        """Context: calls arriving at this tool meanwhile (its own work, done from autograd
        hooks while the tool is installed) pass straight through."""
        return OpTool._Busy(self)
