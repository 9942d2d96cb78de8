"""Control flow on the user's AST: ``break``/``continue``/``return`` anywhere become structure.

Runs before normalization (and on each inlined nested function), so the core IR has loops
without jumps and one final ``return``.
"""

import ast
import copy

from ...core import annotations as anno
from ...core.astutil import walk
from ..traversal import statements

__all__ = ["Restructure"]


def _at_level(stmts, kinds):
    """Does a statement of ``kinds`` occur in ``stmts`` outside nested loops and functions?"""
    for s in stmts:
        if isinstance(s, kinds):
            return True
        if isinstance(s, ast.If) and _at_level(s.body + s.orelse, kinds):
            return True
        if isinstance(s, (ast.With, ast.Try)) and _at_level(
                getattr(s, "body", []) + getattr(s, "orelse", []) + getattr(s, "finalbody", []), kinds):
            return True
    return False


def _returns_anywhere(stmts):
    """Is there a ``return`` in ``stmts`` (in functions nested in their statements too, but not
    in a def or class that is one of ``stmts``)?"""
    return any(isinstance(s, ast.Return) for s in statements(
        [s for s in stmts if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]))


def _mk(node, like):
    return ast.fix_missing_locations(ast.copy_location(node, like))


def _assign(name, value, like):
    return _mk(ast.Assign([ast.Name(name, ast.Store())], value), like)


class Restructure:
    """Rewrite ``break``/``continue``/``return`` anywhere into structured code.

    ``continue`` moves the rest of the loop body into the branch that does not continue;
    ``break`` sets a flag tested by the loop (a ``for`` with a ``break`` becomes an index
    ``while``); ``return`` inside a loop sets a result and breaks; ``return`` inside
    branches becomes one assignment per branch and a single ``return`` at the end.
    """

    def __init__(self, namer):
        self.namer = namer

    def fresh(self, name):
        return self.namer.claim(name)

    # -- loops ---------------------------------------------------------------------------
    def loops(self, block):
        out = []
        for s in block:
            if isinstance(s, ast.If):
                s = _mk(ast.If(s.test, self.loops(s.body), self.loops(s.orelse)), s)
                out.append(s)
            elif isinstance(s, (ast.For, ast.While)):
                out.extend(self.loop(s))
            else:
                out.append(s)
        return out

    def loop(self, s):
        body = self.loops(s.body)
        orelse = self.loops(s.orelse)
        has_break = _at_level(body, (ast.Break, ast.Return))
        has_return = _at_level(body, ast.Return)
        if not has_break:
            body = self.jumps(body, None, None) if _at_level(body, ast.Continue) else body
            new = ast.For(s.target, s.iter, body, [], None) if isinstance(s, ast.For) \
                else ast.While(s.test, body, [])
            return [_mk(new, s)] + orelse
        brk = self.fresh("broke")
        flag = ret = None
        if has_return:
            flag, ret = self.fresh("returned"), self.fresh("result")
        body = self.jumps(body, brk, (flag, ret))
        pre = [_assign(brk, ast.Constant(False), s)]
        if has_return:
            pre.append(_assign(flag, ast.Constant(False), s))
        not_broke = _mk(ast.UnaryOp(ast.Not(), ast.Name(brk, ast.Load())), s)
        if isinstance(s, ast.While):
            test = _mk(ast.BoolOp(ast.And(), [not_broke, s.test]), s)
            loop = _mk(ast.While(test, body, []), s)
        else:
            loop = _mk(ast.For(s.target, s.iter, body, [], None), s)
            anno.put(loop, "break", brk)          # for_statement turns it into an index while loop
        post = []
        if orelse:
            post.append(_mk(ast.If(not_broke, orelse, []), s))
        if has_return:
            post.append(_mk(ast.If(ast.Name(flag, ast.Load()), [_mk(ast.Return(ast.Name(ret, ast.Load())), s)],
                                   []), s))
        return pre + [loop] + post

    def jumps(self, block, brk, ret):
        """The block without jumps at this loop level (the rest of the body moves into branches)."""
        out = []
        for i, s in enumerate(block):
            if isinstance(s, ast.Continue):
                return out
            if isinstance(s, ast.Break):
                out.append(_assign(brk, ast.Constant(True), s))
                return out
            if isinstance(s, ast.Return):
                flag, name = ret
                value = s.value if s.value is not None else ast.Constant(None)
                out.extend([_assign(name, value, s), _assign(flag, ast.Constant(True), s),
                            _assign(brk, ast.Constant(True), s)])
                return out
            if isinstance(s, ast.If) and _at_level([s], (ast.Break, ast.Continue, ast.Return)):
                rest = block[i + 1:]
                body = self.jumps(s.body + copy.deepcopy(rest), brk, ret)
                orelse = self.jumps(s.orelse + copy.deepcopy(rest), brk, ret)
                out.append(_mk(ast.If(s.test, body, orelse), s))
                return out
            out.append(s)
        return out

    # -- returns -------------------------------------------------------------------------
    def lift(self, block):
        """(block, always returns) with every ``return`` last in its branch."""
        out = []
        for i, s in enumerate(block):
            if isinstance(s, ast.Return):
                out.append(s)
                return out, True
            if isinstance(s, ast.If) and _returns_anywhere([s]):
                rest = block[i + 1:]
                body, rb = self.lift(s.body + copy.deepcopy(rest))
                orelse, ro = self.lift(s.orelse + copy.deepcopy(rest))
                out.append(_mk(ast.If(s.test, body or [_mk(ast.Pass(), s)], orelse or [_mk(ast.Pass(), s)]), s))
                return out, rb and ro
            out.append(s)
        return out, False

    def function_body(self, body, fn):
        body = self.loops(body)
        if not _returns_anywhere(body[:-1] if body and isinstance(body[-1], ast.Return) else body):
            return body          # no return, or only the last statement
        body, always = self.lift(body)
        if isinstance(body[-1], ast.Return):
            return body
        if not always:
            return body          # the caller reports the missing final return
        values = [n.value for s in body for n in walk(s) if isinstance(n, ast.Return)]
        sizes = {len(v.elts) if isinstance(v, ast.Tuple) else None for v in values}
        size = sizes.pop() if len(sizes) == 1 else None
        names = [self.fresh(f"result{k}") for k in range(size)] if size else [self.fresh("result")]

        class Swap(ast.NodeTransformer):
            def visit_Return(self, node):
                target = ast.Tuple([ast.Name(n, ast.Store()) for n in names], ast.Store()) if size \
                    else ast.Name(names[0], ast.Store())
                return _mk(ast.Assign([target], node.value if node.value is not None else ast.Constant(None)),
                           node)

            def visit_FunctionDef(self, node):
                return node

        body = [Swap().visit(s) for s in body]
        last = body[-1]
        value = ast.Tuple([ast.Name(n, ast.Load()) for n in names], ast.Load()) if size \
            else ast.Name(names[0], ast.Load())
        body.append(_mk(ast.Return(value), last))
        body[-1].lineno = getattr(last, "end_lineno", last.lineno) or last.lineno
        return body
