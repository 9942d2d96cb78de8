"""Hypothesis writes random programs with containers, aliasing, mutation, calls and loops;
each one's gradient either matches central finite differences or is refused.

A program builds lists, dicts, tuples of tuples, nested lists and numpy arrays from a scalar
``a``; gives some of them a second name (``m = l``, ``r = grid[0]``, ``v = x[1:]``);
changes them through either name (``l[i] = ...``, ``l.append``, ``l[i] += ...``,
``grid[0].append``, ``x[i] = ...``); calls helpers that change what they are given or not,
nested functions that change the outer list; concatenates and repeats lists (``l + [v]``,
``l + m``, ``l * 2``), inserts, pops from the front, extends them (by other lists too), slices them and writes their slices; calls helpers that
return their argument (``m = ident(l)``: the same object) or a new list; merges and updates
dicts (``d | {...}``, ``|=``, ``.update``, ``.get``); loops over them; and returns a sum that
reads every element.  The generator keeps a model of each container (its length and which names
share it), so every program runs in plain Python.

The only acceptable outcomes are a gradient equal to finite differences (reverse and
forward mode) or a ``TranspileError``: a wrong number or any other exception fails.
"""

import linecache

import numpy as np
from hypothesis import given, settings, strategies as st

from tests.fd import numeric_grad, richardson_derivative
from transpiler import TranspileError, differentiate

_counter = [0]


def put_first(lst, v):
    lst[0] = v


def push(lst, v):
    lst.append(v)


def take_last(lst):
    return lst.pop()


def scaled(v, c):
    return v * c


def first_times(lst, c):
    return lst[0] * c


def ident(lst):
    return lst


def make_pair(u, v):
    return [u, v * 2.0]


def scaled_copy(lst, c):
    return [e * c for e in lst]


class Box:
    pass


HELPERS = {"put_first": put_first, "push": push, "take_last": take_last, "scaled": scaled,
           "first_times": first_times, "ident": ident, "make_pair": make_pair, "scaled_copy": scaled_copy,
           "Box": Box, "np": np}

SCALAR = ["{s} * a", "np.sin({s}) + a", "{s} * {t}", "{s} + 1.5 * a", "scaled({s}, 0.5)", "np.cos(a) * {s}"]


class _Seq:
    """A list the program builds: its length (the generator's model of it)."""

    def __init__(self, n, kind="list"):
        self.n, self.kind = n, kind


CLOSURE_KINDS = ["closure", "closure_set", "closure_iadd", "closure_dict"]


# what adjoin models (never refuses) when no container has a second name: the `modelled` family
MODELLED = ["scalar", "list", "tuples", "dict", "concat", "repeat", "call_pair", "insert", "pop_front",
            "extend", "slice", "slice_write", "append", "pop", "loop_read", "read", "dict_merge", "dict_update",
            "fresh_setitem"]


