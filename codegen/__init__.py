"""OpWeave code generator: specs/ops.yaml -> DIOPI headers, ATen wrappers, DICP tables,
vendor stubs and conformance configs. Run as `python3 -m codegen`."""
