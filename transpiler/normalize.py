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

from .errors import Unresolved
from .parsing import MISSING

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
    ast.If: ("`if` statements are not supported yet",
             "use a conditional expression (`a if cond else b`) or np.where for now"),
    ast.For: ("`for` loops are not supported yet", "vectorize the loop with numpy operations for now"),
    ast.While: ("`while` loops are not supported yet", "vectorize the loop with numpy operations for now"),
    ast.With: ("`with` blocks are not supported yet", "move the block outside the differentiated function"),
    ast.Try: ("`try` blocks are not supported yet", "move error handling outside the differentiated function"),
    ast.FunctionDef: ("nested function definitions are not supported yet",
                      "define the helper at module level and call it before differentiating"),
    ast.ClassDef: ("class definitions inside a differentiated function are not supported",
                   "define the class at module level"),
    ast.Global: ("`global` is not supported", "pass the value as an argument instead"),
    ast.Nonlocal: ("`nonlocal` is not supported", "pass the value as an argument instead"),
    ast.Delete: ("`del` is not supported", "remove the del statement"),
    ast.Import: ("imports inside a differentiated function are not supported", "import at module level"),
    ast.ImportFrom: ("imports inside a differentiated function are not supported", "import at module level"),
    ast.Raise: ("`raise` is not supported yet", "check inputs before calling the differentiated function"),
}
for _name, _msg in (("AsyncFor", "`async for`"), ("AsyncWith", "`async with`"), ("TryStar", "`try`"),
                    ("Match", "`match` statements")):
    if hasattr(ast, _name):
        _UNSUPPORTED_STMT[getattr(ast, _name)] = (f"{_msg} is not supported yet",
                                                  "rewrite it with numpy operations")

_UNSUPPORTED_EXPR = {
    ast.Lambda: ("lambdas are not supported", "define a module-level function with a derivative rule"),
    ast.ListComp: ("list comprehensions are not supported yet", "use numpy operations (np.stack, broadcasting)"),
    ast.SetComp: ("set comprehensions are not supported", "compute the set outside the function"),
    ast.DictComp: ("dict comprehensions are not supported", "compute the dict outside the function"),
    ast.GeneratorExp: ("generator expressions are not supported yet", "use numpy operations instead"),
    ast.NamedExpr: ("assignment expressions (:=) are not supported", "use a separate assignment"),
    ast.Await: ("await is not supported", "differentiate a synchronous function"),
    ast.Yield: ("generators cannot be differentiated", "return a value instead of yielding"),
    ast.YieldFrom: ("generators cannot be differentiated", "return a value instead of yielding"),
    ast.Starred: ("star-arguments are not supported", "pass the arguments one by one"),
}

_OPAQUE = (ast.JoinedStr, ast.Dict, ast.Set)

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
            self.shared.update((name, base))
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
        return new

    def statement(self, s):
        kind = type(s)
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
            if not isinstance(s.target, ast.Name):
                raise self.error("augmented assignment to an element or attribute mutates an array", s,
                                 "build a new array instead (e.g. x = x + ..., np.where, np.concatenate)")
            current = self.version.get(s.target.id)
            if current in self.shared:
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
            value = self.value(s.value)
            if isinstance(value, ast.Call):
                self.emit(ast.Expr(value), s)
            return
        if isinstance(s, ast.Assert):
            test = self.expr(s.test)
            msg = self.expr(s.msg) if s.msg is not None else None
            self.emit(ast.Assert(test, msg), s)
            return
        raise self.error(f"{kind.__name__} statements are not supported", s,
                         "rewrite the function as straight-line numpy code")

    def bind(self, target, value_node):
        """``target = value_node``: the common single-target assignment."""
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
        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value_node, (ast.Tuple, ast.List)):
            if any(isinstance(e, ast.Starred) for e in target.elts + value_node.elts):
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
                raise self.error("starred unpacking is not supported", target, "unpack element by element")
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
            raise self.error("assigning to an element (x[...] = ...) mutates an array, which is not "
                             "supported yet", target,
                             "build a new array instead: np.where, np.concatenate, or x + scatter")
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
        fn = self.resolve(func)
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
    """The user's function (``ctx.parsed.node``) in core form, as a new FunctionDef."""
    return Normalizer(ctx).run()
