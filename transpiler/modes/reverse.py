"""Pass 4: reverse mode -- a primal sweep followed by an adjoint sweep.

The primal sweep is the core function body itself (it is in SSA form, so every value the
adjoint reads is still there: nothing has to be saved in straight-line code).  The
adjoint sweep visits active, useful statements last-to-first and inlines the runtime's VJP
rule for each active operand.  The first contribution to an adjoint assigns it, later ones
add to it (``bx = bx + ...``, never in place, since arrays may alias).  ``if`` statements
(from conditional expressions) replay the branch that ran.

The next passes extend this one: loops push what the adjoint reads onto stacks, and calls
to user functions become calls to the callee's own forward/adjoint pair.
"""

import ast
import operator
import types

import numpy as np

from . import calls
from . import stacks
from ..backend import templates
from ..core.ir import comment, walk_assigns

__all__ = ["reverse"]


class Reverse:
    def __init__(self, ctx, core, info, wrt, preserve_result, name, seed_name):
        self.ctx, self.core, self.info = ctx, core, info
        self.wrt, self.preserve, self.name, self.seed = wrt, preserve_result, name, seed_name
        self.adjoints = {}
        self.last_src = None

    def adj(self, name):
        if name not in self.adjoints:
            self.adjoints[name] = self.ctx.namer.claim("b" + name)
        return self.adjoints[name]

    def load(self, name):
        return ast.Name(name, ast.Load())

    # --- contributions -----------------------------------------------------------------
    def contribute(self, out, has, name, expr):
        b = self.adj(name)
        if name in has:
            expr = ast.BinOp(self.load(b), ast.Add(), expr)
        has.add(name)
        out.append(ast.Assign([ast.Name(b, ast.Store())], expr))

    def np_call(self, attr, *args):
        return ast.Call(self.ctx.ref_attr(np, "np", attr), list(args), [])

    def _ones_like(self, out):
        """The default seed of one output; a nested tuple gets a tuple of them."""
        if isinstance(out, ast.Tuple):
            return ast.Tuple([self._ones_like(o) for o in out.elts], ast.Load())
        return self.np_call("ones_like", out)

    def _output_seeds(self, out, seed):
        """(output name, its seed expression) pairs; nested tuples (a generated forward's
        ``return out, (saved...)``, differentiated again) are seeded item by item."""
        if isinstance(out, ast.Name):
            return [(out, seed)]
        if not isinstance(out, ast.Tuple):
            return []
        return [pair for i, o in enumerate(out.elts)
                for pair in self._output_seeds(o, ast.Subscript(seed, ast.Constant(i), ast.Load()))]

    # --- the sweep ---------------------------------------------------------------------
    def run(self):
        sw = self.sweeps()
        result = sw.result
        keep = []
        if self.preserve:
            out_value = sw.out_value
            if any(isinstance(n, ast.For) for st in sw.adjoint for n in ast.walk(st)):
                # adjoint loops rebind loop variables and pop old values: keep the value first
                kept = self.ctx.namer.claim("value")
                keep.append(ast.Assign([ast.Name(kept, ast.Store())], out_value))
                out_value = self.load(kept)
            result = ast.Tuple([result, out_value], ast.Load())
        stmts = sw.primal + sw.seed_init + keep + sw.adjoint + [ast.Return(result)]
        args = _copy_args(self.core.args)
        seed_arg = ast.arg(self.seed)
        if args.vararg is not None:
            args.kwonlyargs.append(seed_arg)
            args.kw_defaults.append(sw.seed_default)
        else:
            args.args.append(seed_arg)
            args.defaults.append(sw.seed_default)
        return function_def(self.name, args, stmts, self.core.lineno)

    def sweeps(self):
        """The two sweeps as separate statement lists (``run`` joins them; split.py does not).

        Returns a namespace: primal (with the stack set-up), seed_init (defaults the seed
        from the output), adjoint, result (the gradient expression), out_value, seed_default.
        """
        body = [s for s in self.core.body if not isinstance(s, ast.Return)]
        ret = self.core.body[-1]
        out_value = ret.value
        info = self.info
        is_tuple = isinstance(out_value, ast.Tuple)
        outs = out_value.elts if is_tuple else [out_value]

        seed_init = []
        # the output as a variable (constants and tuples are returned as written)
        seed_default = ast.Constant(None)
        scalar_out = not is_tuple and (
            (isinstance(out_value, ast.Name) and out_value.id in info.scalars)
            or (isinstance(out_value, ast.Constant) and isinstance(out_value.value, (int, float))))
        if scalar_out:
            seed_default = ast.Constant(1.0)
        else:
            ones = [self._ones_like(o) for o in outs]
            init = ast.Tuple(ones, ast.Load()) if is_tuple else ones[0]
            seed = ast.IfExp(ast.Compare(self.load(self.seed), [ast.Is()], [ast.Constant(None)]),
                             init, self.load(self.seed))
            seed_init.append(ast.Assign([ast.Name(self.seed, ast.Store())], seed))

        adjoint = []
        has = set()
        for o, g in self._output_seeds(out_value, self.load(self.seed)):
            if info.needs_adjoint(o.id):
                self.contribute(adjoint, has, o.id, g)
        self.stack = None
        primal = self.sweep(body, adjoint, has)
        if self.stack is not None:
            # values the adjoint reads that loops overwrite: pushed in the primal, popped in reverse
            primal[0:0] = [
                ast.Assign([ast.Name(self.stack, ast.Store())], ast.List([], ast.Load())),
                ast.Assign([ast.Name(self.push, ast.Store())],
                           ast.Attribute(self.load(self.stack), "append", ast.Load())),
                ast.Assign([ast.Name(self.pop, ast.Store())], ast.Attribute(self.load(self.stack), "pop", ast.Load()))]
        adjoint[0:0] = stacks.adjoint_prelude(self)

        adjoint.extend(calls.parameter_seeds(self, has))     # bsaved = item_seed(saved, ...)
        grads = []
        for w in self.wrt:
            if w in has:
                grads.append(self.load(self.adj(w)))
            else:
                grads.append(calls.zero_parameter(self, w) or self.np_call("zeros_like", self.load(w)))
        result = grads[0] if len(grads) == 1 else ast.Tuple(grads, ast.Load())
        return types.SimpleNamespace(primal=primal, seed_init=seed_init, adjoint=adjoint, result=result,
                                     out_value=out_value, seed_default=seed_default)

    def sweep(self, body, out, has, in_loop=False):
        """Adjoint statements for ``body`` (visited last to first), appended to ``out``.

        Returns the primal statements for ``body``: the same statements, with loops and
        branches inside loops extended by what they save for the adjoint.
        """
        primal = []
        for s in reversed(body):
            if isinstance(s, ast.If):
                primal.append(self.branch(s, out, has, in_loop))
            elif isinstance(s, (ast.For, ast.While)):
                primal.extend(reversed(self.loop(s, out, has)))
            else:
                if isinstance(s, ast.Assign):
                    self.statement(s, out, has)
                elif stacks.push_parts(s) is not None:
                    stacks.push_adjoint(self, s, out, has)
                primal.extend(getattr(s, "_primal", None) or [s])   # a call: its split forward
        primal.reverse()
        return primal

    # --- what a block saves --------------------------------------------------------------
    def zero(self, name):
        if name in self.info.scalars:
            return ast.Constant(0.0)
        if name in self.indexed():       # may be a list or dict: its zero cotangent is an empty Grads
            from runtime.rules.containers import zero_grad
            return ast.Call(self.ctx.ref(zero_grad, "zero_grad"), [self.load(name)], [])
        return self.np_call("zeros_like", self.load(name))

    def indexed(self):
        if getattr(self, "_indexed", None) is None:
            from ..analysis.containers import indexed_names
            self._indexed = indexed_names(self.core, self.info)
        return self._indexed

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
                if getattr(s, "_tape", None):
                    out.add(s._tape)          # what a call saved for its backward
            elif isinstance(s, ast.If):
                out |= self.merged(s)
            elif isinstance(s, (ast.For, ast.While)):
                out |= set(getattr(s, "_carried", ()))
                if isinstance(s, ast.For):
                    out.add(s.target.id)
                if getattr(s, "_counter", None):
                    out.add(s._counter)
        return out

    def save(self, primal, adjoint, owned, extra_tail=()):
        """Push the owned values ``adjoint`` reads at the end of ``primal``; pop them first.

        Only values the adjoint reads are saved (the to-be-recorded analysis): one push
        per value per iteration.
        """
        reads = set().union(*(_free_loads(st) for st in adjoint))
        needed = sorted(reads & owned)
        tail = 0
        while tail < len(primal) and getattr(primal[len(primal) - 1 - tail], "_backedge", False):
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
        adjoint[0:0] = pops

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
                                              or (op.kind == "prim" and i is not None
                                                  and op.rule.vjp(i) is not None)):
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
        info = self.info
        carried = set(getattr(s, "_carried", ()))
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
                s._counter = counter
                pre.append(ast.copy_location(ast.Assign([ast.Name(counter, ast.Store())], ast.Constant(0)), s))
                tail.append(ast.copy_location(ast.Assign([ast.Name(counter, ast.Store())],
                                                         ast.BinOp(self.load(counter), ast.Add(),
                                                                   ast.Constant(1))), s))
        self.save(pbody, adj_body, owned, tail)
        self.last_src = None
        if adj_body:
            out.extend(init)
            src = getattr(s, "_src", None)
            if src is not None:
                out.append(comment("grad of: " + self.source_of(src)))
            out.append(ast.copy_location(adj_loop, s))
        if isinstance(s, ast.For):
            new = ast.For(s.target, s.iter, pbody or [ast.Pass()], [], None)
        else:
            new = ast.While(s.test, pbody or [ast.Pass()], [])
        new = ast.copy_location(new, s)
        for attr in ("_carried", "_counter", "_src"):
            if hasattr(s, attr):
                setattr(new, attr, getattr(s, attr))
        return pre + [new]

    def statement(self, s, out, has):
        if stacks.popped_from(s) is not None:
            return stacks.pop_adjoint(self, s, out, has)
        target = s.targets[0].id
        if not self.info.needs_adjoint(target) or target not in has:
            return
        op = self.info.ops[id(s)]
        g = self.load(self.adj(target))
        block = []
        if op.kind == "copy":
            self.contribute(block, has, op.args[0].id, g)
        elif op.kind == "unknown":
            raise self.unknown(op, s)
        elif op.kind == "call":
            calls.reverse_call(self, op, s, g, block, has)
        elif calls.tuple_item(self, op, s, g, block, has):
            pass
        elif op.kind == "prim":
            self.primitive(op, s, g, block, has)
        elif op.kind == "tuple":
            self.elements(op, g, block, has)
        has.discard(target)      # the value is overwritten here: its adjoint starts again
        if block:
            src = getattr(s, "_src", None)
            if src is not None and src is not self.last_src:
                out.append(comment("grad of: " + self.source_of(src)))
                self.last_src = src
            out.extend(block)

    def elements(self, op, g, block, has):
        """A tuple/list literal: element j gets slot j of the cotangent (a Grads, tuple or array)."""
        from runtime.rules.containers import slot
        for j, e in enumerate(op.args):
            if isinstance(e, ast.Name) and self.info.needs_adjoint(e.id):
                self.contribute(block, has, e.id, ast.Call(self.ctx.ref(slot, "slot"), [g, ast.Constant(j), e], []))

    def source_of(self, src):
        """The user's statement for a comment; compound statements by their header line."""
        if isinstance(src, (ast.If, ast.For, ast.While)):
            line = self.ctx.parsed.line(src.lineno).strip()
            return line if line.endswith(":") else self.ctx.parsed.segment(src)
        return self.ctx.parsed.segment(src)

    def unknown(self, op, s):
        node = op.node
        if isinstance(node, ast.Call):
            fn = op.fn
            if fn is None:
                meth = getattr(node, "_method", "?")
                return self.ctx.error(f"the method `.{meth}()` has no derivative rule", node,
                                      f"use the numpy function instead (np.{meth}(x, ...)) or add a rule "
                                      "with runtime.rules.define(...) in runtime/rules/numpy_extra.py")
            import types
            user = isinstance(fn, types.FunctionType) and not fn.__module__.startswith(("numpy", "runtime"))
            name = fn.__qualname__ if user else _qualname(fn)
            if user:
                return self.ctx.error(
                    f"calling the user function {name}() with a differentiable argument is not "
                    "supported yet", node,
                    f"inline {name}'s body here for now, or make it a primitive: "
                    f"runtime.rules.define({name}, vjp=(...,)) with one VJP rule per argument")
            return self.ctx.error(
                f"{name} has no derivative rule", node,
                f"add one in runtime/rules/numpy_extra.py: def {getattr(fn, '__name__', 'f')}_vjp(g, ans, x, ...): "
                f"return ...; runtime.rules.define({name}, vjp=({getattr(fn, '__name__', 'f')}_vjp,))")
        if isinstance(node, ast.Attribute):
            return self.ctx.error(f"reading the attribute `.{node.attr}` of a differentiable value is "
                                  "not supported", node, "use the numpy function for it instead")
        if isinstance(node, (ast.BinOp, ast.UnaryOp)):
            return self.ctx.error(f"the operator {_qualname(op.fn)} has no derivative rule", node,
                                  "add one in runtime/rules/numpy_extra.py with runtime.rules.define(...)")
        return self.ctx.error(f"this {type(node).__name__} expression cannot be differentiated", node,
                              "compute it outside the differentiated function")

    def primitive(self, op, s, g, block, has):
        info = self.info
        rule = op.rule
        ans = s.targets[0]
        for key, v in op.kwargs.items():
            if any(n in info.active for n in _names(v)):
                raise self.ctx.error(f"the differentiable value `{ast.unparse(v)}` is passed as keyword "
                                     f"`{key}=`", op.node, "pass differentiable values positionally")
        index_params = ()
        args = list(op.args)
        if op.fn is operator.getitem:
            params = list(templates.template(rule.vjp(0)).signature.parameters)
            index_params = tuple(params[3:4])
        for i, a in enumerate(args):
            names = [n for n in _names(a) if n in info.active]
            if not names or rule.vjp(i) is None:
                continue
            if op.fn is operator.getitem and i > 0:
                continue
            drop = self.same_shape(rule, args, i)
            pre, expr = templates.instantiate(rule.vjp(i), self.ctx, g, self.load(ans.id), args,
                                              op.kwargs, drop_unbroadcast=drop, index_params=index_params)
            if isinstance(expr, ast.Constant) and expr.value is None:
                continue  # the rule says: no gradient flows here
            block.extend(pre)
            if isinstance(a, ast.Name):
                self.contribute(block, has, a.id, expr)
            elif isinstance(a, (ast.Tuple, ast.List)):
                tmp = self.ctx.namer.temp("r")
                block.append(ast.Assign([ast.Name(tmp, ast.Store())], expr))
                for j, e in enumerate(a.elts):
                    if isinstance(e, ast.Name) and e.id in info.active:
                        self.contribute(block, has, e.id,
                                        ast.Subscript(self.load(tmp), ast.Constant(j), ast.Load()))
            else:
                raise self.ctx.error("cannot differentiate through this argument", a,
                                     "assign it to a name first")

    def same_shape(self, rule, args, i):
        """True when the result of an elementwise op provably has the shape of args[i]."""
        if not isinstance(rule.fn, np.ufunc):
            return False
        me = args[i]
        for j, other in enumerate(args):
            if j == i:
                continue
            if isinstance(other, ast.Constant) and isinstance(other.value, (int, float)) \
                    and not isinstance(other.value, bool):
                continue
            if isinstance(other, ast.Name) and (other.id in self.info.scalars
                                                or (isinstance(me, ast.Name) and other.id == me.id)):
                continue
            return False
        return True


