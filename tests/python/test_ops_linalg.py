"""Dense linear algebra on the device (svd, qr, eigh, inverse, LU, det, cholesky, solve, cross,
eye) against CPU: batched, strided, singular and empty inputs run natively (no CPU fallback)
with CPU's results, signs of singular vectors and eigenvectors included; arguments the kernels
do not implement fall back to CPU and raise CPU's errors; gradients flow through them."""

from __future__ import annotations

import pytest
import torch

import opweave
from op_compare import D, gen, same, to

g = gen(7)


def rand(*shape, dtype=torch.float32):
    return torch.randn(*shape, generator=g, dtype=dtype)


def spd(*shape):
    a = rand(*shape)
    return a @ a.mT + shape[-1] * torch.eye(shape[-1])


SING = torch.tensor([[1.0, 2.0, 3.0], [2.0, 4.0, 6.0], [0.5, -1.0, 2.0]])   # rank 2
A4 = rand(4, 4)
B43 = rand(4, 3)
LU4, PIV4 = torch.linalg.lu_factor(A4)

FORWARD = {
    "svd": (lambda a: torch.linalg.svd(a, full_matrices=False), rand(5, 3)),
    "svd_full_batched": (lambda a: torch.linalg.svd(a), rand(2, 3, 4)),
    "svd_noncontig_double": (lambda a: torch.linalg.svd(a.mT), rand(2, 4, 6, dtype=torch.float64)),
    "svd_empty_full": (lambda a: torch.linalg.svd(a), rand(3, 0)),
    "svdvals": (lambda a: torch.linalg.svdvals(a), rand(3, 6, 2)),
    "matrix_rank_singular": (lambda a: torch.linalg.matrix_rank(a), SING),
    "pinv": (lambda a: torch.linalg.pinv(a), rand(4, 6)),
    "qr_reduced_tall": (lambda a: torch.linalg.qr(a), rand(6, 4)),
    "qr_reduced_wide": (lambda a: torch.linalg.qr(a), rand(3, 5)),
    "qr_complete_tall": (lambda a: torch.linalg.qr(a, mode="complete"), rand(2, 5, 3)),
    "qr_r": (lambda a: torch.linalg.qr(a, mode="r")[1], rand(5, 3)),
    "eigh_lower": (lambda a: torch.linalg.eigh(a), rand(2, 5, 5)),
    "eigh_upper_noncontig": (lambda a: torch.linalg.eigh(a.mT, UPLO="U"), rand(4, 4)),
    "eigvalsh": (lambda a: torch.linalg.eigvalsh(a), rand(3, 6, 6)),
    "inv": (lambda a: torch.linalg.inv(a), rand(3, 4, 4)),
    "inv_noncontig": (lambda a: torch.linalg.inv(a.mT), rand(4, 4)),
    "inv_ex_singular": (lambda a: torch.linalg.inv_ex(a).info, SING),
    "lu_factor": (lambda a: torch.linalg.lu_factor(a), rand(2, 5, 3)),
    "lu_factor_ex_singular": (lambda a: torch.linalg.lu_factor_ex(a), SING),
    "det": (lambda a: torch.linalg.det(a), rand(3, 4, 4)),
    "det_singular_and_empty": (lambda a: (torch.linalg.det(a), torch.linalg.det(a[:0, :0])), SING),
    "slogdet": (lambda a: torch.linalg.slogdet(a), rand(2, 5, 5)),
    "slogdet_singular": (lambda a: torch.linalg.slogdet(a), SING),
    "logdet": (lambda a: torch.logdet(a), spd(3, 3)),
    "cholesky": (lambda a: torch.linalg.cholesky(a), spd(2, 4, 4)),
    "cholesky_upper": (lambda a: torch.linalg.cholesky(a, upper=True), spd(5, 5)),
    "cholesky_ex_not_pd": (lambda a: torch.linalg.cholesky_ex(a), -spd(3, 3)),
    "solve": (lambda a, b: torch.linalg.solve(a, b), A4, B43),
    "solve_vector": (lambda a, b: torch.linalg.solve(a, b), A4, rand(4)),
    "solve_batched_vector": (lambda a, b: torch.linalg.solve(a, b), rand(2, 3, 3), rand(2, 3)),
    "solve_broadcast": (lambda a, b: torch.linalg.solve(a, b), rand(2, 1, 3, 3), rand(4, 3, 2)),
    "solve_right": (lambda a, b: torch.linalg.solve(a, b, left=False), A4, B43.mT),
    "solve_noncontig": (lambda a, b: torch.linalg.solve(a.mT, b), A4, B43),
    "solve_ex": (lambda a, b: torch.linalg.solve_ex(a, b), A4, B43),
    "lu_solve": (lambda lu, p, b: torch.linalg.lu_solve(lu, p, b), LU4, PIV4, B43),
    "lu_solve_adjoint_right": (lambda lu, p, b: torch.linalg.lu_solve(lu, p, b, left=False, adjoint=True),
                               LU4, PIV4, B43.mT),
    "triangular_solve": (lambda b, a: torch.triangular_solve(b, a), B43, A4),
    "triangular_solve_lower_t_unit": (lambda b, a: torch.triangular_solve(b, a, upper=False, transpose=True,
                                                                          unitriangular=True), rand(2, 4, 3), A4),
    "solve_triangular": (lambda a, b: torch.linalg.solve_triangular(a, b, upper=True), A4, B43),
    "solve_triangular_right_lower": (lambda a, b: torch.linalg.solve_triangular(a, b, upper=False, left=False),
                                     rand(2, 1, 4, 4), B43.mT),
    "geqrf": (lambda a: torch.geqrf(a), rand(2, 5, 3)),
    "ldl_factor": (lambda a: torch.linalg.ldl_factor_ex(a), rand(2, 4, 4)),
    "cross": (lambda a, b: torch.linalg.cross(a, b), rand(4, 3), rand(4, 3)),
    "cross_dim0_broadcast": (lambda a, b: torch.cross(a, b, dim=0), rand(3, 1, 5), rand(3, 4, 1)),
    "eye_int": (lambda a: torch.eye(3, 5, dtype=torch.int64, device=a.device), A4),
    "matrix_power_negative": (lambda a: torch.linalg.matrix_power(a, -2), A4),
}


