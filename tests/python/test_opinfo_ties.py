"""The OpInfo runner accepts another order of equal elements from sort / argsort / topk, and
nothing else (opweave/opinfo/ties.py)."""

from types import SimpleNamespace

import torch

from opweave.opinfo.ties import tie_equivalent


def SampleInput(input, args=(), kwargs=None):   # the fields of OpInfo's SampleInput it reads
    return SimpleNamespace(input=input, args=args, kwargs=kwargs or {})

X = torch.tensor([[3.0, 1.0, 3.0, 2.0], [5.0, 5.0, 5.0, 0.0]])


def test_other_order_of_ties_is_accepted():
    values, cpu = X.sort(dim=1)
    swapped = cpu.clone()
    swapped[1, 1], swapped[1, 2] = cpu[1, 2], cpu[1, 1]     # two of the equal 5s
    assert tie_equivalent("sort", SampleInput(X, args=(1,)), (values, swapped), (values, cpu))
    assert tie_equivalent("argsort", SampleInput(X, args=(1,)), swapped, cpu)


def test_wrong_indices_are_not_ties():
    values, cpu = X.sort(dim=1)
    wrong = cpu.clone()
    wrong[0, 0], wrong[0, 1] = cpu[0, 1], cpu[0, 0]      # 1.0 and 2.0: not equal
    assert not tie_equivalent("sort", SampleInput(X, args=(1,)), (values, wrong), (values, cpu))
    repeated = cpu.clone()
    repeated[1, 1] = cpu[1, 2]                             # one 5 picked twice
    assert not tie_equivalent("argsort", SampleInput(X, args=(1,)), repeated, cpu)


def test_stable_sort_and_other_ops_compare_index_for_index():
    values, cpu = X.sort(dim=1, stable=True)
    swapped = cpu.clone()
    swapped[1, 1], swapped[1, 2] = cpu[1, 2], cpu[1, 1]
    stable = SampleInput(X, args=(1,), kwargs={"stable": True})
    assert not tie_equivalent("sort", stable, (values, swapped), (values, cpu))
    assert not tie_equivalent("max", SampleInput(X, args=(1,)), (values, swapped), (values, cpu))


def test_topk_ties_along_its_dim():
    values, cpu = X.topk(2, dim=1)
    other = cpu.clone()
    other[1] = torch.tensor([2, 0])
    assert tie_equivalent("topk", SampleInput(X, args=(2, 1)), (values, other), (values, cpu))
    assert not tie_equivalent("topk", SampleInput(X, args=(2, 1)), (values, other[:, :1]),
                              (values, cpu))
