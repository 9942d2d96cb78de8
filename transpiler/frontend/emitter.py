"""The state of one normalization and the helpers every construct uses.

``Emitter`` holds the SSA versions of the user's names and the core statements emitted so
far; the constructs (statements.py, control/loops.py, expressions.py, calls/sites.py and the modules
they call) build on ``emit``/``assign``/``expr``.  Together they make normalize.Normalizer.
"""

import ast

import numpy as np

from runtime.rules.containers import append_at, setitem

from ..core import annotations as anno
from ..core.astutil import walk
from ..core.errors import Unresolved
from .calls.primal_helpers import unbound_local_
from .effects import checks
from . import gradient_stacks
from .containers import writes
from .objects import instances

__all__ = ["Emitter", "is_atom"]

_VIEWS = {np.reshape, np.transpose, np.ravel, np.squeeze, np.expand_dims, np.swapaxes, np.moveaxis,
          np.broadcast_to, np.flip, np.asarray, np.diagonal, np.atleast_1d, np.atleast_2d, np.atleast_3d,
          np.real, np.imag, np.asanyarray, np.ascontiguousarray, np.asfortranarray, np.require, np.rollaxis,
          np.fliplr, np.flipud, np.rot90, np.split, np.array_split, np.hsplit, np.vsplit, np.dsplit,
          np.broadcast_arrays, np.lib.stride_tricks.as_strided, getattr}
_VIEWS |= {getattr(np, n) for n in ("matrix_transpose", "permute_dims", "unstack") if hasattr(np, n)}

_COPIES = {np.array} | ({np.astype} if hasattr(np, "astype") else set())


_NEW_ATTRS = {"shape", "ndim", "dtype", "size", "itemsize", "nbytes"}     # an array's own new values, not views


def _view_base(value):
    """The local name whose array ``value`` may share (a copy, slice or view), else None."""
    if isinstance(value, ast.Name) and not anno.get(value, "static", False) and not anno.get(value, "fresh", False):
        return value.id
    if isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name):
        return value.value.id
    if isinstance(value, ast.Call) and anno.get(value, "prim") in _VIEWS and value.args \
            and isinstance(value.args[0], ast.Name):
        return value.args[0].id
    if isinstance(value, ast.Call) and anno.get(value, "prim", 0) in _COPIES and value.args \
            and isinstance(value.args[0], ast.Name) and any(k.arg == "copy" for k in value.keywords):
        return value.args[0].id      # np.array(x, copy=False), x.astype(t, copy=False) may be x itself
    if isinstance(value, ast.Call) and anno.get(value, "method") and isinstance(value.func, ast.Attribute) \
            and isinstance(value.func.value, ast.Name):
        return value.func.value.id   # x.view(), x.getfield(...): any method may return a view or x itself
    if anno.get(value, "attr") and isinstance(value.value, ast.Name) and value.attr not in _NEW_ATTRS:
        return value.value.id        # x.real, x.imag, x.flat, o.items: a view, or an object o holds
    if isinstance(value, ast.Call) and value.args is not None:
        for a in checks.returned_arguments(anno.get(value, "prim"), value.args, value.keywords):
            for n in walk(a):    # (a list passed by name reaches here as its literal)
                if isinstance(n, ast.Name) and not anno.get(n, "static", False):
                    return n.id      # m = ident(l): a function of yours that may return l itself
    return None   # evaluated as-is; never differentiable


def _fresh(value):
    """An expression whose result is a new array (arithmetic, a ufunc): reading a view in it
    does not let the view outlive the statement."""
    if isinstance(value, (ast.BinOp, ast.UnaryOp, ast.Compare, ast.Constant)):
        return True
    prim = anno.get(value, "prim") if isinstance(value, ast.Call) else None
    return isinstance(prim, np.ufunc) or prim in _NEW_ARRAYS or prim is setitem and len(value.args) == 3


_NEW_ARRAYS = {np.sum, np.mean, np.prod, np.max, np.min, np.amax, np.amin, np.std, np.var, np.dot,
               np.cumsum, np.cumprod, np.concatenate, np.stack, np.copy, np.outer, np.einsum}


def is_atom(node):
    return isinstance(node, (ast.Name, ast.Constant)) or anno.get(node, "static", False)