@st.composite
def programs(draw, closures=False, modelled=False):
    """A program; with ``closures``, one that starts with a list, a dict and an array and whose
    steps are mostly nested functions changing them and lists of arrays changed by `+=` (so a
    small sample still exercises both); with ``modelled``, one built only from MODELLED steps
    over lists no other name shares, which must be differentiated, never refused."""
    lines, scalars, seqs = [], ["a"], {}      # seqs: name -> _Seq (aliases share one)
    nested = {}                               # name -> [_Seq, _Seq]: a list of two lists
    dicts = []                                # dicts with keys "p" (a scalar) and "q" (a list of two)

    def s():
        return draw(st.sampled_from(scalars))

    def scalar_expr():
        return draw(st.sampled_from(SCALAR)).format(s=s(), t=s())

    def new(prefix):
        return f"{prefix}{len(lines)}"

    if closures:
        lines += [f"l0 = [{scalar_expr()}, {scalar_expr()}]", f'd1 = {{"p": {scalar_expr()}, "q": [a, 1.0]}}',
                  f"x2 = np.array([{scalar_expr()}, {scalar_expr()}, a])"]
        seqs["l0"], seqs["x2"] = _Seq(2), _Seq(3, "array")
        dicts.append("d1")
    steps = draw(st.integers(2, 9))
    for step in range(steps):
        kinds = ["scalar", "list", "tuples", "dict", "array", "nested"]
        if seqs:
            kinds += ["alias", "setitem", "iadd", "append", "pop", "loop_read", "loop_write", "call_put",
                      "call_push", "call_pure", "call_take", "closure", "read", "sort", "closure_set",
                      "closure_iadd", "concat", "repeat", "call_ident", "call_copy", "insert", "pop_front",
                      "extend", "slice", "slice_write"]
        kinds += ["call_pair"]
        if dicts:
            kinds += ["dict_merge", "dict_update"]
        if nested:
            kinds += ["inner_append", "inner_alias", "inner_alias"]
        if len(seqs) > 1:
            kinds += ["alias", "setitem", "append"]          # more writes through second names
        if any(v.kind == "array" for v in seqs.values()):
            kinds += ["array_list", "array_list"]
        if dicts:
            kinds += ["closure_dict"]
        if closures:
            kinds = CLOSURE_KINDS * 3 + kinds
        if modelled:
            kinds = [k for k in MODELLED if k in kinds or k in ("fresh_setitem", "call_pair")]
        kind = "array_list" if closures and step == 0 else draw(st.sampled_from(kinds))
        lists = sorted(k for k, v in seqs.items() if v.kind == "list")
        arrays = sorted(k for k, v in seqs.items() if v.kind == "array")
        if kind == "scalar":
            v = new("s")
            lines.append(f"{v} = {scalar_expr()}")
            scalars.append(v)
        elif kind == "list":
            v, n = new("l"), draw(st.integers(1, 3))
            lines.append(f"{v} = [{', '.join(scalar_expr() for _ in range(n))}]")
            seqs[v] = _Seq(n)
            seqs[v].literal = True      # adjoin knows it is a list (slices copy, .extend works)
        elif kind == "tuples":
            v, acc = new("t"), new("s")
            pairs = ", ".join(f"({draw(st.sampled_from(['1.0', '2.0', '0.5']))}, {scalar_expr()})" for _ in range(2))
            lines += [f"{v} = ({pairs})", f"{acc} = 0.0", f"for c, w in {v}:", f"    {acc} = {acc} + c * w * w"]
            scalars.append(acc)
        elif kind == "dict":
            v, acc = new("d"), new("s")
            lines += [f'{v} = {{"p": {scalar_expr()}, "q": [{scalar_expr()}, {scalar_expr()}]}}',
                      f'{acc} = {v}["p"] * {v}["q"][1] + {v}["q"][0]']
            scalars.append(acc)
            dicts.append(v)
        elif kind == "array":
            v = new("x")
            lines.append(f"{v} = np.array([{', '.join(scalar_expr() for _ in range(3))}])")
            seqs[v] = _Seq(3, "array")
        elif kind == "nested":
            v = new("g")
            lines.append(f"{v} = [[{scalar_expr()}, {scalar_expr()}], [{scalar_expr()}]]")
            nested[v] = [_Seq(2), _Seq(1)]
        elif kind == "alias":
            src = draw(st.sampled_from(sorted(seqs)))
            v = new("m")
            view = seqs[src].kind == "array" and draw(st.booleans())
            if view:
                lines.append(f"{v} = {src}[1:]")
                seqs[v] = _Seq(seqs[src].n - 1, "array")
            else:
                lines.append(f"{v} = {src}")
                seqs[v] = seqs[src]
        elif kind in ("setitem", "iadd"):
            v = draw(st.sampled_from(sorted(seqs)))
            if seqs[v].n == 0:
                continue
            i = draw(st.integers(-seqs[v].n, seqs[v].n - 1))
            op = "=" if kind == "setitem" else "+="
            lines.append(f"{v}[{i}] {op} {scalar_expr()}")
        elif kind == "append" and lists:
            v = draw(st.sampled_from(lists))
            lines.append(f"{v}.append({scalar_expr()})")
            seqs[v].n += 1
        elif kind in ("pop", "pop_front", "call_take") and lists:
            v = draw(st.sampled_from(lists))
            if seqs[v].n == 0:
                continue
            w = new("s")
            lines.append(f"{w} = " + {"pop": f"{v}.pop()", "pop_front": f"{v}.pop(0)",
                                      "call_take": f"take_last({v})"}[kind])
            seqs[v].n -= 1
            scalars.append(w)
        elif kind == "sort" and lists:
            v = draw(st.sampled_from(lists))
            lines.append(f"{v}.{draw(st.sampled_from(['sort', 'reverse']))}()")
        elif kind == "loop_read":
            v, acc = draw(st.sampled_from(sorted(seqs))), new("s")
            # (a list a loop walked stays shared with the loop's sequence: a later change is refused)
            walked = f"list({v})" if modelled else v
            lines += [f"{acc} = 0.0", f"for e in {walked}:", f"    {acc} = {acc} + e * {s()}"]
            scalars.append(acc)
        elif kind == "loop_write":
            v = draw(st.sampled_from(sorted(seqs)))
            lines += [f"for i in range(len({v})):", f"    {v}[i] = {v}[i] * {s()}"]
        elif kind == "call_put":
            v = draw(st.sampled_from(sorted(seqs)))
            if seqs[v].n == 0:
                continue
            lines.append(f"put_first({v}, {scalar_expr()})")
        elif kind == "call_push" and lists:
            v = draw(st.sampled_from(lists))
            lines.append(f"push({v}, {scalar_expr()})")
            seqs[v].n += 1
        elif kind == "call_pure":
            v, w = draw(st.sampled_from(sorted(seqs))), new("s")
            if seqs[v].n == 0:
                continue
            lines.append(f"{w} = first_times({v}, {s()})")
            scalars.append(w)
        elif kind == "closure" and lists:
            v, fn = draw(st.sampled_from(lists)), new("add")
            lines += [f"def {fn}(u):", f"    {v}.append(u * {s()})", f"{fn}({scalar_expr()})"]
            seqs[v].n += 1
        elif kind in ("closure_set", "closure_iadd"):
            v, fn = draw(st.sampled_from(sorted(seqs))), new("put")
            if seqs[v].n == 0:
                continue
            i = draw(st.integers(-seqs[v].n, seqs[v].n - 1))
            op = "=" if kind == "closure_set" else "+="
            arg = draw(st.sampled_from(["u * a", "u", "np.sin(u)"]))
            lines += [f"def {fn}(u):", f"    {v}[{i}] {op} {arg}", f"{fn}({scalar_expr()})"]
        elif kind == "closure_dict" and dicts:
            d, fn = draw(st.sampled_from(dicts)), new("upd")
            key = draw(st.sampled_from(['"p"', '"r"']))
            lines += [f"def {fn}(u):", f"    {d}[{key}] = u * {s()}", f"{fn}({scalar_expr()})",
                      f'{new("s")} = {d}["p"] * {d}["q"][0]']
            scalars.append(lines[-1].split(" =")[0])
        elif kind == "array_list":
            # a list of arrays: one item may be an array other names see (`[x, x * 2.0]`)
            x, v = draw(st.sampled_from(sorted(k for k, q in seqs.items() if q.kind == "array"))), new("L")
            first = draw(st.sampled_from([x, f"{x} * 1.0"]))
            lines.append(f"{v} = [{first}, {x} * {s()}]")
            j = draw(st.integers(0, 1))
            lines.append(f"{v}[{j}] {draw(st.sampled_from(['+=', '*=', '=']))} {x} * {s()}")
            w = new("s")
            lines.append(f"{w} = np.sum({v}[0]) + np.sum({v}[1] * {s()})")
            scalars.append(w)
        elif kind == "fresh_setitem" and lists:
            v = draw(st.sampled_from(lists))
            if seqs[v].n == 0:
                continue
            lines.append(f"{v}[{draw(st.integers(0, seqs[v].n - 1))}] = {scalar_expr()}")
        elif kind == "concat" and lists:
            # `l + [..]`, `l + m`, `l + l`: concatenation (each operand its own run of slots)
            v, w = draw(st.sampled_from(lists)), new("c")
            right = draw(st.sampled_from(lists + [f"[{scalar_expr()}]"]))
            lines.append(f"{w} = {v} + {right}")
            seqs[w] = _Seq(seqs[v].n + (seqs[right].n if right in seqs else 1))
        elif kind == "repeat" and lists:
            v, w, k = draw(st.sampled_from(lists)), new("c"), draw(st.integers(1, 3))
            lines.append(f"{w} = {v} * {k}" if draw(st.booleans()) else f"{w} = {k} * {v}")
            seqs[w] = _Seq(seqs[v].n * k)
        elif kind == "call_ident":
            # a helper returning its argument: the result is the same object
            v, w = draw(st.sampled_from(sorted(seqs))), new("m")
            lines.append(f"{w} = ident({v})")
            seqs[w] = seqs[v]
        elif kind == "call_copy" and lists:
            v, w = draw(st.sampled_from(lists)), new("l")
            lines.append(f"{w} = scaled_copy({v}, {s()})")
            seqs[w] = _Seq(seqs[v].n)
        elif kind == "call_pair":
            w = new("l")
            lines.append(f"{w} = make_pair({scalar_expr()}, {s()})")
            seqs[w] = _Seq(2)
        elif kind == "insert" and lists:
            v = draw(st.sampled_from(lists))
            lines.append(f"{v}.insert({draw(st.integers(-1, seqs[v].n))}, {scalar_expr()})")
            seqs[v].n += 1
        elif kind == "extend" and lists:
            v, w = draw(st.sampled_from(lists)), draw(st.sampled_from(lists))
            if draw(st.booleans()) and w != v:
                lines.append(f"{v}.extend({w})")            # another list's items (not a second name)
                seqs[v].n += seqs[w].n
                continue
            forms = ["{v}.extend([{e}, {f}])"] + (["{v} += [{e}, {f}]"] if getattr(seqs[v], "literal", False)
                                                  or not modelled else [])   # (`+=` of a list a callee made: refused)
            form = draw(st.sampled_from(forms))
            lines.append(form.format(v=v, e=scalar_expr(), f=scalar_expr()))
            seqs[v].n += 2
        elif kind == "slice_write" and lists:
            # `l[i:j] = [..]`: the list may grow or shrink (Python clamps the bounds)
            v, n = draw(st.sampled_from(lists)), draw(st.integers(0, 2))
            i, j = draw(st.integers(-3, 3)), draw(st.integers(-3, 3))
            lines.append(f"{v}[{i}:{j}] = [{', '.join(scalar_expr() for _ in range(n))}]")
            lo, hi, _ = slice(i, j).indices(seqs[v].n)
            seqs[v].n += n - max(hi - lo, 0)
        elif kind == "slice" and lists:
            v, w = draw(st.sampled_from(lists)), new("l")
            if seqs[v].n < 2 or modelled and not getattr(seqs[v], "literal", False):
                continue
            lines.append(f"{w} = {v}[1:]")
            seqs[w] = _Seq(seqs[v].n - 1)
        elif kind == "dict_merge" and dicts:
            d, w = draw(st.sampled_from(dicts)), new("d")
            if draw(st.booleans()):
                lines.append(f'{w} = {d} | {{"p": {scalar_expr()}}}')
            else:
                lines += [f"{w} = dict({d})", f'{w} |= {{"p": {scalar_expr()}}}']
            lines.append(f'{new("s")} = {w}["p"] * {w}["q"][1] + {d}["p"]')
            scalars.append(lines[-1].split(" =")[0])
        elif kind == "dict_update" and dicts:
            d, acc = draw(st.sampled_from(dicts)), new("s")
            lines += [f'{d}.update({{"p": {scalar_expr()}}})', f'{acc} = {d}.get("p", 1.0) * {d}["q"][0]']
            scalars.append(acc)
        elif kind == "read":
            v, w = draw(st.sampled_from(sorted(seqs))), new("s")
            if seqs[v].n == 0:
                continue
            lines.append(f"{w} = {v}[{draw(st.integers(0, seqs[v].n - 1))}] * {s()}")
            scalars.append(w)
        elif kind == "inner_append":
            g = draw(st.sampled_from(sorted(nested)))
            j = draw(st.integers(0, 1))
            lines.append(f"{g}[{j}].append({scalar_expr()})")
            nested[g][j].n += 1
        elif kind == "inner_alias":
            g, r = draw(st.sampled_from(sorted(nested))), new("r")
            j = draw(st.integers(0, 1))
            lines.append(f"{r} = {g}[{j}]")
            seqs[r] = nested[g][j]
    # read everything: every scalar, every element of every container (through any of its names)
    terms = [f"{w} * {0.3 + 0.1 * k:.1f}" for k, w in enumerate(scalars)]
    for v, seq in sorted(seqs.items()):
        terms += [f"{v}[{i}]" for i in range(seq.n)]
    for g, (p, q) in sorted(nested.items()):
        terms += [f"{g}[0][{i}]" for i in range(p.n)] + [f"{g}[1][{i}]" for i in range(q.n)]
    lines.append(f"return {' + '.join(terms)}")
    a = draw(st.floats(0.3, 1.3))
    return lines, a


