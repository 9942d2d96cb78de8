"""Specs for the linear-algebra rules (runtime/rules/linalg/): well-conditioned inputs."""

import numpy as np
from hypothesis import strategies as st

from . import shape, spec, values


def well_conditioned(rng, n, batch=()):
    return values(rng, batch + (n, n)) + 3.0 * np.eye(n)


@spec(np.linalg.inv)
def _inv(draw, rng):
    return [well_conditioned(rng, draw(st.integers(1, 3)), shape(draw, max_dims=1))], {}


@spec(np.linalg.det)
def _det(draw, rng):
    return [well_conditioned(rng, draw(st.integers(1, 3)), shape(draw, max_dims=1))], {}


@spec(np.linalg.solve, argnums=(0, 1))
def _solve(draw, rng):
    n = draw(st.integers(1, 3))
    return [well_conditioned(rng, n), values(rng, (n,) if draw(st.booleans()) else (n, 2))], {}


@spec(np.linalg.cholesky, symmetric=True)
def _cholesky(draw, rng):
    n = draw(st.integers(1, 3))
    a = values(rng, (n, n))
    return [a @ a.T + n * np.eye(n)], {}


@spec(np.trace)
def _trace(draw, rng):
    return [values(rng, shape(draw, min_dims=2))], {"offset": draw(st.integers(-1, 1))}


@spec(np.diagonal)
def _diagonal(draw, rng):
    return [values(rng, shape(draw, min_dims=2))], {"offset": draw(st.integers(-1, 1))}


@spec(np.einsum, argnums=(1, 2))
def _einsum(draw, rng):
    sub = draw(st.sampled_from(["ij,jk->ik", "i,i->", "ij,ij->i", "ij,kj->ik",
                                # repeated letters: traces and diagonals, alone and mixed
                                "ii,i->", "ij,jj->i", "bii,i->bi", "iij,j->ij", "ii,jj->ij", "ij,ii->"]))
    sizes = {c: draw(st.integers(1, 3)) for c in "ijkb"}
    ins = sub.split("->")[0].split(",")
    return [sub] + [values(rng, tuple(sizes[c] for c in s)) for s in ins], {}


@spec(np.einsum, argnums=(1,), label="einsum of one operand")
def _einsum_one(draw, rng):
    sub = draw(st.sampled_from(["ii->", "ii->i", "iij->j", "bii->b", "...ii->...i", "iji->j", "ij->"]))
    sizes = {c: draw(st.integers(1, 3)) for c in "ijb"}
    batch = tuple(draw(st.lists(st.integers(1, 3), max_size=2))) if "..." in sub else ()
    dims = batch + tuple(sizes[c] for c in sub.split("->")[0].replace("...", ""))
    return [sub, values(rng, dims)], {}
