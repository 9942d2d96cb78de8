"""``f.show()`` on a function with a loop and a branch prints code a reader can follow:
the primal loop pushes what the adjoint needs, the adjoint loop runs the range backwards
and pops in the reverse order, both branches are replayed, and ``# grad of:`` comments
quote the user's source lines, last line first.
"""

import ast
import inspect

import numpy as np

from tests.fd import assert_close, numeric_grad
from transpiler import differentiate


def damped(x, a, n):
    y = x
    for i in range(n):
        z = np.sin(y) * a
        if np.sum(z) > 0.2:
            y = z * 0.5 + y
        else:
            y = y - 0.1 * z
    return np.sum(y * y)


def _calls(stmts, name):
    """Names passed to ``name(...)`` / assigned from ``name()`` directly in ``stmts``, in order."""
    out = []
    for s in stmts:
        if isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and getattr(s.value.func, "id", None) == name:
            out.append(s.value.args[0].id)
        elif isinstance(s, ast.Assign) and isinstance(s.value, ast.Call) \
                and getattr(s.value.func, "id", None) == name:
            out.append(s.targets[0].id)
    return out


def _shown(capsys):
    d = differentiate(damped, wrt=(0, 1))
    d.show()
    printed = capsys.readouterr().out
    assert printed == d.source
    return printed


def test_show_prints_the_source_it_runs(capsys):
    printed = _shown(capsys)
    namespace = {}
    exec(compile(printed, "<shown>", "exec"), namespace)      # the printed text is the program
    x, a = np.array([0.3, -0.2]), 0.8
    for n in (0, 1, 4):
        gx, ga = namespace["ddampeddx_a"](x, a, n)
        assert_close(gx, numeric_grad(lambda x_: damped(x_, a, n), x), 1e-5, 1e-7, what=f"dx, n={n}")
        assert_close(ga, numeric_grad(lambda a_: damped(x, float(a_), n), a), 1e-5, 1e-7, what=f"da, n={n}")


def test_show_primal_pushes_and_adjoint_pops_in_reverse(capsys):
    fn = ast.parse(_shown(capsys)).body[-1]
    loops = [s for s in fn.body if isinstance(s, ast.For)]
    assert len(loops) == 2, "one primal loop and one adjoint loop, not unrolled"
    primal, adjoint = loops
    assert ast.unparse(primal.iter) == "range(n)"
    assert ast.unparse(adjoint.iter) == "reversed(range(n))"
    # the branch is in both loops, on the same recorded test
    p_if = [s for s in primal.body if isinstance(s, ast.If)]
    a_if = [s for s in adjoint.body if isinstance(s, ast.If)]
    assert len(p_if) == len(a_if) == 1 and ast.unparse(p_if[0].test) == ast.unparse(a_if[0].test)
    # per trip: the loop-level pushes come last in the primal body, the pops first in the
    # adjoint body, in the opposite order
    pushes, pops = _calls(primal.body, "push"), _calls(adjoint.body, "pop")
    assert pushes and pops == pushes[::-1]
    assert _calls(adjoint.body[:len(pops)], "pop") == pops
    # inside the branch too: what a branch pushes, its adjoint pops first
    for p_block, a_block in ((p_if[0].body, a_if[0].body), (p_if[0].orelse, a_if[0].orelse)):
        assert _calls(a_block, "pop") == _calls(p_block, "push")[::-1]
        assert _calls(a_block[:1], "pop"), "a branch's adjoint starts by popping"


def test_show_comments_quote_the_source_last_line_first(capsys):
    printed = _shown(capsys)
    source_lines = [line.strip() for line in inspect.getsource(damped).splitlines()]
    comments = [line.strip()[len("# grad of: "):] for line in printed.splitlines()
                if line.strip().startswith("# grad of: ")]
    assert comments, printed
    for c in comments:
        assert c in source_lines, f"comment {c!r} is not a line of damped()"
    for needed in ("return np.sum(y * y)", "for i in range(n):", "if np.sum(z) > 0.2:",
                   "y = z * 0.5 + y", "y = y - 0.1 * z", "z = np.sin(y) * a"):
        assert needed in comments, f"no `# grad of: {needed}`\n{printed}"
    # the adjoint reads bottom-up: each statement's comment comes before those of earlier lines
    order = [source_lines.index(c) for c in comments]
    firsts = []
    for k in order:
        if k not in firsts:
            firsts.append(k)
    body_lines = [k for k in firsts if k > source_lines.index("for i in range(n):")
                  and k < source_lines.index("return np.sum(y * y)")]
    assert body_lines[-1] == source_lines.index("z = np.sin(y) * a"), printed
    assert firsts[0] == source_lines.index("return np.sum(y * y)"), printed
