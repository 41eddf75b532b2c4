"""Index of the installed torch's native_functions.yaml: schema strings by overload name.

Only the `- func:` lines are read (a regex scan, ~30 ms) instead of parsing the whole
12k-line YAML; schemas are parsed with torchgen lazily and only for ops the catalogue uses.
"""

from __future__ import annotations

import functools
import os
import re

from torchgen.model import FunctionSchema, SchemaKind

_FUNC_LINE = re.compile(r"^- func: ((\w+)(?:\.(\w+))?\(.*)$")
_STRUCTURED_LINE = re.compile(r"^  (structured: True|structured_delegate: )")
_DISPATCH_LINE = re.compile(r"^  dispatch:")
_IMPLICIT_KEY = re.compile(r"^    .*\bCompositeImplicitAutograd\b.*:")
_DISPATCH_KEYS = re.compile(r"^    ([\w, ]+):")
_CPU_KERNEL = re.compile(r"^    (?:[\w ]+, *)*CPU(?:, *[\w ]+)*: *(\w+)")
# torch 2.x registers device-generic kernels (the `_foreach_*` slow loops) under this key.
_EXPLICIT_KERNEL = re.compile(r"^    (?:[\w ]+, *)*CompositeExplicitAutograd(?:, *[\w ]+)*: *(\w+)")
_UFUNC_LINE = re.compile(r"^  ufunc_inner_loop:")  # ufunc codegen: CPU kernels generated
# Dispatch keys whose kernel also serves CPU tensors.
_CPU_SERVING_KEYS = {"CPU", "CompositeExplicitAutograd", "CompositeImplicitAutograd",
                     "CompositeExplicitAutogradNonFunctional"}


_SYMINT = re.compile(r"\bSymInt\b")
_INT_OPT = re.compile(r"\bint\?")
_NONE_DEFAULT = re.compile(r"=None\b")


def symint_neutral(text: str) -> str:
    """Schema text as compared across torch versions: 2.x widened many `int`s to `SymInt`,
    which OpWeave's generated C++ treats alike (kernels take plain integers)."""
    return _SYMINT.sub("int", text)


def native_functions_path() -> str:
    import torchgen

    return os.path.join(os.path.dirname(torchgen.__file__), "packaged", "ATen", "native",
                        "native_functions.yaml")