def build(lines):
    _counter[0] += 1
    filename = f"<random-aliasing-{_counter[0]}>"
    source = "def prog(a):\n" + "".join(f"    {line}\n" for line in lines)
    linecache.cache[filename] = (len(source), None, source.splitlines(True), filename)
    namespace = dict(HELPERS)
    exec(compile(source, filename, "exec"), namespace)
    return namespace["prog"], source


def outcome(fn, a, mode):
    """The derivative at ``a`` in ``mode``, or None when the transpiler refuses the program."""
    try:
        if mode == "reverse":
            return float(differentiate(fn).grad(a))
        return float(differentiate(fn, mode="forward").jvp((a,), (1.0,))[1])
    except TranspileError:
        return None


@given(programs())
def test_random_aliasing_program(program):
    check_program(program)


@settings(max_examples=max(20, settings().max_examples // 2))
@given(programs(closures=True))
def test_random_closure_program(program):
    """Nested functions writing the enclosing list and dict, and `L[i] += ...` on lists holding
    arrays, in most sampled programs: a change a closure makes that is not carried out to the outer
    name, or an array changed in place through a list, shows in the CI profile too."""
    check_program(program)


@given(programs(modelled=True))
def test_random_modelled_program(program):
    """Lists concatenated, repeated, sliced, inserted into, popped, extended, returned by helpers,
    dicts merged and updated: each program is differentiated (not refused) and right."""
    check_program(program, refusals=False)


def check_program(program, refusals=True):
    lines, a = program
    fn, source = build(lines)
    value = fn(a)                                   # the program runs in plain Python
    assert np.isfinite(value)
    expected = float(numeric_grad(lambda t: fn(np.float64(t)), a))
    for mode in ("reverse", "forward"):
        try:
            got = outcome(fn, np.float64(a), mode)
        except Exception as e:
            raise AssertionError(f"{mode} mode raised {type(e).__name__}: {e}\nprogram:\n{source}") from None
        assert got is not None or refusals, f"{mode} mode refused a program adjoin models\nprogram:\n{source}"
        if got is not None and abs(got - expected) > 1e-4 * (1 + abs(expected)):
            # a steep program (sin of a large sum): central differences' O(eps^2) error shows
            better = richardson_derivative(lambda t: fn(np.float64(t)), np.float64(a))
            assert abs(got - better) <= 1e-6 * (1 + abs(better)), \
                f"{mode} mode: {got} but finite differences give {expected} (extrapolated: {better})" \
                f"\nprogram:\n{source}"
