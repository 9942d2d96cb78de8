"""Run-time calls in generated code, as plain Python the transpiler can differentiate again.

A generated gradient calls a callee known only at run time (a function passed as an argument,
a method of a parameter) through ``call_forward`` / ``call_backward`` (callees.py), whose bodies
are machinery, not differentiable code.  When that gradient is itself differentiated (hvp,
grad of grad) those two calls are read as calls to ``forward_again`` / ``backward_again``
below: they do the same work in the subset the transpiler handles, so the callee's split pair
becomes an ordinary run-time callee (its generated source, differentiated in turn) and the
tape an ordinary tuple ``(backward, saved)``.

A primitive passed as the callee (``apply(np.sin, x)``) keeps a tape of its rule, which has
no source; read again, it is called through ``primitive_caller``, a one-line Python function
(``def sin(a0): return np.sin(a0)``) whose generated pair has the rule inlined.

A callee whose split pair hands a loop's list stack from forward to backward (inside
``saved``) cannot be read again that way: the stack idiom (stacks.py) pairs pushes and pops
within one function.  Differentiated again, such a pair is read as ``recompute_pair``: a
forward that calls the callee and saves its arguments, and a backward that runs the callee's
whole generated gradient (stacks inside) on them -- the same values, one more primal run.
"""

import inspect
import linecache
import types

from runtime.rules.registry import nondifferentiable

from ..core.callables import register_alias, register_wrapper, transformer
from ..core.errors import TranspileError
from ..frontend.source.star_args import Specialised
from . import callees

__all__ = ["forward_again", "backward_again", "readable"]


def stage_of(fn, spec, nargs, kwnames):
    """The callee's generated forward (bound to its ``self``) and backward, for this call shape."""
    target, wrt, bound = callees._resolve(fn, spec, nargs, kwnames)
    if not isinstance(target, types.FunctionType):     # a primitive (np.sin): called from source
        target, wrt, bound = callees._resolve(primitive_caller(fn, nargs, kwnames), spec, nargs, kwnames)
    forward = callees.proxy(target, wrt, "forward")
    if bound is not None:
        forward = types.MethodType(forward, bound)
    return forward, callees.proxy(target, wrt, "backward")


def forward_of(stage):
    return stage[0]


def backward_of(stage):
    return stage[1]


_CALLERS = {}


def primitive_caller(fn, nargs, kwnames=()):
    """``def name(a0, a1, *, axis): return fn(a0, a1, axis=axis)`` with source, for a primitive ``fn``."""
    key = (fn, nargs, kwnames)
    if key not in _CALLERS:
        name = "".join(c if c.isalnum() else "_" for c in getattr(fn, "__name__", "primitive"))
        positional = [f"a{i}" for i in range(nargs)]
        params = ", ".join(positional + (["*"] + list(kwnames) if kwnames else []))
        passed = ", ".join(positional + [f"{k}={k}" for k in kwnames])
        source = f"def {name}({params}):\n    return __primitive({passed})\n"
        namespace = {"__primitive": fn}
        _exec(source, f"<adjoin call of the primitive {name}>", namespace)
        _CALLERS[key] = namespace[name]
    return _CALLERS[key]


def _exec(source, filename, namespace):
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    exec(compile(source, filename, "exec"), namespace)


def function_of(tape):
    """The backward a tape of ``call_forward`` holds (``(backward, saved)``)."""
    return tape[0]


def held(value):
    """A callee's argument its recompute pair passes on as a constant (see ``recompute_pair``)."""
    return value


nondifferentiable(stage_of, forward_of, backward_of, function_of, held)   # no values to differentiate


def forward_again(fn, spec, *args, **kwargs):
    stage = stage_of(fn, spec, len(args), tuple(kwargs))
    forward = forward_of(stage)
    value, saved = forward(*args, **kwargs)
    return value, (backward_of(stage), saved)


def backward_again(tape, g):
    backward = function_of(tape)
    saved = tape[1]
    return backward(saved, g)


# --- split pairs that save a loop's stack ---------------------------------------------------

