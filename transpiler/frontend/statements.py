"""Statements: assignments (plain, unpacking, augmented), ``if``, ``return``, expression
statements and ``assert``; and the statements that are refused, with why.

Loops are control/loops.py's, nested ``def`` calls/nested.py's, writes into containers
containers/writes.py's.
"""

import ast

from ..core import annotations as anno
from .effects import checks
from .calls import nested
from .objects import instances
from .containers import inner_lists, writes

__all__ = ["Statements"]


_UNSUPPORTED_STMT = {
    ast.ClassDef: ("class definitions inside a differentiated function are not supported",
                   "define the class at module level"),
    ast.Global: ("`global` declares a module variable to write, and a differentiated function cannot "
                 "change module state", "read globals freely; return the new value instead of writing it"),
    ast.Nonlocal: ("`nonlocal` is not supported", "pass the value as an argument instead"),
    ast.Delete: ("`del` of this target is not supported", "remove the del statement (a name may be deleted "
                 "when nothing reads it later; an item or slice of a list or dict made in this function "
                 "may be deleted: `del lst[i]`, `del lst[i:j]` without a step, `del d[k]`)"),
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

_OPS = {ast.Add: "+", ast.Sub: "-", ast.Mult: "*", ast.Div: "/", ast.FloorDiv: "//", ast.Mod: "%",
        ast.Pow: "**", ast.MatMult: "@", ast.BitAnd: "&", ast.BitOr: "|", ast.BitXor: "^",
        ast.LShift: "<<", ast.RShift: ">>"}


class Statements:
    """Mixin of Normalizer: one method per statement kind."""

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
            return nested.define(self, s)        # inlined where it is called (calls/nested.py)
        if kind in _UNSUPPORTED_STMT:
            msg, hint = _UNSUPPORTED_STMT[kind]
            raise self.error(msg, s, hint)
        if isinstance(s, ast.Pass):
            return
        if inner_lists.inner_write(self, s):         # grid[1].append(v), grid[i][j] = v on a list built here
            return
        if isinstance(s, ast.Return):
            if s.value is None:
                raise self.error("the function returns None", s, "return the value to differentiate")
            if isinstance(s.value, ast.Tuple):
                elts = [self.atom(e) for e in s.value.elts]
                value = ast.Tuple([_expand_tuples(self, e) for e in elts], ast.Load())
            else:
                value = _expand_tuples(self, self.atom(s.value))
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
                return writes.augmented_item(self, s)
            if isinstance(s.target, ast.Attribute) and isinstance(s.target.value, ast.Name) \
                    and isinstance(self.version.get(s.target.value.id), instances.Instance):
                load = ast.copy_location(ast.Attribute(s.target.value, s.target.attr, ast.Load()), s.target)
                self.bind_atom(s.target, self.expr(ast.copy_location(ast.BinOp(load, s.op, s.value), s)))
                return
            if not isinstance(s.target, ast.Name):
                raise self.error("augmented assignment to an attribute is not supported", s,
                                 "keep the value in a local variable")
            current = self.version.get(s.target.id)
            if current in self.shared or current in self.read_into:
                # exact for a number or tuple (`y = x; y += v` rebinds y alone); an array or list another
                # name also holds would change in place: refused when the code runs, at this line
                checks.in_place_guard(self, ast.Name(current, ast.Load()), s.op, s, prunable=False,
                                      why="another name here also holds it (a copy, view, slice or item), which "
                                      "would change too")
            elif current is not None and s.target.id in nested.linked_now(self):
                pass                     # a callee's parameter linked to the caller's variable (calls/nested.py)
            elif current is not None:     # kept only where x may be an argument's object (effects/pruning.py)
                checks.in_place_guard(self, ast.Name(current, ast.Load()), s.op, s,
                                       why=f"`{s.target.id}` may be an argument (whose caller would see the "
                                       "change) or an object reached from elsewhere")
            load = ast.copy_location(ast.Name(s.target.id, ast.Load()), s.target)
            self.bind(s.target, ast.copy_location(ast.BinOp(load, s.op, s.value), s))
            return
        if isinstance(s, ast.Expr):
            if isinstance(s.value, ast.Constant):
                return
            if writes.method_statement(self, s):
                return
            value = self.value(s.value)
            if anno.get(value, "stack_pop"):
                self.temp(value, s)     # a bare pop() is named, so each pass mirrors it (gradient_stacks.py)
            elif isinstance(value, ast.Call):
                self.emit(ast.Expr(value), s)
            return
        if isinstance(s, ast.Assert):
            test = self.atom(s.test)
            msg = self.atom(s.msg) if s.msg is not None else None
            self.emit(ast.Assert(test, msg), s)
            return
        raise self.error(f"{kind.__name__} statements are not supported", s,
                         "rewrite the function as straight-line numpy code")

    def if_statement(self, s):
        test = self.atom_name(self.atom(s.test), s.test)
        body, vb = self.sub_block(s.body)
        orelse, vo = self.sub_block(s.orelse)
        for user in sorted(set(vb) & set(vo)):
            instances.merge_branches(self, user, vb, vo)      # `b = Box(2 * x)` in one branch
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

    def bind(self, target, value_node):
        """``target = value_node``: the common single-target assignment."""
        if isinstance(target, ast.Name) and isinstance(value_node, ast.Lambda):
            return nested.define_lambda(self, target, value_node)
        made = nested.made_function(self, value_node) if isinstance(target, ast.Name) else None
        if made is not None:
            self.version.pop(target.id, None)
            self.local_fns[target.id] = made      # a function made by a factory: inlined where called
            return
        if isinstance(target, ast.Name):
            value = self.value(value_node)
            if not isinstance(value, ast.AST):        # an object made here (objects/instances.py): no value
                self.version[target.id] = value
                self.local_fns.pop(target.id, None) if hasattr(self, "local_fns") else None
                return
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
        if isinstance(target, ast.Name) and nested.is_function_value(atom):
            self.version.pop(target.id, None)
            self.local_fns[target.id] = atom     # a function a call handed out: inlined where it is called
            return
        if isinstance(target, ast.Name) and instances.is_object(atom):
            self.version[target.id] = atom       # another name for the object (or list of them) made here
            getattr(self, "local_fns", {}).pop(target.id, None)
            return
        if isinstance(target, (ast.Tuple, ast.List)) and isinstance(atom, instances.Objects) and atom.keys is None:
            if len(atom.items) != len(target.elts):
                raise self.error(f"cannot unpack {len(atom.items)} values into {len(target.elts)} names", target,
                                 "make both sides the same length")
            for t, item in zip(target.elts, atom.items):
                self.bind_atom(t, item)
            return
        if not isinstance(target, (ast.Subscript, ast.Attribute)):
            self.plain(atom, target)
        if isinstance(target, ast.Name):
            name = self.store(target.id)
            self.assign(name, atom, target)
            if isinstance(atom, ast.Name) and atom.id in self.tuples:
                self.tuples[name] = self.tuples[atom.id]
                self.kinds[name] = self.kinds.get(atom.id, ast.Tuple)
            return
        if isinstance(target, (ast.Tuple, ast.List)):
            if any(isinstance(e, ast.Starred) for e in target.elts):
                return writes.starred_unpack(self, target, atom)
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
            return writes.store_item(self, target, atom)
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                and isinstance(self.version.get(target.value.id), instances.Instance):
            key = instances.field_name(self, self.version[target.value.id], target.attr, target)
            if instances.is_object(atom):        # a field holding another object made here
                self.version[key] = atom
                return
            name = self.store(key)
            self.assign(name, atom, target)
            return
        if isinstance(target, ast.Attribute):
            raise self.error("assigning to an attribute is not supported", target,
                             "keep the value in a local variable")
        raise self.error(f"cannot assign to {type(target).__name__}", target, "assign to a plain name")


def _expand_tuples(norm, atom):
    """``norm.expand`` for a returned value, but a list stays its name: the modes read a returned
    tuple item by item, and a list as one value (its cotangent a container's)."""
    if isinstance(atom, ast.Name) and norm.kinds.get(atom.id, ast.Tuple) is ast.List:
        return atom
    if isinstance(atom, ast.Name) and atom.id in norm.tuples:
        return ast.Tuple([_expand_tuples(norm, e) for e in norm.tuples[atom.id]], ast.Load())
    return atom
