"""The OpInfo runner skips an op where PyTorch's own entry expects the test a mode stands in
for to fail on every device, and only there (opweave/opinfo/declared.py)."""

import unittest
from types import SimpleNamespace

import torch

from opweave.opinfo import database
from opweave.opinfo.declared import declared_failure

database._expecttest_stand_in()
from torch.testing._internal.opinfo.core import DecorateInfo  # noqa: E402


def op(*infos):
    return SimpleNamespace(decorators=infos)


XFAIL_NONCONTIG = DecorateInfo(unittest.expectedFailure, "TestCommon", "test_noncontiguous_samples")


def test_an_expected_failure_of_the_emulated_test_skips_the_op():
    why = declared_failure(op(XFAIL_NONCONTIG), "noncontig", torch.float32, "privateuseone")
    assert why and "test_noncontiguous_samples" in why
    assert declared_failure(op(XFAIL_NONCONTIG), "forward", torch.float32, "privateuseone") is None


def test_skips_device_specific_entries_and_other_dtypes_do_not_count():
    skip = DecorateInfo(unittest.skip("takes long"), "TestCommon", "test_noncontiguous_samples")
    cuda = DecorateInfo(unittest.expectedFailure, "TestCommon", "test_noncontiguous_samples",
                        device_type="cuda")
    blanket = DecorateInfo(unittest.expectedFailure)
    fp64 = DecorateInfo(unittest.expectedFailure, "TestCommon", "test_noncontiguous_samples",
                        dtypes=(torch.float64,))
    for info in (skip, cuda, blanket, fp64):
        assert declared_failure(op(info), "noncontig", torch.float32, "privateuseone") is None


def test_grad_mode_stands_in_for_both_gradient_test_names_and_the_cpu_comparison():
    # torch 1.13 names the gradient test TestGradients, 2.x TestBwdGradients; gradients are
    # compared with the CPU's, so a declared failing CPU comparison skips the op there too.
    for cls in ("TestGradients", "TestBwdGradients"):
        info = DecorateInfo(unittest.expectedFailure, cls, "test_fn_grad")
        assert "test_fn_grad" in declared_failure(op(info), "grad", torch.float32, "privateuseone")
    compare = DecorateInfo(unittest.expectedFailure, "TestCommon", "test_compare_cpu")
    assert "test_compare_cpu" in declared_failure(op(compare), "grad", torch.float32, "privateuseone")
    inplace = DecorateInfo(unittest.expectedFailure, "TestBwdGradients", "test_inplace_grad")
    assert declared_failure(op(inplace), "grad", torch.float32, "privateuseone") is None


def test_a_skip_counts_only_when_its_reason_says_the_test_fails():
    # as_strided_scatter's entry (torch 1.13 and 2.x) skips its non-contiguous samples with
    # "Works for int64, fails for everything else"; time and blanket skips say nothing.
    fails = DecorateInfo(unittest.skip("Works for int64, fails for everything else"),
                         "TestCommon", "test_noncontiguous_samples")
    why = declared_failure(op(fails), "noncontig", torch.float32, "privateuseone")
    assert why and "fails for everything else" in why
    assert declared_failure(op(fails), "forward", torch.float32, "privateuseone") is None
    for reason in ("Skipped!", "testing takes an unreasonably long time, #79528"):
        info = DecorateInfo(unittest.skip(reason), "TestCommon", "test_noncontiguous_samples")
        assert declared_failure(op(info), "noncontig", torch.float32, "privateuseone") is None