class Emitter:
    """Base of Normalizer: the SSA state of one function and how core statements are emitted."""

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
        self.dicts = set()       # SSA names known to hold a dict
        self.lists = set()       # SSA names known to hold a list
        self.shared = set()      # SSA names whose array another name may share (copies, views)
        self.stack_methods = {}  # SSA name -> ("push" | "pop", stack): a generated gradient's stacks
        self.read_into = set()   # names an element was read from (x[i] may be a view of a row)
        self.view_roots = {}     # temporary view -> the name it views, until the view escapes
        self.unbound_after = set()  # range-loop targets with no value before the loop (see for_statement)
        self.unbound = set()     # user names local to the function being lowered (source/scopes.py): not
        #                          in `version` yet, a read of one raises UnboundLocalError, as in Python
        self.static_names = set()   # global names read as written (a local may not take such a name)
        self.constants = {}      # SSA name -> the constant it is assigned (once: `assign` makes SSA names)
        self.renamed_globals = {}   # (global name, id(object)) -> the fresh name it is read by instead

    # --- emitting -----------------------------------------------------------------------
    def error(self, message, node, hint=None):
        return self.ctx.error(message, node, hint)

    def emit(self, stmt, loc=None):
        if not isinstance(stmt, ast.Assign):       # a loop, return, ...: any view it reads escapes
            self.escape_views(stmt)
        anno.put(stmt, "src", self.src)
        ast.copy_location(stmt, loc if loc is not None else self.src)
        self.out.append(stmt)
        return stmt

    def escape_views(self, node):
        """Temporary views read in ``node`` may now outlive their statement: the names they view
        become shared (a later write through them is refused)."""
        if not self.view_roots:
            return                 # (most statements: nothing to look for)
        for n in walk(node):
            if isinstance(n, ast.Name) and n.id in self.view_roots:
                self.shared.add(self.view_roots.pop(n.id))

    def assign(self, name, value, loc=None):
        base = _view_base(value)
        if base is None and not _fresh(value):
            self.escape_views(value)
        if base is not None:
            # an element read (t = x[i]) may be a view of a row of x: x[j] = ... keeps t's value
            # (as Python does for a 1-d x), but `x += ...` changing the whole x is refused below
            if writes.element_read(value):
                self.escape_views(value)
                self.shared.add(name)
                self.read_into.add(base)
            elif name in self.ctx.namer.temps and not writes.element_read(value):
                # `y[1:] = y[:-1] * 2.0`: the view y[:-1] only feeds the arithmetic, so y is not
                # shared unless the view is kept (named, stored, passed on: escape_views)
                self.shared.add(name)
                self.view_roots[name] = self.view_roots.get(base, base)
            else:
                self.escape_views(value)
                self.shared.update((name, base))
        if isinstance(value, ast.Dict) or isinstance(value, ast.Call) and anno.get(value, "prim") is setitem \
                and isinstance(value.args[0], ast.Name) and value.args[0].id in self.dicts \
                or isinstance(value, ast.Name) and value.id in self.dicts:
            self.dicts.add(name)         # built as a dict here: `for k in d` iterates its keys
        if isinstance(value, ast.List) or isinstance(value, ast.Call) and anno.get(value, "prim") in (
                setitem, append_at) and isinstance(value.args[0], ast.Name) and value.args[0].id in self.lists \
                or isinstance(value, ast.Name) and value.id in self.lists:
            self.lists.add(name)         # a list: `.copy()` copies the list, not into an array
        if anno.get(value, "element", False):
            self.shared.add(name)        # r = grid[0]: r is the inner list of grid, not a copy
        if isinstance(value, ast.Call) and anno.get(value, "prim") in (setitem, append_at) \
                and isinstance(value.args[2], ast.Name) and not anno.get(value.args[2], "static", False):
            self.shared.add(value.args[2].id)   # {"a": l}: the dict holds l itself
        if isinstance(value, (ast.Tuple, ast.List)):
            # an element of a tuple or list literal is that very object: a later write into it
            # (x[0] = ...) would show through the container too
            self.shared.update(e.id for e in value.elts if isinstance(e, ast.Name) and not anno.get(e, "static", False))
        if isinstance(value, ast.Constant):
            self.constants[name] = value.value       # (read by objects/instances.Objects.item)
        gradient_stacks.note_assign(self, name, value)
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
        if user_name in self.version or user_name in self.first_stored or user_name in self.static_names:
            name = self.ctx.namer.claim(user_name)
        else:
            name = user_name            # the first assignment keeps the user's name
        self.first_stored.add(user_name)
        self.version[user_name] = name
        getattr(self, "local_fns", {}).pop(user_name, None)     # no longer a nested function
        return name

    def make_assign(self, name, value, loc):
        if isinstance(value, ast.Name) and not isinstance(value.id, str):
            raise self.error(f"the {value.id.cls.__name__} object made in this function changes across a loop "
                             "or a branch here, which adjoin does not follow", loc,
                             "make it once before the loop or branch and change its attributes instead")
        s = ast.Assign([ast.Name(name, ast.Store())], value)
        anno.put(s, "src", self.src)
        return ast.copy_location(s, loc)

    def atom_name(self, atom, loc):
        """``atom`` as a local name (constants and globals get a temporary)."""
        if isinstance(atom, ast.Name) and not anno.get(atom, "static", False):
            return atom
        name = self.ctx.namer.temp()
        self.assign(name, atom, loc)
        return ast.Name(name, ast.Load())

    # --- blocks and atoms -----------------------------------------------------------------
    def block(self, stmts):
        for stmt in stmts:
            saved, self.src = self.src, stmt
            self.statement(stmt)
            self.src = saved

    def sub_block(self, stmts):
        """Normalize ``stmts`` into a fresh list; returns (statements, versions after)."""
        saved_out, saved_version = self.out, dict(self.version)
        self.out = []
        self.block(stmts)
        out, after = self.out, self.version
        self.out, self.version = saved_out, saved_version
        return out, after

    def expand(self, atom):
        """A tuple-literal variable as its tuple (so returns and call arguments see elements)."""
        if isinstance(atom, ast.Name) and atom.id in self.tuples:
            kind = self.kinds.get(atom.id, ast.Tuple)
            return kind([self.expand(e) for e in self.tuples[atom.id]], ast.Load())
        return atom

    def expr(self, node):
        """Normalize ``node`` to an atom, emitting statements for its parts."""
        value = self.value(node)
        if is_atom(value) or not isinstance(value, ast.AST):
            return value                 # (or an object made in the function: objects/instances.py)
        return self.temp(value, node)

    def plain(self, value, node):
        """``value`` where an AST value must stand (an operand, an index, an argument, a condition): an
        object made in the function (objects/instances.py) is refused there, at ``node``."""
        if instances.is_object(value):
            raise instances.escape_error(self, node, value)
        from .calls.nested import is_function_value      # (nested imports this module's users)
        if is_function_value(value):
            raise self.error("a function made by a call is used here as a value", node,
                             "call it, or bind it to a name and call that")
        return value

    def atom(self, node):
        """``expr(node)``, refusing an object made in the function (``plain``)."""
        return self.plain(self.expr(node), node)

    def static(self, node):
        """True when ``node`` is a dotted name rooted at a global/closure name (np.pi)."""
        while isinstance(node, ast.Attribute):
            node = node.value
        return isinstance(node, ast.Name) and node.id not in self.version and node.id not in self.unbound

    def is_unbound(self, name):
        """Is ``name`` a local of the function being lowered that has no value here (a read raises
        UnboundLocalError, whatever global or enclosing variable has that name)?"""
        return name in self.unbound and name not in self.version and name not in getattr(self, "local_fns", {})

    def unbound_read(self, node):
        """A read of a local with no value: a call that raises Python's UnboundLocalError when it runs
        (the read may sit on a path that never runs)."""
        call = ast.copy_location(ast.Call(self.ctx.ref(unbound_local_, "unbound_local_"),
                                          [ast.Constant(node.id)], []), node)
        anno.put(call, "prim", unbound_local_)
        return call

    def global_name(self, node):
        """A Name reading global (or closure) ``node.id`` as written -- or by a fresh name, when a
        variable of the generated function already took that name (a global read inside an inlined
        function whose caller has a local of the same name), or when the name means another object
        where the generated function runs (a function of another module or a closure, inlined)."""
        name = node.id
        obj = self.scope.lookup(name)
        foreign = self.scope is not self.parsed.scope and self.parsed.scope.lookup(name) is not obj
        if foreign or name in self.first_stored or (name, id(obj)) in self.renamed_globals:
            fresh = self.renamed_globals.get((name, id(obj)))
            if fresh is None:
                fresh = self.renamed_globals[(name, id(obj))] = self.ctx.namer.claim(f"{name}_global")
                self.ctx.injected[fresh] = obj
            new = ast.copy_location(ast.Name(fresh, ast.Load()), node)
        else:
            self.static_names.add(name)
            new = ast.copy_location(ast.Name(name, ast.Load()), node)
        anno.put(new, "static", True)
        return new

    def resolve(self, node):
        try:
            return self.scope.evaluate(node)
        except Unresolved as e:
            if isinstance(node, ast.Attribute):
                raise self.error(f"`{ast.unparse(node)}` does not exist", node,
                                 "check the spelling of the attribute") from None
            raise Unresolved(e.name, node) from None
