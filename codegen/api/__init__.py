"""The api layer: how model values are spelled in C++ (torchgen's model -> api -> dest split).

codegen/model.py says WHAT an op is; this package says how its pieces are written in the
generated C/C++ and YAML (DIOPI declarations, enum conversions, helper calls, torch-version-neutral
ATen spellings) for every emitter that needs them; the emitters (codegen/emit_*.py, the
dest layer) plan files and hand plans to templates.
"""