@pytest.mark.parametrize("name", sorted(FORWARD))
def test_forward_matches_cpu_without_fallback(name):
    f, *args = FORWARD[name]
    expected = f(*args)
    opweave.fallback_stats(reset=True)
    got = f(*to(D, args))
    assert opweave.fallback_stats() == {}
    same(expected, got, atol=1e-4)


def test_singular_matrix_gives_cpu_inf_and_info():
    inv, info = torch.linalg.inv_ex(SING.to(D))
    cpu_inv, cpu_info = torch.linalg.inv_ex(SING)
    assert int(info) == int(cpu_info) > 0   # getrf: U[info, info] is exactly zero
    assert torch.equal(torch.isfinite(inv.cpu()), torch.isfinite(cpu_inv))


@pytest.mark.parametrize("name,call,error", [
    ("svd_driver", lambda a: torch.linalg.svd(a, driver="gesvd"), "driver"),
    ("qr_bad_mode", lambda a: torch.linalg.qr(a, mode="bad"), "qr received unrecognized mode"),
    ("eigh_bad_uplo", lambda a: torch.linalg.eigh(a, UPLO="X"), "UPLO"),
    ("inv_not_square", lambda a: torch.linalg.inv(a[:, :3]), "square"),
    ("cholesky_ex_check_errors", lambda a: torch.linalg.cholesky_ex(-a @ a.mT, check_errors=True),
     "positive-definite"),
    ("lu_factor_no_pivot", lambda a: torch.linalg.lu_factor(a, pivot=False), "pivot"),
    ("cross_bad_length", lambda a: torch.linalg.cross(a, a), "length 3"),
])
def test_unimplemented_arguments_fall_back_and_raise_cpus_error(name, call, error):
    with pytest.raises(RuntimeError, match=error):
        call(A4)
    opweave.fallback_stats(reset=True)
    with pytest.raises(RuntimeError, match=error):
        call(A4.to(D))
    assert opweave.fallback_stats(), "the device raised without asking the CPU"


def test_errors_read_from_the_info_tensor_are_raised_from_the_native_result():
    # linalg.cholesky / linalg.inv check the info of their *_ex op: computed on the device
    opweave.fallback_stats(reset=True)
    with pytest.raises(RuntimeError, match="positive-definite"):
        torch.linalg.cholesky(-spd(3, 3).to(D))
    with pytest.raises(RuntimeError, match="singular"):
        torch.linalg.inv(SING.to(D))
    assert opweave.fallback_stats() == {}


def test_lu_solve_with_out_of_range_pivots_raises_instead_of_reading_outside():
    bad = PIV4.clone()
    bad[0] = 99
    with pytest.raises(RuntimeError, match="pivots"):
        torch.linalg.lu_solve(LU4.to(D), bad.to(D), B43.to(D)).cpu()


@pytest.mark.parametrize("name,f,shape", [
    ("svd", lambda a: torch.linalg.svd(a, full_matrices=False)[1].sum(), (4, 3)),
    ("qr", lambda a: torch.linalg.qr(a)[1].sum(), (4, 3)),
    ("eigh", lambda a: torch.linalg.eigvalsh(a + a.mT).sum(), (4, 4)),
    ("inv", lambda a: torch.linalg.inv(a).sum(), (2, 4, 4)),
    ("det", lambda a: torch.linalg.det(a).sum(), (3, 3)),
    ("solve", lambda a: torch.linalg.solve(a, a[..., :2]).sum(), (4, 4)),
])
def test_gradients_match_cpu(name, f, shape):
    x = rand(*shape, dtype=torch.float64)
    xc = x.clone().requires_grad_()
    f(xc).backward()
    xd = x.to(D).requires_grad_()
    opweave.fallback_stats(reset=True)
    f(xd).backward()
    assert not any("svd" in k or "qr" in k or "eigh" in k or "inv" in k or "det" in k or
                   "solve" in k for k in opweave.fallback_stats())
    same(xc.grad, xd.grad, atol=1e-8)
