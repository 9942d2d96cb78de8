"""The reverse pass over control flow: branches replay the one that ran, loops run backwards.

An adjoint ``if`` tests the primal's condition again.  An adjoint loop runs the body's adjoint
once per trip, last trip first: a ``for`` over ``reversed(range(...))``, a ``while`` over the
trip count it kept.  What a loop body's adjoint reads of values the next trip overwrites is
pushed onto a list stack in the primal loop and popped in the adjoint loop (``save``).
"""

import ast
import copy

from ..core import annotations as anno
from ..analysis import reuse
from ..analysis.activity import _flows
from ..core.ir import comment, walk_assigns
from . import checkpoint, stacks

__all__ = ["ControlFlow"]


class ControlFlow:
    """Mixin of Reverse: branches, loops, and what a block saves for its adjoint."""

    @staticmethod
    def merged(s):
        """Names an ``if`` defines for the code after it: assigned at the top of both branches."""
        def tops(block):
            return {x.targets[0].id for x in block if isinstance(x, ast.Assign)}
        return tops(s.body) & tops(s.orelse)

    def owned(self, block):
        """Names whose value at the end of ``block`` belongs to this block's iteration."""
        out = set()
        for s in block:
            if isinstance(s, ast.Assign):
                out.add(s.targets[0].id)
                if anno.get(s, "tape"):
                    out.add(anno.get(s, "tape"))          # what a call saved for its backward
            elif isinstance(s, ast.If):
                out |= self.merged(s)
            elif isinstance(s, (ast.For, ast.While)):
                out |= set(anno.get(s, "carried", ()))
                if isinstance(s, ast.For):
                    out.add(s.target.id)
                if anno.get(s, "counter"):
                    out.add(anno.get(s, "counter"))
        return out

    def save(self, primal, adjoint, owned, extra_tail=()):
        """Push the owned values ``adjoint`` reads at the end of ``primal``; pop them first.

        Only values the adjoint reads are saved (the to-be-recorded analysis): one push
        per value per iteration.
        """
        reads = set().union(*(_free_loads(st) for st in adjoint))
        needed, recompute = reuse.recomputable(primal, reads & owned, self.info.scalars)
        tail = 0
        while tail < len(primal) and anno.get(primal[len(primal) - 1 - tail], "backedge", False):
            tail += 1
        at = len(primal) - tail
        primal[at:at] = list(extra_tail)
        if not needed:
            return
        if self.stack is None:
            self.stack = self.ctx.namer.claim("stack")
            self.push = self.ctx.namer.claim("push")
            self.pop = self.ctx.namer.claim("pop")
        # one push per value (cheaper than building a tuple), popped in reverse order
        pushes = [ast.Expr(ast.Call(self.load(self.push), [self.load(n)], [])) for n in needed]
        pops = [ast.Assign([ast.Name(n, ast.Store())], ast.Call(self.load(self.pop), [], []))
                for n in reversed(needed)]
        primal[at + len(extra_tail):at + len(extra_tail)] = pushes
        adjoint[0:0] = pops + recompute

    def contributions(self, body):
        """Names the adjoint of ``body`` may add to (a static over-estimate)."""
        out = set()
        info = self.info
        for s in walk_assigns(body):
            if not info.needs_adjoint(s.targets[0].id):
                continue
            op = info.ops[id(s)]
            for i, n in op.operands():
                if info.needs_adjoint(n) and (op.kind in ("copy", "tuple", "unknown", "call")
                                              or (op.kind == "prim" and _flows(op, i))):
                    out.add(n)
        return out | stacks.push_contributions(self, body)

    # --- control flow ----------------------------------------------------------------------
    def branch(self, s, out, has, in_loop=False):
        a, b = set(has), set(has)
        body, orelse = [], []
        self.last_src = None
        pbody = self.sweep(s.body, body, a, in_loop)
        self.last_src = None
        porelse = self.sweep(s.orelse, orelse, b, in_loop)
        local = {x.targets[0].id for x in walk_assigns(s.body + s.orelse)}
        if body or orelse:
            for src, dst, block in ((a, b, orelse), (b, a, body)):
                for name in sorted(src - dst - local):
                    block.append(ast.Assign([ast.Name(self.adj(name), ast.Store())], self.zero(name)))
        has.clear()
        has.update((a | b) - local)
        if in_loop:
            merged = self.merged(s)
            self.save(pbody, body, self.owned(s.body) - merged)
            self.save(porelse, orelse, self.owned(s.orelse) - merged)
        self.last_src = None
        if body or orelse:
            out.append(ast.copy_location(ast.If(s.test, body or [ast.Pass()], orelse or [ast.Pass()]), s))
        new = ast.copy_location(ast.If(s.test, pbody or [ast.Pass()], porelse or [ast.Pass()]), s)
        return new

    def loop(self, s, out, has):
        """Reverse of a loop: the adjoint loop runs the body's adjoint once per trip, last first.

        Returns the primal statements (the loop, extended with its pushes and trip count).
        """
        if checkpoint.applies(self, s):       # memory_budget: snapshots and recomputation instead
            return checkpoint.loop(self, s, out, has)
        info = self.info
        carried = set(anno.get(s, "carried", ()))
        local = {x.targets[0].id for x in walk_assigns(s.body)} - carried
        outer = {n for n in self.contributions(s.body) if n not in local}
        init = []
        for n in sorted(outer - has):
            init.append(ast.Assign([ast.Name(self.adj(n), ast.Store())], self.zero(n)))
        h_in = has | outer
        hb = set(h_in)
        adj_body = []
        self.last_src = None
        pbody = self.sweep(s.body, adj_body, hb, in_loop=True)
        for n in sorted(h_in - hb):
            adj_body.append(ast.Assign([ast.Name(self.adj(n), ast.Store())], self.zero(n)))
        has.clear()
        has.update(h_in)
        owned = self.owned(s.body)
        pre = []
        tail = []
        if isinstance(s, ast.For):
            owned.discard(s.target.id)
            header = ast.Call(self.ctx.ref(reversed, "reversed"), [_copy_args(s.iter)], [])
            adj_loop = ast.For(ast.Name(s.target.id, ast.Store()), header, adj_body, [], None)
        else:
            counter = self.ctx.namer.claim("trips")
            adj_loop = ast.For(ast.Name("_", ast.Store()),
                               ast.Call(self.ctx.ref(range, "range"), [self.load(counter)], []), adj_body, [], None)
            if adj_body:
                anno.put(s, "counter", counter)
                pre.append(ast.copy_location(ast.Assign([ast.Name(counter, ast.Store())], ast.Constant(0)), s))
                tail.append(ast.copy_location(ast.Assign([ast.Name(counter, ast.Store())],
                                                         ast.BinOp(self.load(counter), ast.Add(),
                                                                   ast.Constant(1))), s))
        self.save(pbody, adj_body, owned, tail)
        self.last_src = None
        if adj_body:
            out.extend(init)
            src = anno.get(s, "src")
            if src is not None:
                out.append(comment("grad of: " + self.source_of(src)))
            out.append(ast.copy_location(adj_loop, s))
        if isinstance(s, ast.For):
            new = ast.For(s.target, s.iter, pbody or [ast.Pass()], [], None)
        else:
            new = ast.While(s.test, pbody or [ast.Pass()], [])
        new = ast.copy_location(new, s)
        for key in ("carried", "counter", "src"):
            if anno.has(s, key):
                anno.put(new, key, anno.get(s, key))
        return pre + [new]


def _free_loads(node, bound=frozenset()):
    """Names ``node`` reads, less those an adjoint ``for`` binds itself (its loop counter
    is recomputed by ``reversed(range(...))``, so it is never saved: it may be unbound when
    the loop ran no trip)."""
    if isinstance(node, ast.For) and isinstance(node.target, ast.Name):
        inner = bound | {node.target.id}
        return _free_loads(node.iter, bound).union(*(_free_loads(s, inner) for s in node.body + node.orelse))
    if isinstance(node, ast.Name):
        return {node.id} if isinstance(node.ctx, ast.Load) and node.id not in bound else set()
    return set().union(*(_free_loads(c, bound) for c in ast.iter_child_nodes(node)))


def _copy_args(args):
    return copy.deepcopy(args)

