"""Pass 2: desugar a function body into a small core that later passes handle case by case.

The core (printable with ``ast.unparse``) is a list of statements:

* ``name = value`` where ``value`` is one operation on *atoms* -- names, constants, and
  static global references such as ``np.pi``: a copy, ``a op b``, ``op a``, ``a < b``,
  a call ``f(a, b, k=c)`` (tuples of atoms allowed as arguments), ``a.shape``-style
  attribute reads, ``a[index]`` and tuple literals;
* ``if name: ... else: ...`` (from conditional expressions and ``and``/``or``);
* expression statements and asserts kept for their side effects; one final ``return``.

Every variable is assigned once (SSA): a reassigned user name gets a fresh version, so
the adjoint can read every intermediate value without saving anything.  Calls are
annotated with the resolved callable (``node._prim``); array methods and ``x.T`` become
the numpy functions they stand for.  Each statement remembers the user's statement it
came from (``stmt._src``) for comments and errors.
"""

import ast

import numpy as np

from . import inline
from ..core.errors import Unresolved
from ..core.ir import MISSING
from . import stacks
from . import structures
from . import sugar
from .restructure import Restructure, _assign, _mk
from .tfcalls import rewrite_tf_calls

__all__ = ["normalize", "ARRAY_METHODS", "CONSTANT_ATTRS"]

# array methods that are numpy functions with the array as first argument
ARRAY_METHODS = {
    "sum", "mean", "prod", "max", "min", "std", "var", "dot", "reshape", "transpose",
    "ravel", "flatten", "squeeze", "swapaxes", "clip", "cumsum", "cumprod", "repeat", "take",
    "trace", "diagonal", "round", "conj", "conjugate", "all", "any", "argmax", "argmin",
    "nonzero", "copy", "astype", "ptp", "sort", "argsort",
}
_VARARG_METHODS = {"reshape", "transpose"}   # x.reshape(2, 3) == np.reshape(x, (2, 3))
_METHOD_FUNCTION = {"flatten": "ravel", "conj": "conjugate"}
CONSTANT_ATTRS = {"shape", "ndim", "dtype", "size", "itemsize", "nbytes"}

_UNSUPPORTED_STMT = {
    ast.ClassDef: ("class definitions inside a differentiated function are not supported",
                   "define the class at module level"),
    ast.Global: ("`global` declares a module variable to write, and a differentiated function cannot "
                 "change module state", "read globals freely; return the new value instead of writing it"),
    ast.Nonlocal: ("`nonlocal` is not supported", "pass the value as an argument instead"),
    ast.Delete: ("`del` is not supported", "remove the del statement"),
    ast.Import: ("imports inside a differentiated function are not supported", "import at module level"),
    ast.ImportFrom: ("imports inside a differentiated function are not supported", "import at module level"),
    ast.Raise: ("`raise` inside a differentiated function is not supported: a gradient cannot pass "
                "through an exception", "check inputs before calling the differentiated function "
                "(an `assert` is kept and is fine)"),
}
for _name, _msg in (("AsyncFor", "`async for`"), ("AsyncWith", "`async with`"), ("TryStar", "`try`"),
                    ("Match", "`match` statements")):
    if hasattr(ast, _name):
        _UNSUPPORTED_STMT[getattr(ast, _name)] = (f"{_msg} is not supported yet",
                                                  "rewrite it with numpy operations")

_UNSUPPORTED_EXPR = {
    ast.Lambda: ("lambdas are not supported", "define a module-level function with a derivative rule"),
    ast.SetComp: ("set comprehensions are not supported", "compute the set outside the function"),
    ast.NamedExpr: ("assignment expressions (:=) are not supported", "use a separate assignment"),
    ast.Await: ("await is not supported", "differentiate a synchronous function"),
    ast.Yield: ("generators (`yield`) cannot be differentiated", "return a value (or a list of values) "
                "instead of yielding"),
    ast.YieldFrom: ("generators (`yield from`) cannot be differentiated", "return a value (or a list of values) "
                    "instead of yielding"),
    ast.Starred: ("star-arguments are not supported", "pass the arguments one by one"),
}

_OPAQUE = (ast.JoinedStr, ast.Set)

_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
        ast.Pow: "**", ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
        ast.LShift: "<<", ast.RShift: ">>"}
_VIEWS = {np.reshape, np.transpose, np.ravel, np.squeeze, np.expand_dims, np.swapaxes, np.moveaxis,
          np.broadcast_to, np.flip, np.asarray, np.diagonal, np.atleast_1d, np.atleast_2d}


