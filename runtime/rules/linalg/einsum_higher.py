"""Derivatives of einsum of every order, from one multilinear primitive.

``einsum_vjp_k(g, ans, subscripts, *operands)`` (products.py) is the adjoint of einsum in operand
``k``.  Differentiating it again gives einsums with one operand replaced, or adjoints onto another
operand, and so on at every order.  ``contraction(subscripts, meta, *args)`` is all of them: ``args``
are a few leading extra arrays (cotangents, tangents) followed by einsum's own operands, passed on
untouched as ``*args``, so the transpiler can differentiate code that calls it (it does not follow
a list of operands with one item replaced).  ``meta = (n_extra, target, substitutions)``:

* ``substitutions``: ``((slot, e), ...)``, operand ``slot`` replaced by ``args[e]``;
* ``target``: ``None``, the einsum of the operands; ``("adjoint", slot, e)``, the adjoint onto operand
  ``slot`` applied to ``args[e]`` (``einsum_operand_vjp``: that operand is read for its shape only);
  ``("zeros", i)``, zeros shaped like ``args[i]``; ``("times_zero", meta)``, zero times the
  contraction ``meta`` of ``args[1:]`` (a zero tangent shaped like the result).

The result is linear in each array it reads, so its derivative in one of them is the same
contraction with that array swapped for the incoming cotangent or tangent: another ``meta``
(``vjp_meta``/``jvp_meta``, plain bookkeeping, no arrays), and the rules of every order are the
two one-line templates at the bottom.
"""

import linecache

import numpy as np

from ..registry import define, nondifferentiable
from ..support import dtype_of, shape_of
from .products import einsum_operand_vjp

MAX_ARGS = 16   # einsum's operands plus one extra per order of derivative beyond the second


def contraction(subscripts, meta, *args):
    n, target, subst = meta
    if target is not None and target[0] == "zeros":
        return np.zeros(shape_of(args[target[1]]), dtype=dtype_of(args[target[1]]))
    if target is not None and target[0] == "times_zero":
        return contraction(subscripts, target[1], *args[1:]) * 0
    ops = list(args[n:])
    for slot, e in subst:
        ops[slot] = args[e]
    if target is None:
        return np.einsum(subscripts, *ops)
    return einsum_operand_vjp(target[1], args[target[2]], subscripts, ops)


def role(meta, p):
    """What ``args[p]`` is in the contraction: ("slot", s), ("cotangent",), or None (unread, or read
    for its shape only: a zero derivative)."""
    n, target, subst = meta
    if target is not None and target[0] in ("zeros", "times_zero"):
        return None
    adjoint = target[1] if target is not None else None
    if p < n:
        if target is not None and target[2] == p:
            return ("cotangent",)
        slot = next((s for s, e in subst if e == p), None)
    else:
        slot = p - n if all(s != p - n for s, _ in subst) else None
    return None if slot is None or slot == adjoint else ("slot", slot)


def shifted(meta):
    """``meta`` with a new array in front of ``args`` (every extra index moves up by one)."""
    n, target, subst = meta
    if target is not None and target[0] == "adjoint":
        target = ("adjoint", target[1], target[2] + 1)
    return n + 1, target, tuple((s, e + 1) for s, e in subst)


def put(subst, slot):
    """Substitutions with operand ``slot`` replaced by the new first array."""
    return tuple((s, e) for s, e in subst if s != slot) + ((slot, 0),)


def vjp_meta(meta, p):
    """The contraction ``h -> d/d args[p] <h, contraction(meta, args)>`` of ``(h, *args)``."""
    what = role(meta, p)
    if what is None:
        return (0, ("zeros", p + 1), ())
    n, target, subst = shifted(meta)
    if what[0] == "cotangent":                   # adjoint of the adjoint: the einsum itself
        return n, None, put(subst, target[1])
    if target is None:                           # einsum, in operand s: its adjoint onto s
        return n, ("adjoint", what[1], 0), subst
    return n, ("adjoint", what[1], target[2]), put(subst, target[1])


def jvp_meta(meta, p):
    """The contraction ``t -> d/d args[p] contraction(meta, args) . t`` of ``(t, *args)``."""
    what = role(meta, p)
    if what is None:
        return (0, ("times_zero", meta), ())
    n, target, subst = shifted(meta)
    if what[0] == "cotangent":
        return n, ("adjoint", target[1], 0), subst
    return n, target, put(subst, what[1])


nondifferentiable(vjp_meta, jvp_meta)


# --- the rules: contraction's, and einsum_vjp_k's (second order) in terms of it ---------------------

_CONTRACTION = """
def contraction_vjp_{p}(h, ans, subscripts, meta, *args):
    return contraction(subscripts, vjp_meta(meta, {p}), h, *args)


def contraction_jvp_{p}(t, ans, subscripts, meta, *args):
    return contraction(subscripts, jvp_meta(meta, {p}), t, *args)
"""

# einsum_vjp_k(g, ans, subscripts, *operands) is contraction(subscripts, (1, ("adjoint", k, 0), ()), g,
# *operands); its rules are that contraction's, written out for its own argument list
_EINSUM_VJP = """
def einsum_vjp_{k}_vjp_g(h, res, g, ans, subscripts, *operands, **kwargs):
    return contraction(subscripts, (1, None, (({k}, 0),)), h, *operands)


def einsum_vjp_{k}_jvp_g(t, res, g, ans, subscripts, *operands, **kwargs):
    return contraction(subscripts, (1, ("adjoint", {k}, 0), ()), t, *operands)
"""

_EINSUM_VJP_OPERAND = """
def einsum_vjp_{k}_vjp_{j}(h, res, g, ans, subscripts, *operands, **kwargs):
    return contraction(subscripts, (2, ("adjoint", {j}, 1), (({k}, 0),)), h, g, *operands)


def einsum_vjp_{k}_jvp_{j}(t, res, g, ans, subscripts, *operands, **kwargs):
    return contraction(subscripts, (2, ("adjoint", {k}, 1), (({j}, 0),)), t, g, *operands)
"""


def _written_out(source, filename):
    """Run generated rule source under a name that tracebacks and the transpiler can read."""
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    names = dict(globals())
    exec(compile(source, filename, "exec"), names)
    return names


def _define_rules(operands=4):
    from . import products
    names = _written_out("".join(_CONTRACTION.format(p=p) for p in range(MAX_ARGS)),
                         "<adjoin rules for contraction>")
    define(contraction, vjp=[None, None] + [names[f"contraction_vjp_{p}"] for p in range(MAX_ARGS)],
           jvp=[None, None] + [names[f"contraction_jvp_{p}"] for p in range(MAX_ARGS)])
    made = {n: v for n, v in names.items() if n.startswith("contraction_")}
    for k in range(operands):
        source = _EINSUM_VJP.format(k=k) + "".join(
            _EINSUM_VJP_OPERAND.format(k=k, j=j) for j in range(operands) if j != k)
        names = _written_out(source, f"<adjoin rules for einsum_vjp_{k}>")
        slot = lambda kind, j: None if j == k else names[f"einsum_vjp_{k}_{kind}_{j}"]  # noqa: E731
        define(getattr(products, f"einsum_vjp_{k}"),
               vjp=[names[f"einsum_vjp_{k}_vjp_g"], None, None] + [slot("vjp", j) for j in range(operands)],
               jvp=[names[f"einsum_vjp_{k}_jvp_g"], None, None] + [slot("jvp", j) for j in range(operands)])
        made.update({n: v for n, v in names.items() if n.startswith("einsum_vjp_")})
    globals().update(made)


_define_rules()
