"""The OpWeave conformance suite: the catalogue's cases run against a vendor's DIOPI kernels.

    make golden                      # reference data (ATen on CPU) into golden/, incremental
    make conformance VENDOR=sim      # run every case at the C ABI; OP=regex DTYPE=float16
    make report                      # reports/support_matrix.{md,html}

or `python3 -m opweave.conformance {golden,run,replay,report,list} --help`.

Pieces: cases (generated/conformance/*.yaml, from codegen/emit_conformance.py), reference
(inputs + the bound ATen overload on CPU), tensorfile (safetensors-layout files, no pickle),
golden (one file per case), runner (device tensors, the kernel called through the resolved
slot table by runtime/conformance/diopi_call.cpp, comparison), expectations
(vendors/<name>/expectations.yaml), report (JSON/CSV per vendor, support matrix).
"""