def _view_base(value):
    """The local name whose array ``value`` may share (a copy, slice or view), else None."""
    if isinstance(value, ast.Name) and not getattr(value, "_static", False):
        return value.id
    if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name):
        return value.value.id
    if isinstance(value, ast.Call) and getattr(value, "_prim", None) in _VIEWS and value.args \
            and isinstance(value.args[0], ast.Name):
        return value.args[0].id
    return None   # evaluated as-is; never differentiable


def is_atom(node):
    return isinstance(node, (ast.Name, ast.Constant)) or getattr(node, "_static", False)


class Normalizer:
    def __init__(self, ctx):
        self.ctx = ctx
        self.parsed = ctx.parsed
        self.scope = ctx.parsed.scope
        self.version = {}        # user name -> current SSA name
        self.tuples = {}         # SSA name -> list of atoms (tuple literals)
        self.out = []            # statements being emitted
        self.src = None          # user statement being normalized
        self.first_stored = set()
        self.kinds = {}          # SSA name -> ast.Tuple or ast.List (tuple-literal variables)
        self.shared = set()      # SSA names whose array another name may share (copies, views)
        self.stack_methods = {}  # SSA name -> ("push" | "pop", stack): a generated gradient's stacks
        self.read_into = set()   # names an element was read from (x[i] may be a view of a row)
        self.unbound_after = set()  # range-loop targets with no value before the loop (see for_statement)

    # --- helpers ---------------------------------------------------------------------
    def error(self, message, node, hint=None):
        return self.ctx.error(message, node, hint)

    def emit(self, stmt, loc=None):
        stmt._src = self.src
        ast.copy_location(stmt, loc if loc is not None else self.src)
        self.out.append(stmt)
        return stmt

    def assign(self, name, value, loc=None):
        base = _view_base(value)
        if base is not None:
            # an element read (t = x[i]) may be a view of a row of x: x[j] = ... keeps t's value
            # (as Python does for a 1-d x), but `x += ...` changing the whole x is refused below
            if structures.element_read(value):
                self.shared.add(name)
                self.read_into.add(base)
            else:
                self.shared.update((name, base))
        stacks.note_assign(self, name, value)
        return self.emit(ast.Assign([ast.Name(name, ast.Store())], value), loc)

    def temp(self, value, loc):
        name = self.ctx.namer.temp()
        self.assign(name, value, loc)
        if isinstance(value, (ast.Tuple, ast.List)):
            self.tuples[name] = list(value.elts)
            self.kinds[name] = type(value)
        return ast.Name(name, ast.Load())

    def store(self, user_name):
        """A fresh SSA name for an assignment to ``user_name``."""
        if user_name in self.version or user_name in self.first_stored:
            name = self.ctx.namer.claim(user_name)
        else:
            name = user_name            # the first assignment keeps the user's name
        self.first_stored.add(user_name)
        self.version[user_name] = name
        getattr(self, "local_fns", {}).pop(user_name, None)     # no longer a nested function
        return name

    # --- statements --------------------------------------------------------------------
    def run(self):
        fn = self.parsed.node
        a = fn.args
        if a.vararg or a.kwarg:
            # allowed for the primal, but their names are ordinary locals
            for extra in (a.vararg, a.kwarg):
                if extra is not None:
                    self.ctx.namer.taken.add(extra.arg)
                    self.version[extra.arg] = extra.arg
        for arg in a.posonlyargs + a.args + a.kwonlyargs:
            self.ctx.namer.taken.add(arg.arg)
            self.version[arg.arg] = arg.arg
        body = list(fn.body)
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
                and isinstance(body[0].value.value, str):
            body = body[1:]
        self.ctx.handlers = []
        body = sugar.desugar_blocks(body, self.ctx.namer, self.ctx.handlers)
        self.fn_body = body = Restructure(self.ctx.namer).function_body(body, fn)
        returned = False
        for stmt in body:
            self.src = stmt
            self.statement(stmt)
            if isinstance(stmt, ast.Return):
                returned = True
                break
        if not returned:
            raise self.error(f"{fn.name}() has no return statement at its end, so it returns None",
                             fn, "return the value to differentiate as the function's last statement")
        new = ast.FunctionDef(fn.name, fn.args, self.out, [], None)
        if hasattr(ast.FunctionDef, "type_params") or "type_params" in ast.FunctionDef._fields:
            new.type_params = []
        ast.copy_location(new, fn)
        new._tuples = self.tuples
        new._stack_methods = self.stack_methods
        stacks.check_uses(self, new)
        return new

    def block(self, stmts):
        for stmt in stmts:
            saved, self.src = self.src, stmt
            self.statement(stmt)
            self.src = saved

    def statement(self, s):
        kind = type(s)
        if kind is ast.If:
            return self.if_statement(s)
        if kind is ast.For:
            return self.for_statement(s)
        if kind is ast.While:
            return self.while_statement(s)
        if kind in (ast.Break, ast.Continue):
            raise self.error(f"`{'break' if kind is ast.Break else 'continue'}` here is not supported", s,
                             "use it directly inside a for/while loop body (or an if inside one)")
        if kind is ast.FunctionDef:
            return inline.define(self, s)        # inlined where it is called (inline.py)
        if kind in _UNSUPPORTED_STMT:
            msg, hint = _UNSUPPORTED_STMT[kind]
            raise self.error(msg, s, hint)
        if isinstance(s, ast.Pass):
            return
        if isinstance(s, ast.Return):
            if s.value is None:
                raise self.error("the function returns None", s, "return the value to differentiate")
            if isinstance(s.value, ast.Tuple):
                elts = [self.expr(e) for e in s.value.elts]
                value = ast.Tuple([self.expand(e) for e in elts], ast.Load())
            else:
                value = self.expand(self.expr(s.value))
            self.emit(ast.Return(value), s)
            return
        if isinstance(s, ast.Assign):
            if len(s.targets) == 1:
                self.bind(s.targets[0], s.value)
            else:
                atom = self.expr(s.value)
                for t in s.targets:
                    self.bind_atom(t, atom)
            return
        if isinstance(s, ast.AnnAssign):
            if s.value is None:
                return
            self.bind(s.target, s.value)
            return
        if isinstance(s, ast.AugAssign):
            if isinstance(s.target, ast.Subscript):
                return structures.augmented_item(self, s)
            if not isinstance(s.target, ast.Name):
                raise self.error("augmented assignment to an attribute is not supported", s,
                                 "keep the value in a local variable")
            current = self.version.get(s.target.id)
            if current in self.shared or current in self.read_into:
                raise self.error(f"`{s.target.id} {_OPS.get(type(s.op), '?')}= ...` would change in place an "
                                 f"array that another name also refers to (a copy, view or slice), and "
                                 "adjoin treats it as a new value", s,
                                 f"write `{s.target.id} = {s.target.id} {_OPS.get(type(s.op), '?')} ...` "
                                 "(or take a .copy() first) so both meanings agree")
            load = ast.copy_location(ast.Name(s.target.id, ast.Load()), s.target)
            self.bind(s.target, ast.copy_location(ast.BinOp(load, s.op, s.value), s))
            return
        if isinstance(s, ast.Expr):
            if isinstance(s.value, ast.Constant):
                return
            if structures.method_statement(self, s):
                return
            value = self.value(s.value)
            if getattr(value, "_stack_pop", None):
                self.temp(value, s)     # a bare pop() is named, so each pass mirrors it (stacks.py)
            elif isinstance(value, ast.Call):
                self.emit(ast.Expr(value), s)
            return
        if isinstance(s, ast.Assert):
            test = self.expr(s.test)
            msg = self.expr(s.msg) if s.msg is not None else None
            self.emit(ast.Assert(test, msg), s)
            return
        raise self.error(f"{kind.__name__} statements are not supported", s,
                         "rewrite the function as straight-line numpy code")

    # --- control flow --------------------------------------------------------------------
    def atom_name(self, atom, loc):
        """``atom`` as a local name (constants and globals get a temporary)."""
        if isinstance(atom, ast.Name) and not getattr(atom, "_static", False):
            return atom
        name = self.ctx.namer.temp()
        self.assign(name, atom, loc)
        return ast.Name(name, ast.Load())

    def sub_block(self, stmts):
        """Normalize ``stmts`` into a fresh list; returns (statements, versions after)."""
        saved_out, saved_version = self.out, dict(self.version)
        self.out = []
        self.block(stmts)
        out, after = self.out, self.version
        self.out, self.version = saved_out, saved_version
        return out, after

    def if_statement(self, s):
        test = self.atom_name(self.expr(s.test), s.test)
        body, vb = self.sub_block(s.body)
        orelse, vo = self.sub_block(s.orelse)
        for user in sorted(set(vb) | set(vo)):
            if vb.get(user) == vo.get(user):
                if user in vb:
                    self.version[user] = vb[user]
                continue
            merged = self.ctx.namer.claim(user)
            for out, ver in ((body, vb), (orelse, vo)):
                src = ver.get(user)
                value = ast.Name(src, ast.Load()) if src is not None else ast.Constant(None)
                if src in self.shared:
                    self.shared.add(merged)
                if src in self.read_into:
                    self.read_into.add(merged)
                out.append(self.make_assign(merged, value, s))
            self.first_stored.add(user)
            self.version[user] = merged
        self.emit(ast.If(test, body or [ast.Pass()], orelse or [ast.Pass()]), s)

    def assigned_names(self, stmts):
        out = set()
        for st in stmts:
            for n in ast.walk(st):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    out.add(n.id)
                elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
                    out.add(n.target.id)
        return out | structures.mutated_names(stmts)

    def loaded_outside(self, loop):
        inside = {id(n) for n in ast.walk(loop)}
        return {n.id for st in self.fn_body for n in ast.walk(st)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and id(n) not in inside}

    def enter_loop(self, loop, stmts, exclude=()):
        """Carried names: user variables the body assigns that live across iterations."""
        assigned = self.assigned_names(stmts) - set(exclude)
        outside = self.loaded_outside(loop)
        carried = []
        for user in sorted(assigned):
            if user in self.version or user in outside:
                name = self.ctx.namer.claim(user)
                src = self.version.get(user)
                self.emit(self.make_assign(name, ast.Name(src, ast.Load()) if src else ast.Constant(None), loop),
                          loop)
                if src in self.shared:
                    self.shared.add(name)
                if src in self.read_into:
                    self.read_into.add(name)
                self.first_stored.add(user)
                self.version[user] = name
                carried.append((user, name))
        return carried

    def back_edges(self, carried, loc):
        structures.check_carried_writes(self, carried)
        for user, name in carried:
            current = self.version.get(user)
            if current != name:
                src = self.out[-1]._src if self.out and getattr(self.out[-1], "_src", None) else self.src
                st = self.make_assign(name, ast.Name(current, ast.Load()) if current else ast.Constant(None), loc)
                st._backedge = True
                self.out.append(st)
                st._src = src
            self.version[user] = name

    def for_statement(self, s):
        it = s.iter
        fn = None
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id not in self.version:
            try:
                fn = self.resolve(it.func)
            except Unresolved:
                fn = None
        brk = getattr(s, "_break", None)
        if fn is range and isinstance(s.target, ast.Name) and not it.keywords and brk is None \
                and not any(isinstance(a, ast.Starred) for a in it.args):
            args = [self.expr(a) for a in it.args]
            carried = self.enter_loop(s, s.body, exclude=[s.target.id])
            previous = self.version.get(s.target.id)
            target = self.store(s.target.id)
            if previous is not None and previous not in self.unbound_after:
                # zero trips leave the target at its previous value, as in Python
                self.emit(self.make_assign(target, ast.Name(previous, ast.Load()), s), s)
            else:
                self.unbound_after.add(target)   # unbound after zero trips, as in Python
            before = dict(self.version)
            self.version[s.target.id] = target
            saved_out, self.out = self.out, []
            self.block(s.body)
            self.back_edges(carried, s)
            body, self.out = self.out, saved_out
            self.version = before
            self.version[s.target.id] = target
            call = ast.copy_location(ast.Call(ast.Name(it.func.id, ast.Load()), args, []), it)
            call._prim = range
            loop = ast.copy_location(ast.For(ast.Name(target, ast.Store()), call, body or [ast.Pass()], [], None), s)
            loop._carried = [c for _, c in carried]
            loop._src = self.src
            self.out.append(loop)
            return
        # any other iterable: an index loop over its length
        setup, length, bind = self.iteration(s.target, it, fn, s)
        k = self.ctx.namer.claim("k")
        for st in setup:
            self.statement(st)
        if brk is None:
            rng = _mk(ast.Call(ast.Name(self.ctx.ref(range, "range").id, ast.Load()), [length], []), s)
            new = _mk(ast.For(ast.Name(k, ast.Store()), rng, bind(k) + list(s.body), [], None), s)
            return self.for_statement(new)
        # with break: k = 0; while not broke and k < n: target = seq[k]; k += 1; body
        n = self.ctx.namer.claim("n")
        self.statement(_assign(n, length, s))
        self.statement(_assign(k, ast.Constant(0), s))
        test = _mk(ast.BoolOp(ast.And(), [ast.UnaryOp(ast.Not(), ast.Name(brk, ast.Load())),
                                          ast.Compare(ast.Name(k, ast.Load()), [ast.Lt()],
                                                      [ast.Name(n, ast.Load())])]), s)
        step = _assign(k, ast.BinOp(ast.Name(k, ast.Load()), ast.Add(), ast.Constant(1)), s)
        self.while_statement(_mk(ast.While(test, bind(k) + [step] + list(s.body), []), s))

    def iteration(self, target, it, fn, loc):
        """(setup statements, length expression, k -> statements binding the target)."""
        import copy
        load = lambda n: ast.Name(n, ast.Load())  # noqa: E731
        if fn in (zip, enumerate) and not it.keywords[1:] and it.args:
            if fn is enumerate:
                seqs = it.args[:1]
                start = it.args[1] if len(it.args) > 1 else (it.keywords[0].value if it.keywords else ast.Constant(0))
            else:
                seqs, start = it.args, None
            seqs = [self.unreversed(sq) for sq in seqs]
            names = [self.ctx.namer.claim("seq") for _ in seqs]
            setup = [_assign(nm, sq, loc) for nm, sq in zip(names, seqs)]
            lens = [ast.Call(ast.Name("len", ast.Load()), [load(nm)], []) for nm in names]
            length = lens[0] if len(lens) == 1 else ast.Call(ast.Name("min", ast.Load()), lens, [])
            if isinstance(target, (ast.Tuple, ast.List)) and len(target.elts) == (2 if fn is enumerate else len(seqs)):
                def bind(k):
                    items = [load(k) if start is None or (isinstance(start, ast.Constant) and start.value == 0)
                             else ast.BinOp(load(k), ast.Add(), copy.deepcopy(start))] if fn is enumerate else []
                    items += [ast.Subscript(load(nm), load(k), ast.Load()) for nm in names]
                    return [_mk(ast.Assign([copy.deepcopy(t)], v), loc) for t, v in zip(target.elts, items)]
                return setup, _mk(length, loc), bind
            raise self.error(f"unpack the items of {fn.__name__}(...) into {2 if fn is enumerate else len(seqs)} "
                             "names in the for statement", target, "write `for i, x in ...`")
        views = structures.dict_view_iteration(self, target, it, loc)
        if views is not None:
            return views
        if fn is range:
            name = self.ctx.namer.claim("seq")
            return ([_assign(name, it, loc)], _mk(ast.Call(ast.Name("len", ast.Load()), [load(name)], []), loc),
                    lambda k: [_mk(ast.Assign([copy.deepcopy(target)],
                                              ast.Subscript(load(name), load(k), ast.Load())), loc)])
        it = self.unreversed(it)
        name = self.ctx.namer.claim("seq")
        return ([_assign(name, it, loc)], _mk(ast.Call(ast.Name("len", ast.Load()), [load(name)], []), loc),
                lambda k: [_mk(ast.Assign([copy.deepcopy(target)],
                                          ast.Subscript(load(name), load(k), ast.Load())), loc)])

    def unreversed(self, node):
        """``reversed(seq)`` as ``seq[::-1]``: ranges, arrays and lists slice to something indexable."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id not in self.version \
                and len(node.args) == 1 and not node.keywords:
            try:
                fn = self.resolve(node.func)
            except Unresolved:
                return node
            if fn is reversed:
                return _mk(ast.Subscript(node.args[0], ast.Slice(None, None, ast.Constant(-1)), ast.Load()), node)
        return node

    def while_statement(self, s):
        if s.orelse:
            raise self.error("`while ... else` is handled by the restructuring step", s, "")
        carried = self.enter_loop(s, s.body + [ast.Expr(s.test)])
        cond = self.ctx.namer.claim("cond")
        self.assign(cond, self.expr(s.test), s.test)
        before = dict(self.version)
        saved_out, self.out = self.out, []
        self.block(s.body)
        saved_src, self.src = self.src, s
        new = self.expr(s.test)
        st = self.make_assign(cond, new, s.test)
        st._backedge = True
        self.emit(st, s.test)
        self.back_edges(carried, s)
        self.src = saved_src
        body, self.out = self.out, saved_out
        self.version = before
        loop = ast.copy_location(ast.While(ast.Name(cond, ast.Load()), body, []), s)
        loop._carried = [c for _, c in carried] + [cond]
        loop._src = self.src
        self.out.append(loop)

    def bind(self, target, value_node):
        """``target = value_node``: the common single-target assignment."""
        if isinstance(target, ast.Name) and isinstance(value_node, ast.Lambda):
            return inline.define_lambda(self, target, value_node)
        if isinstance(target, ast.Name):
            value = self.value(value_node)
            name = self.store(target.id)
            self.assign(name, value, value_node)
            if isinstance(value, (ast.Tuple, ast.List)):
                self.tuples[name] = list(value.elts)
                self.kinds[name] = type(value)
            elif isinstance(value, ast.Name) and value.id in self.tuples:
                self.tuples[name] = self.tuples[value.id]
                self.kinds[name] = self.kinds.get(value.id, ast.Tuple)
            return
        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value_node, (ast.Tuple, ast.List)) \
                and not any(isinstance(e, ast.Starred) for e in target.elts):
            if any(isinstance(e, ast.Starred) for e in value_node.elts):
                raise self.error("starred unpacking is not supported", target, "unpack element by element")
            if len(target.elts) != len(value_node.elts):
                raise self.error(f"cannot unpack {len(value_node.elts)} values into "
                                 f"{len(target.elts)} names", target, "make both sides the same length")
            atoms = [self.expr(v) for v in value_node.elts]      # all right-hand sides first
            for t, a in zip(target.elts, atoms):
                self.bind_atom(t, a)
            return
        self.bind_atom(target, self.expr(value_node))

    def bind_atom(self, target, atom):
        if isinstance(target, ast.Name):
            name = self.store(target.id)
            self.assign(name, atom, target)
            if isinstance(atom, ast.Name) and atom.id in self.tuples:
                self.tuples[name] = self.tuples[atom.id]
                self.kinds[name] = self.kinds.get(atom.id, ast.Tuple)
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            if any(isinstance(e, ast.Starred) for e in target.elts):
                return structures.starred_unpack(self, target, atom)
            elts = self.tuples.get(atom.id) if isinstance(atom, ast.Name) else None
            if elts is not None:
                if len(elts) != len(target.elts):
                    raise self.error(f"cannot unpack {len(elts)} values into {len(target.elts)} names",
                                     target, "make both sides the same length")
                for t, e in zip(target.elts, elts):
                    self.bind_atom(t, e)
                return
            for i, t in enumerate(target.elts):
                item = ast.copy_location(ast.Subscript(atom, ast.Constant(i), ast.Load()), target)
                if isinstance(t, ast.Name):
                    name = self.store(t.id)
                    self.assign(name, item, target)
                else:
                    self.bind_atom(t, self.temp(item, target))
            return
        if isinstance(target, ast.Subscript):
            return structures.store_item(self, target, atom)
        if isinstance(target, ast.Attribute):
            raise self.error("assigning to an attribute is not supported", target,
                             "keep the value in a local variable")
        raise self.error(f"cannot assign to {type(target).__name__}", target, "assign to a plain name")

    # --- expressions -------------------------------------------------------------------
    def expand(self, atom):
        """A tuple-literal variable as its tuple (so returns and call arguments see elements)."""
        if isinstance(atom, ast.Name) and atom.id in self.tuples:
            kind = self.kinds.get(atom.id, ast.Tuple)
            return kind([self.expand(e) for e in self.tuples[atom.id]], ast.Load())
        return atom

    def expr(self, node):
        """Normalize ``node`` to an atom, emitting statements for its parts."""
        value = self.value(node)
        if is_atom(value):
            return value
        return self.temp(value, node)

    def static(self, node):
        """True when ``node`` is a dotted name rooted at a global/closure name (np.pi)."""
        while isinstance(node, ast.Attribute):
            node = node.value
        return isinstance(node, ast.Name) and node.id not in self.version

    def resolve(self, node):
        try:
            return self.scope.evaluate(node)
        except Unresolved as e:
            if isinstance(node, ast.Attribute):
                raise self.error(f"`{ast.unparse(node)}` does not exist", node,
                                 "check the spelling of the attribute") from None
            raise Unresolved(e.name, node) from None

    def value(self, node):
        """Normalize ``node`` to a core value (one operation on atoms)."""
        kind = type(node)
        if kind in _UNSUPPORTED_EXPR:
            msg, hint = _UNSUPPORTED_EXPR[kind]
            raise self.error(msg, node, hint)
        loc = lambda new: ast.copy_location(new, node)  # noqa: E731
        if isinstance(node, ast.Constant):
            return loc(ast.Constant(node.value))
        if isinstance(node, ast.Name):
            if inline.is_local_function(self, node.id):
                raise self.error(f"the nested function {node.id} is used as a value", node,
                                 f"define {node.id} at module level to pass it around")
            if node.id in self.version:
                return loc(ast.Name(self.version[node.id], ast.Load()))
            if self.scope.lookup(node.id) is MISSING:
                raise Unresolved(node.id, node)
            new = loc(ast.Name(node.id, ast.Load()))
            new._static = True
            return new
        if isinstance(node, ast.BinOp):
            return loc(ast.BinOp(self.expr(node.left), node.op, self.expr(node.right)))
        if isinstance(node, ast.UnaryOp):
            return loc(ast.UnaryOp(node.op, self.expr(node.operand)))
        if isinstance(node, ast.Compare):
            if len(node.ops) == 1:
                return loc(ast.Compare(self.expr(node.left), node.ops, [self.expr(node.comparators[0])]))
            # a < b < c  ->  (a < b) and (b < c), each operand evaluated once
            left = self.expr(node.left)
            rights = []
            parts = []
            for op, comp in zip(node.ops, node.comparators):
                parts.append((op, comp))
            return self.chain(left, parts, node)
        if isinstance(node, ast.BoolOp):
            return self.boolop(node)
        if isinstance(node, ast.IfExp):
            test = self.expr(node.test)
            result = self.ctx.namer.temp()
            body = self.branch(node.body, result)
            orelse = self.branch(node.orelse, result)
            self.emit(ast.If(test, body, orelse), node)
            return loc(ast.Name(result, ast.Load()))
        if isinstance(node, ast.Call):
            return self.call(node)
        if isinstance(node, ast.Attribute):
            if self.static(node):
                self.resolve(node)
                new = loc(ast.Attribute(self.value(node.value), node.attr, ast.Load()))
                new._static = True
                return new
            base = self.expr(node.value)
            if node.attr == "T":
                return self.numpy_call(np.transpose, "transpose", [base], [], node)
            new = loc(ast.Attribute(base, node.attr, ast.Load()))
            new._attr = node.attr
            return new
        if isinstance(node, ast.Subscript):
            base = self.expr(node.value)
            index = self.index(node.slice)
            item = inline.kwarg_item(self, base, index)
            if item is not None:
                return item
            if isinstance(base, ast.Name) and base.id in self.tuples and isinstance(index, ast.Constant) \
                    and isinstance(index.value, int):
                elts = self.tuples[base.id]
                if -len(elts) <= index.value < len(elts):
                    return elts[index.value]
            return loc(ast.Subscript(base, index, ast.Load()))
        if isinstance(node, (ast.Tuple, ast.List)):
            if any(isinstance(e, ast.Starred) for e in node.elts):
                raise self.error("starred elements are not supported", node, "list the elements one by one")
            return loc(type(node)([self.expand(self.expr(e)) for e in node.elts], ast.Load()))
        if isinstance(node, (ast.ListComp, ast.GeneratorExp, ast.DictComp)):
            return structures.comprehension(self, node)
        if isinstance(node, ast.Dict):
            return structures.dict_literal(self, node)
        if isinstance(node, _OPAQUE):
            new = self.rename_loads(node)
            new._opaque = True
            return new
        if isinstance(node, ast.Slice):
            raise self.error("a slice outside of an index", node, "use slice(...) explicitly")
        raise self.error(f"{kind.__name__} expressions are not supported", node,
                         "rewrite the expression with numpy operations")

    def rename_loads(self, node):
        import copy
        new = copy.deepcopy(node)
        for n in ast.walk(new):
            if isinstance(n, ast.Name) and n.id in self.version:
                n.id = self.version[n.id]
        return new

    def chain(self, left, parts, node):
        """Chained comparison as nested conditionals (short-circuit like Python)."""
        op, comp = parts[0]
        right = self.expr(comp)
        first = ast.copy_location(ast.Compare(left, [op], [right]), node)
        if len(parts) == 1:
            return first
        test = self.temp(first, node)
        result = self.ctx.namer.temp()
        saved, self.out = self.out, []
        rest = self.chain(right, parts[1:], node)
        self.assign(result, rest, node)
        body, self.out = self.out, saved
        orelse = [self.make_assign(result, test, node)]
        self.emit(ast.If(test, body, orelse), node)
        return ast.Name(result, ast.Load())

    def make_assign(self, name, value, loc):
        s = ast.Assign([ast.Name(name, ast.Store())], value)
        s._src = self.src
        return ast.copy_location(s, loc)

    def boolop(self, node):
        """``a and b`` -> ``b if a else a``; ``a or b`` -> ``a if a else b`` (short-circuit)."""
        first = self.expr(node.values[0])
        if len(node.values) == 1:
            return first
        rest = ast.copy_location(ast.BoolOp(node.op, node.values[1:]), node) if len(node.values) > 2 \
            else node.values[1]
        result = self.ctx.namer.temp()
        other = self.branch(rest, result)
        keep = [self.make_assign(result, first, node)]
        body, orelse = (other, keep) if isinstance(node.op, ast.And) else (keep, other)
        self.emit(ast.If(first, body, orelse), node)
        return ast.Name(result, ast.Load())

    def branch(self, expr_node, result):
        saved, self.out = self.out, []
        value = self.value(expr_node)
        self.assign(result, value, expr_node)
        body, self.out = self.out, saved
        return body

    def index(self, node):
        """An index expression with atoms for its parts (slices and tuples kept as syntax)."""
        if isinstance(node, ast.Slice):
            parts = [None if p is None else self.expr(p) for p in (node.lower, node.upper, node.step)]
            return ast.copy_location(ast.Slice(*parts), node)
        if isinstance(node, ast.Tuple):
            return ast.copy_location(ast.Tuple([self.index(e) for e in node.elts], ast.Load()), node)
        if hasattr(ast, "Index") and isinstance(node, getattr(ast, "Index")):  # Python < 3.9 only
            return self.index(node.value)
        if isinstance(node, (ast.List,)):
            return self.expand(self.expr(node))
        return self.expand(self.expr(node))

    def numpy_call(self, fn, attr, args, keywords, node):
        func = self.ctx.ref_attr(np, "np", attr)
        call = ast.copy_location(ast.Call(func, args, keywords), node)
        call._prim = fn
        return call

    def argument(self, node):
        if isinstance(node, ast.Starred):
            raise self.error("star-arguments are not supported", node, "pass the arguments one by one")
        if isinstance(node, (ast.Tuple, ast.List)):
            v = self.value(node)
            return v
        return self.expand(self.expr(node))

    def call(self, node):
        func = node.func
        if any(k.arg is None for k in node.keywords):
            raise self.error("**keyword arguments are not supported", node, "pass keywords one by one")
        if isinstance(func, ast.Name) and self.version.get(func.id) in self.stack_methods:
            return stacks.local_call(self, node)      # push(x) / x = pop() in generated code
        # method call on a local value: x.sum(axis=0) -> np.sum(x, axis=0)
        if isinstance(func, ast.Attribute) and not self.static(func):
            base = self.expr(func.value)
            args = [self.argument(a) for a in node.args]
            keywords = [ast.keyword(k.arg, self.argument(k.value)) for k in node.keywords]
            meth = func.attr
            if meth in ARRAY_METHODS:
                attr = _METHOD_FUNCTION.get(meth, meth)
                if attr == "astype" and not hasattr(np, "astype"):
                    attr = None
                if attr is not None:
                    if meth in _VARARG_METHODS and len(args) > 1:
                        args = [ast.Tuple(args, ast.Load())]
                    if meth == "transpose" and len(args) == 1 and isinstance(args[0], ast.Constant) \
                            and args[0].value is None:
                        args = []
                    return self.numpy_call(getattr(np, attr), attr, [base] + args, keywords, node)
            call = ast.copy_location(ast.Call(ast.Attribute(base, meth, ast.Load()), args, keywords), node)
            call._prim = None
            call._method = meth
            return call
        if isinstance(func, ast.Name) and inline.is_local_function(self, func.id):
            return inline.call(self, node)
        if isinstance(func, ast.Name) and func.id in self.version:
            # a local callable (a parameter, a function passed in): found when the code runs
            call = ast.copy_location(ast.Call(self.value(func), [self.argument(a) for a in node.args],
                                              [ast.keyword(k.arg, self.argument(k.value))
                                               for k in node.keywords]), node)
            call._prim = None
            call._dynamic = True
            return call
        fn = self.resolve(func)
        special = structures.special_call(self, fn, node)
        if special is not None:
            return special
        if isinstance(func, ast.Name):
            new_func = ast.copy_location(ast.Name(func.id, ast.Load()), func)
        else:
            new_func = self.value(func)
        args = [self.argument(a) for a in node.args]
        keywords = [ast.keyword(k.arg, self.argument(k.value)) for k in node.keywords]
        call = ast.copy_location(ast.Call(new_func, args, keywords), node)
        call._prim = fn
        return call


def normalize(ctx):
    """The user's function (``ctx.parsed.node``) in core form, as a new FunctionDef
    (``tf.*`` calls already written as the numpy primitives they are: tfcalls.py)."""
    return rewrite_tf_calls(Normalizer(ctx).run(), ctx)
