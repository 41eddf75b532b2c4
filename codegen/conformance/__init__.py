"""Conformance cases derived from the catalogue (codegen/emit_conformance.py renders them).

One job per module:
  plan.py            what a DIOPI function's cases are checked against (FnPlan)
  values.py          test values of non-tensor arguments (the generic per-name vocabulary
                     and the catalogue's `conformance.values`)
  case_builder.py    the case record a shape class adds, and its inputs' tensor specs
  shape_classes.py   output rule -> shape class (the registry); shapes_*.py the classes
  backward.py        a backward's cases from its forward's
  cases.py           a family's plans and cases, with stable content-hashed ids
  thunks.py          the runner's C call thunks and each function's signature record
The per-function facts (`conformance:` in specs/ops.yaml) are parsed in the load phase
(codegen/conformance_spec.py); nothing here reads YAML.
"""
