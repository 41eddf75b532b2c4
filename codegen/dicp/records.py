"""The DICP record classes: runtime/python/opweave/dicp/records.py, the runtime's own module.

The generator and the runtime must agree on these records field for field (the generated
tables are constructor calls of them), so there is one module, and it lives in the runtime
package because the runtime ships without codegen. codegen cannot `import opweave.dicp.records`
the ordinary way: that runs opweave/__init__.py, which imports torch and loads the built
library, and `make gen` needs neither. So the file is loaded by path, once, and registered
under its real name `opweave.dicp.records`; a process that imports the runtime afterwards
(the tests do) then gets this very module, and records built here compare equal to the ones
a generated table builds. Only the standard library is imported by that file.
"""

from __future__ import annotations

import importlib.util
import os
import sys

from ..render import REPO_ROOT

NAME = "opweave.dicp.records"


def _path() -> str:
    """The checkout's file; for an installed codegen, the installed opweave's (found without
    importing opweave)."""
    path = os.path.join(REPO_ROOT, "runtime", "python", "opweave", "dicp", "records.py")
    if not os.path.isfile(path):
        spec = importlib.util.find_spec("opweave")
        if spec is not None and spec.submodule_search_locations:
            path = os.path.join(list(spec.submodule_search_locations)[0], "dicp", "records.py")
    return path


PATH = _path()


def _load():
    module = sys.modules.get(NAME)
    if module is None:
        spec = importlib.util.spec_from_file_location(NAME, PATH)
        module = importlib.util.module_from_spec(spec)
        sys.modules[NAME] = module
        spec.loader.exec_module(module)
    return module


_records = _load()
Attr = _records.Attr
Conversion = _records.Conversion
DiopiCall = _records.DiopiCall
MapSpec = _records.MapSpec
Port = _records.Port
Reference = _records.Reference
Rule = _records.Rule
Step = _records.Step
