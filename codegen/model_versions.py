"""The catalogue's torch-version facts and foreach overloads (a part of the model builder).

`aten_since:`, `composite_until:` and `composite_since:` name ATen overloads whose existence or
kind depends on the torch version; one generated tree serves every torch, so each fact is
checked against the installed torch and turned into the set the generator treats uniformly.
"""

from __future__ import annotations

import re

from .errors import did_you_mean
from .model import ForeachOverload
from .torch_info import torch_version
from .yaml_loader import LineDict, LineList

# The oldest torch the generated tree serves (1.13); `aten_since` keys name newer versions.
OLDEST_TORCH = (1, 13)
_VERSION = re.compile(r"^(\d+)\.(\d+)$")
# ATen's CPU kernels for `_foreach_*` that only loop over per-tensor ATen ops (device-generic).
SLOW_KERNEL = re.compile(r"^foreach_tensor_\w+_slow_?$")



class VersionFacts:
    """Mixed into the model builder (build_model._Builder): reports through its `err`."""

    def build_aten_since(self, doc: LineDict) -> frozenset[str]:
        """`aten_since: {"2.0": [overload, ...]}`: ATen overloads that exist, or have a CPU kernel,
        only from that torch version on. The generator treats them as absent whichever torch
        runs it (so the tree is the same for every supported version), and checks the fact
        against the installed torch."""
        def usable(name: str) -> bool:
            return self.index.schema_text(name) is not None and self.index.has_cpu_kernel(name)
        return self.version_facts(doc, "aten_since", usable, "has no such overload with a CPU kernel",
                                  "already has it, with a CPU kernel")

    def build_composite_until(self, doc: LineDict) -> frozenset[str]:
        """`composite_until: {"2.0": [overload, ...]}`: overloads that are CompositeImplicitAutograd
        only before that torch version (bitwise_and.Scalar got its own kernel in 2.0). The
        generator treats them as composite whichever torch runs it; the generated C++ keeps
        their decomposition behind `__has_include`, so a newer torch builds without it."""
        def before(name: str) -> bool:   # the fact holds on torch older than the key
            return self.index.composite_implicit(name)
        return self.version_facts(doc, "composite_until", lambda n: not before(n),
                                  "still has it as CompositeImplicitAutograd",
                                  "has it with its own kernels, not CompositeImplicitAutograd")

    def build_composite_since(self, doc: LineDict) -> frozenset[str]:
        """`composite_since: {"2.0": [overload, ...]}`: the converse of composite_until, overloads
        that became CompositeImplicitAutograd in that version (diag in 2.0); treated and
        guarded the same way."""
        return self.version_facts(doc, "composite_since", self.index.composite_implicit,
                                  "does not have it as CompositeImplicitAutograd",
                                  "already has it as CompositeImplicitAutograd")

    def build_scalar_since(self, doc: LineDict) -> frozenset[str]:
        """`scalar_since: {"2.0": [overload, ...]}`: overloads whose `int?` arguments became
        `Scalar?` in that version (var / std's `correction`). The generator reads them with the
        newer type whichever torch runs it; the wrappers take such an argument as the installed
        torch's type (opweave::compat::IntOrScalar) and pass it on as a Scalar."""
        def widened(name: str) -> bool:
            text = self.index.schema_text(name)
            return text is not None and "Scalar?" in text and "int?" not in text
        return self.version_facts(doc, "scalar_since", widened,
                                  "has no such overload with a Scalar? argument",
                                  "already has its int? arguments as Scalar?")

    def version_facts(self, doc: LineDict, key: str, holds_from, missing: str,
                      early: str) -> frozenset[str]:
        """A top-level `{version: [overload, ...]}` fact about torch versions newer than the
        oldest supported one. `holds_from(name)` tells whether the installed torch shows the
        newer behaviour; a fact the installed torch contradicts is an error (`missing` when
        it should show it and does not, `early` when it shows it before the version)."""
        raw = doc.get(key)
        if raw is None:
            return frozenset()
        if not isinstance(raw, LineDict):
            self.err(doc.line_of(key), None,
                     f"'{key}' must map a torch version (\"2.0\") to ATen overload names")
            return frozenset()
        installed = _VERSION.match(".".join(torch_version().split(".")[:2]))
        have = (int(installed.group(1)), int(installed.group(2))) if installed else None
        names_out: set[str] = set()
        for version, names in raw.items():
            line = raw.line_of(version)
            m = _VERSION.match(str(version))
            if not m:
                self.err(line, None, f"'{key}' keys are torch versions like \"2.0\", "
                                     f"got {version!r}")
                continue
            since = (int(m.group(1)), int(m.group(2)))
            if since <= OLDEST_TORCH:
                self.err(line, None, f"'{key}' version {version} is not newer than the "
                                     f"oldest supported torch ({OLDEST_TORCH[0]}.{OLDEST_TORCH[1]})")
                continue
            if not isinstance(names, LineList) or not all(isinstance(n, str) for n in names):
                self.err(line, None, f"'{key}' {version}: a list of ATen overload names")
                continue
            for i, name in enumerate(names):
                holds = holds_from(name)
                if have is not None and have >= since and not holds:
                    self.err(names.line_of(i), name, f"listed under {key} {version} but "
                                                     f"torch {torch_version()} {missing}")
                elif have is not None and have < since and holds:
                    self.err(names.line_of(i), name, f"listed under {key} {version} but "
                                                     f"torch {torch_version()} {early}")
                names_out.add(name)
        return frozenset(names_out)

    def build_foreach(self, doc: LineDict, families) -> tuple[ForeachOverload, ...]:
        """The `foreach:` list: ATen `_foreach_*` overloads whose CPU kernel is one of ATen's
        device-generic slow loops, registered as is for PrivateUse1."""
        raw = doc.get("foreach")
        if raw is None:
            return ()
        if not isinstance(raw, LineList):
            self.err(doc.line_of("foreach"), None, "'foreach' must be a list of ATen overload names")
            return ()
        routed = {b.overload_name: fn.name for fam in families for fn in fam.functions
                  for b in fn.bindings}
        routed.update(self.claimed)
        out, seen = [], {}
        for i, name in enumerate(raw):
            line = raw.line_of(i)
            if not isinstance(name, str):
                self.err(line, None, f"'foreach' entries are ATen overload names, got {name!r}")
                continue
            if name in seen:
                self.err(line, name, f"listed twice in 'foreach' (first at line {seen[name]})")
                continue
            seen[name] = line
            if self.index.schema_text(name) is None:
                hint = did_you_mean(name, self.index.names())
                self.err(line, name, f"ATen overload '{name}' does not exist in torch "
                                     f"{torch_version()}'s native_functions.yaml{hint}")
                continue
            if name in routed:
                self.err(line, name, f"ATen overload '{name}' is already routed to "
                                     f"{routed[name]}")
                continue
            kernel = self.index.host_kernel_name(name)
            if kernel is None:
                self.err(line, name, "has no 'CPU:' or 'CompositeExplicitAutograd:' kernel in "
                                     "native_functions.yaml to reuse")
                continue
            if not SLOW_KERNEL.match(kernel):
                self.err(line, name, f"its CPU kernel '{kernel}' is not one of ATen's "
                                     "device-generic foreach_tensor_*_slow loops")
                continue
            out.append(ForeachOverload(name, kernel, line))
        return tuple(out)
