"""nscd.solve and nscd.read_fclib: FCLIB's local problem; bad shapes and dtypes raise."""

import glob

import numpy as np
import pytest

import nscd
from conftest import ROOT


def one_contact(mu=0.5):
    """A contact pressed by q_n = -1 with W = I: r = (1, 0, 0), u = 0."""
    return np.eye(3), np.array([-1.0, 0.0, 0.0]), np.array([mu])


@pytest.mark.parametrize("solver", ["auto", "nlgs", "nsn"])
def test_solve_one_contact(solver):
    W, q, mu = one_contact()
    result = nscd.solve(W, q, mu, solver=solver)
    assert result["status"] == "converged"
    assert np.allclose(result["r"], [1, 0, 0], atol=1e-10)
    assert np.allclose(result["u"], 0, atol=1e-10)
    assert result["error"] <= 1e-8


def test_solve_sparse_matches_dense():
    sparse = pytest.importorskip("scipy.sparse")
    W, q, mu = two_contacts()
    dense = nscd.solve(W, q, mu)
    for matrix in (sparse.csr_matrix(W), sparse.csc_matrix(W), sparse.coo_matrix(W)):
        assert np.array_equal(nscd.solve(matrix, q, mu)["r"], dense["r"])


def test_fclib_file_solved_as_nscd_solve_solves_it():
    files = sorted(glob.glob(f"{ROOT}/tests/data/fclib/*.hdf5"))
    assert files
    problem = nscd.read_fclib(files[0])
    nc = len(problem["mu"])
    assert problem["W"].shape == (3 * nc, 3 * nc) and problem["q"].shape == (3 * nc,)
    result = nscd.solve(problem["W"], problem["q"], problem["mu"], tolerance=1e-6)
    assert result["r"].shape == (3 * nc,) and result["iterations"] > 0


@pytest.mark.parametrize("W, q, mu, error", [
    (np.eye(2), [-1.0, 0, 0], [0.5], ValueError),            # W not 3 nc × 3 nc
    (np.eye(3), [-1.0, 0], [0.5], ValueError),               # q not 3 nc
    (np.eye(3), [-1.0, 0, 0], [], ValueError),               # no contact
    (np.eye(3), [-1.0, 0, 0], [-0.5], ValueError),           # μ < 0
    (np.eye(3), [np.nan, 0, 0], [0.5], ValueError),          # not finite
    (np.ones(9), [-1.0, 0, 0], [0.5], ValueError),           # W one-dimensional
    (np.eye(3), [[-1.0, 0, 0]], [0.5], ValueError),          # q two-dimensional
    (np.eye(3).astype(complex), [-1.0, 0, 0], [0.5], TypeError),
    (np.full((3, 3), "a"), [-1.0, 0, 0], [0.5], TypeError),
    (np.eye(3), [-1.0, 0, 0], ["x"], TypeError),
    (np.eye(3), [-1.0, 0, 0], [object()], TypeError),
])
def test_bad_arrays_raise(W, q, mu, error):
    with pytest.raises(error):
        nscd.solve(W, q, mu)


def test_bad_solver_options_raise():
    W, q, mu = one_contact()
    with pytest.raises(nscd.InputError, match="unknown solver"):
        nscd.solve(W, q, mu, solver="magic")
    with pytest.raises(nscd.InputError, match="tolerance"):
        nscd.solve(W, q, mu, tolerance=0)


def test_read_fclib_bad_file_raises(tmp_path):
    path = tmp_path / "not.hdf5"
    path.write_text("not HDF5")
    with pytest.raises(nscd.InputError, match="not.hdf5"):
        nscd.read_fclib(path)


def two_contacts():
    """Two coupled contacts: W symmetric positive definite with off-diagonal blocks, one zero entry."""
    rng = np.random.default_rng(3)
    A = rng.standard_normal((6, 6))
    W = A @ A.T + 6 * np.eye(6)
    W[0, 4] = W[4, 0] = 0.0
    return W, np.array([-1.0, 0.2, 0.1, -0.5, -0.1, 0.3]), np.array([0.5, 0.3])


def csr_arrays(W):
    """W's compressed sparse rows (data, indices, indptr), built with NumPy."""
    rows, cols = np.nonzero(W)
    indptr = np.searchsorted(rows, np.arange(W.shape[0] + 1))
    return W[rows, cols], cols.astype(np.int64), indptr.astype(np.int64)


@pytest.mark.parametrize("solver", ["nlgs", "nsn"])
def test_sparse_rows_give_the_bits_of_the_dense_solve(solver):
    W, q, mu = two_contacts()
    dense = nscd.solve(W, q, mu, solver=solver)
    data, indices, indptr = csr_arrays(W)
    sparse = nscd._core.solve_csr(6, 6, data, indices, indptr, q, mu, solver, 1e-8, 10000)
    assert np.array_equal(sparse["r"], dense["r"]) and sparse["iterations"] == dense["iterations"]


@pytest.mark.parametrize("change, message", [
    (lambda d, i, p: (d, i, p[:-1]), "inconsistent"),
    (lambda d, i, p: (d, i + 6, p), "column indices"),
    (lambda d, i, p: (d, i, p[::-1]), "inconsistent|increasing"),
    (lambda d, i, p: (np.where(d == d[0], np.nan, d), i, p), "finite"),
])
def test_bad_sparse_rows_raise(change, message):
    W, q, mu = two_contacts()
    data, indices, indptr = change(*csr_arrays(W))
    with pytest.raises(ValueError, match=message):
        nscd._core.solve_csr(6, 6, data, indices, indptr, q, mu, "nlgs", 1e-8, 100)