def _names(node):
    if isinstance(node, ast.Name):
        return [node.id]
    if isinstance(node, (ast.Tuple, ast.List)):
        return [n for e in node.elts for n in _names(e)]
    return []


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


def _qualname(fn):
    from runtime.rules.registry import _name_of
    try:
        name = _name_of(fn)
    except Exception:
        name = repr(fn)
    mod = getattr(fn, "__module__", None)
    if mod and not name.startswith(("np.", "math.", "operator.", "builtins.")) and mod != "builtins" \
            and "." not in name:
        name = f"{mod}.{name}" if mod != "__main__" else name
    return name


def _copy_args(args):
    import copy
    return copy.deepcopy(args)


def function_def(name, args, body, lineno):
    """A located FunctionDef (``type_params`` on Python 3.12+)."""
    fn = ast.FunctionDef(name, args, body, [], None)
    if "type_params" in ast.FunctionDef._fields:
        fn.type_params = []
    fn.lineno = lineno
    fn.col_offset = 0
    return ast.fix_missing_locations(fn)


def reverse(ctx, core, info, wrt, preserve_result, name, seed_name):
    """The gradient FunctionDef ``name(params..., seed_name=...)`` for core function ``core``."""
    return Reverse(ctx, core, info, wrt, preserve_result, name, seed_name).run()
