"""Frictional contact problems u = W r + q with Coulomb friction (FCLIB's local problem),
solved by the solvers of `nscd solve` (docs/python.md)."""

import numpy as np

from . import _core

try:
    import scipy.sparse as _sparse
except ImportError:  # SciPy is optional: dense matrices only
    _sparse = None


def _real_array(name, value, ndim):
    """`value` as a C-contiguous float64 array of `ndim` dimensions; TypeError or ValueError otherwise."""
    array = np.asarray(value)
    if array.dtype.kind not in "fiu":
        raise TypeError(f"{name}: expected real numbers (a float or integer array), found dtype {array.dtype}")
    if array.ndim != ndim:
        raise ValueError(f"{name}: expected a {ndim}-dimensional array, found shape {array.shape}")
    return np.ascontiguousarray(array, dtype=np.float64)


def solve(W, q, mu, solver="auto", tolerance=1e-8, max_iterations=10000):
    """Solves u = W r + q, (r, u) in Coulomb's friction cone of coefficients mu, from r = 0.

    W is (3 nc, 3 nc), dense or SciPy sparse, q (3 nc,), mu (nc,); the rows of contact i are
    3i (normal), 3i + 1, 3i + 2 (tangential). solver is a name of `nscd solve --solver`.
    A sparse W is read in compressed sparse rows, never made dense. Returns a dict: r, u (NumPy
    arrays), status ("converged", ...), error, iterations, stage.
    """
    q, mu = _real_array("q", q, 1), _real_array("mu", mu, 1)
    if _sparse is not None and _sparse.issparse(W):
        csr = _sparse.csr_matrix(W)
        data = _real_array("W", csr.data, 1)
        return _core.solve_csr(csr.shape[0], csr.shape[1], data, csr.indices.astype(np.int64),
                               csr.indptr.astype(np.int64), q, mu, solver, float(tolerance), int(max_iterations))
    return _core.solve(_real_array("W", W, 2), q, mu, solver, float(tolerance), int(max_iterations))


def read_fclib(path):
    """The problem of an FCLIB file as a dict: W (dense), q, mu, is_global (a global problem is
    condensed into W = Hᵀ M⁻¹ H, q = Hᵀ M⁻¹ f + w, as `nscd solve` does)."""
    return _core.read_fclib(str(path))