class AtenIndex:
    def __init__(self, path: str | None = None):
        self.path = path or native_functions_path()
        self._by_name: dict[str, str] = {}
        self._by_base: dict[str, list[str]] = {}
        self._structured: set[str] = set()  # part of a structured group (torchgen's flag)
        self._dispatched: set[str] = set()  # have a dispatch: section
        self._implicit_key: set[str] = set()  # name CompositeImplicitAutograd in it
        self._cpu_kernel: set[str] = set()  # a dispatch key that serves CPU tensors
        self._cpu_kernel_name: dict[str, str] = {}  # the `CPU:` entry's at::native function
        self._explicit_kernel_name: dict[str, str] = {}  # the CompositeExplicitAutograd entry's
        full = None
        with open(self.path, encoding="utf-8") as f:
            for line in f:
                m = _FUNC_LINE.match(line.rstrip("\n"))
                if not m:
                    if full and _STRUCTURED_LINE.match(line):
                        self._structured.add(full)
                    if full and _DISPATCH_LINE.match(line):
                        self._dispatched.add(full)
                    if full and _IMPLICIT_KEY.match(line):
                        self._implicit_key.add(full)
                    if full and _UFUNC_LINE.match(line):
                        self._cpu_kernel.add(full)
                    cpu = _CPU_KERNEL.match(line) if full else None
                    if cpu:
                        self._cpu_kernel_name[full] = cpu.group(1)
                    explicit = _EXPLICIT_KERNEL.match(line) if full else None
                    if explicit:
                        self._explicit_kernel_name[full] = explicit.group(1)
                    keys = _DISPATCH_KEYS.match(line) if full else None
                    if keys and _CPU_SERVING_KEYS & {k.strip() for k in keys.group(1).split(",")}:
                        self._cpu_kernel.add(full)
                    continue
                schema, name, overload = m.group(1), m.group(2), m.group(3)
                full = f"{name}.{overload}" if overload else name
                self._by_name[full] = schema
                base = name[:-1] if name.endswith("_") else name
                self._by_base.setdefault(base, []).append(full)

    def hiding(self, names) -> "AtenIndex":
        """This index without `names` (overloads newer than the oldest torch OpWeave supports:
        the catalogue's `aten_since`), so the generated tree is the same whichever torch runs
        the generator. Shares the scanned tables; the original is unchanged."""
        view = object.__new__(AtenIndex)
        view.__dict__.update(self.__dict__)
        view._by_name = {k: v for k, v in self._by_name.items() if k not in names}
        view._by_base = {k: [n for n in v if n not in names] for k, v in self._by_base.items()}
        return view

    def composite_also(self, names) -> "AtenIndex":
        """This index with `names` CompositeImplicitAutograd as well (the catalogue's
        `composite_until`: composite only on older torch), so the generated tree is the same
        whichever torch runs the generator."""
        view = object.__new__(AtenIndex)
        view.__dict__.update(self.__dict__)
        view._implicit_key = self._implicit_key | set(names)
        return view

    def widening(self, names) -> "AtenIndex":
        """This index with the `int?` arguments of `names` spelled `Scalar?` and without their
        `=None` defaults (the catalogue's `scalar_since`: torch 2.0 widened them and added the
        defaults), so schemas and the generated tree are the same whichever torch runs the
        generator. Wrappers never read defaults: the dispatcher fills them in."""
        view = object.__new__(AtenIndex)
        view.__dict__.update(self.__dict__)
        view._by_name = {k: _NONE_DEFAULT.sub("", _INT_OPT.sub("Scalar?", v)) if k in names
                         else v for k, v in self._by_name.items()}
        return view

    def names(self) -> list[str]:
        """Every overload name, for "did you mean" hints."""
        return list(self._by_name)

    def schema_text(self, overload_name: str) -> str | None:
        return self._by_name.get(overload_name)

    def structured(self, overload_name: str) -> bool:
        """True when the overload is part of a structured group: its C++ signature then
        takes tensor lists as `const at::ITensorListRef&` (torchgen's part_of_structured_group)."""
        return overload_name in self._structured

    def composite_implicit(self, overload_name: str) -> bool:
        """True for CompositeImplicitAutograd ops (no dispatch: section and not structured, or
        the key named in it): their autograd comes from decomposing, so a backend kernel
        registered for them needs an autograd-key kernel too (the dispatcher drops the math
        kernel from the backend's autograd key once the backend has its own)."""
        if overload_name in self._implicit_key:
            return True
        return overload_name not in self._dispatched and overload_name not in self._structured

    def has_cpu_kernel(self, overload_name: str) -> bool:
        """True when CPU tensors reach a real kernel: a CPU or composite dispatch entry, or
        no dispatch section at all (an implicit composite)."""
        return overload_name in self._cpu_kernel or overload_name not in self._dispatched

    def cpu_kernel_name(self, overload_name: str) -> str | None:
        """The at::native function the `dispatch:` section names for the CPU key (None when
        the overload has no `CPU:` entry)."""
        return self._cpu_kernel_name.get(overload_name)

    def host_kernel_name(self, overload_name: str) -> str | None:
        """The at::native function that serves CPU tensors: the `CPU:` entry (torch 1.13 lists
        the `_foreach_*` slow loops there), else the `CompositeExplicitAutograd:` one (2.x)."""
        return (self._cpu_kernel_name.get(overload_name)
                or self._explicit_kernel_name.get(overload_name))

    def composite(self, overload_name: str) -> bool:
        """True when one composite kernel (explicit or implicit) serves every backend: no
        `CPU:` entry, not structured. ATen's Scalar overloads of the binary ops are such
        kernels (mul.Scalar is mul.Tensor on the number wrapped in a 0-dim tensor); some moved
        from implicit to explicit between torch versions (bitwise_and_.Scalar in 2.x)."""
        return (overload_name in self._explicit_kernel_name or
                self.composite_implicit(overload_name)) and \
            overload_name not in self._cpu_kernel_name and overload_name not in self._structured

    def _parse(self, overload_name: str) -> FunctionSchema:
        return FunctionSchema.parse(self._by_name[overload_name])

    parse = functools.lru_cache(maxsize=None)(_parse)

    def siblings(self, schema: FunctionSchema) -> dict[SchemaKind, FunctionSchema]:
        """Functional / inplace / out variants sharing `schema`'s signature (torchgen's grouping)."""
        base = schema.name.name.base
        sig = symint_neutral(str(schema.signature()))
        found: dict[SchemaKind, FunctionSchema] = {}
        for name in self._by_base.get(base, []):
            other = self.parse(name)
            if symint_neutral(str(other.signature())) == sig and other.kind() not in found:
                found[other.kind()] = other
        return found


@functools.lru_cache(maxsize=1)
def default_index() -> AtenIndex:
    return AtenIndex()