def readable(proxy):
    """The Python function (with source) the transpiler reads for a callee's fwd_g / bwd_g."""
    if not getattr(proxy.generated(), "saves_stack", False):
        return proxy.function()
    return recompute_pair(proxy.fn, proxy.wrt)[0 if proxy.role == "forward" else 1]


_PAIRS = {}


def recompute_pair(fn, wrt):
    """``fwd_g(*params) -> (value, params)`` and ``bwd_g(saved, bout) -> grads`` for ``fn``.

    Parameters outside ``wrt`` reach the gradient as constants (``held``): they may be objects
    (``cell`` in ``cell.step(h)``).  That is exact when the caller is differentiated again with
    respect to the same inputs; calls.py refuses a forward whose new wrt goes beyond ``wrt``."""
    key = (fn, wrt)
    if key not in _PAIRS:
        _PAIRS[key] = _make_pair(fn, wrt)
    return _PAIRS[key]


def _make_pair(fn, wrt):
    full = transformer(fn).get(wrt, False)
    sig = inspect.signature(fn)
    # a callee specialised to a call shape (g(*xs, **kw) as g(xs_0, xs_1, *, kw_scale)) is
    # called as the user wrote it: g(xs_0, xs_1, scale=kw_scale)
    specialised = isinstance(fn, Specialised)
    keywords = dict(zip(list(sig.parameters)[len(sig.parameters) - len(fn.keys):], fn.keys)) \
        if specialised and fn.keys else {}
    callee = fn.__wrapped__ if specialised else fn
    namespace = {"__callee": callee, "__gradient": full.function, "__held": held}
    params, passed, held_args = [], [], []
    for p in sig.parameters.values():
        if p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD):
            code = getattr(callee, "__code__", None)
            raise TranspileError(
                f"differentiating {fn.__qualname__}() again, a function with a loop and "
                f"{'*' if p.kind is p.VAR_POSITIONAL else '**'}{p.name} that "
                "received no differentiable value, is not supported", getattr(code, "co_filename", None),
                getattr(code, "co_firstlineno", None),
                hint="give it named parameters, or nest runtime.GradientTape blocks")
        if p.kind is p.KEYWORD_ONLY and "*" not in params:
            params.append("*")
        text = p.name
        if p.default is not p.empty:
            namespace[f"__default_{p.name}"] = p.default
            text += f"=__default_{p.name}"
        params.append(text)
        passed.append(p.name if p.kind is not p.KEYWORD_ONLY else f"{keywords.get(p.name, p.name)}={p.name}")
        value = p.name if p.name in wrt else f"__held({p.name})"
        held_args.append(value if p.kind is not p.KEYWORD_ONLY else f"{p.name}={value}")
    names = [p for p in sig.parameters]
    label = callees.label(fn)
    saved = ", ".join(names) + ("," if len(names) == 1 else "")
    # the cotangent's name must differ from the callee's parameters, which `saved` rebinds
    # (a generated gradient read again has a parameter called `bout` itself)
    seed = "bout"
    while seed in names:
        seed = "b" + seed
    # so must the result's: `value = __callee(value)` saved tf.unstack's output as its input
    result = "value"
    while result in names:
        result = "_" + result
    call = f"__callee({', '.join(passed)})"
    if inspect.isgeneratorfunction(callee):      # differentiated as the list it yields
        call = f"list({call})"
    source = (f"def fwd_{label}({', '.join(params)}):\n"
              f"    {result} = {call}\n"
              f"    return {result}, ({saved})\n\n\n"
              f"def bwd_{label}(saved, {seed}):\n"
              f"    {saved} = saved\n"
              f"    return __gradient({', '.join(held_args)}, {full.seed_name}={seed})\n")
    _exec(source, f"<adjoin recompute pair of {fn.__qualname__}>", namespace)
    forward = namespace[f"fwd_{label}"]
    forward._adjoin_recompute_wrt = wrt
    return forward, namespace[f"bwd_{label}"]


# generated code read again: a callee's fwd_g/bwd_g is its generated (or recompute) pair,
# call_forward/call_backward the functions above
register_wrapper(callees._Proxy, lambda p: (readable(p), None) if p.role != "jvp" else None)
register_alias(callees.call_forward, forward_again)
register_alias(callees.call_backward, backward_again)
