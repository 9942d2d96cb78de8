"""Loops: ``for`` over a ``range`` stays a core ``for``; any other iterable (``zip``,
``enumerate``, ``reversed``, dict views, sequences) and a ``for`` with a ``break`` become an
index loop; ``while`` keeps its condition in a name assigned before and at the end of the body.

Names the body assigns that live across iterations are *carried*: assigned before the loop and
again at the end of the body (the back edges), so the core stays in SSA form between loops.
"""

import ast
import copy

from ...core import annotations as anno
from ...core.errors import Unresolved
from ..calls import links, nested
from ..objects import instances
from ..containers import writes
from .jumps import _assign, _mk

__all__ = ["Loops"]


class Loops:
    """Mixin of Normalizer: ``for`` and ``while``."""

    def assigned_names(self, stmts):
        out = set()
        for st in stmts:
            for n in ast.walk(st):
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                    out.add(n.id)
                elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
                    out.add(n.target.id)
        # `x.append(v)` / `x[i] = v` change x in place only when x is a variable of this
        # function: `np.append(a, v)` names the module, never a carried value
        local = set(self.version) | self.stored_in_function()
        changed = writes.mutated_names(stmts) | self.changed_by_local_calls(stmts)
        return out | (changed & local) | instances.fields_changed_in(self, stmts)

    def stored_in_function(self):
        return {n.id for st in self.fn_body for n in ast.walk(st)
                if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}

    def changed_by_local_calls(self, stmts):
        """Outer names a nested function called in ``stmts`` changes in place (st.append(v) in
        its body), and the variables passed to a function of yours that changes those arguments
        (``push(st, v)``, inlined: calls/nested.py): carried by the loop like a write written in the
        body itself."""
        out = set()
        for st in stmts:
            for n in ast.walk(st):
                if not isinstance(n, ast.Call):
                    continue
                if isinstance(n.func, ast.Name) and nested.is_local_function(self, n.func.id):
                    node = self.local_fns[n.func.id].node
                    body = node.body if isinstance(node.body, list) else [ast.Expr(node.body)]
                    out |= writes.mutated_names(body) - nested.own_names(node)
                    out |= nested.nonlocal_names(node)
                    changed, _, augmented = links.changed_parameters(node)
                    out |= links.arguments_given(node, n, changed | set(augmented))
                elif isinstance(n.func, (ast.Name, ast.Attribute)) and self.static(n.func):
                    out |= links.arguments_changed(self, n)
        return out

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

    def back_edges(self, carried, loc, before, target=None):
        writes.check_carried_writes(self, carried)
        kept = {user for user, _ in carried} | {target}     # (the loop's own target is bound anew each trip)
        for user, current in self.version.items():
            if user not in kept and isinstance(current, str) and before.get(user, current) != current:
                raise self.error(f"`{user}` is changed inside this loop in a way adjoin did not see when it "
                                 "looked for the loop's variables", loc,
                                 f"assign `{user}` in the loop itself (`{user} = f({user}, ...)`)")
        for user, name in carried:
            current = self.version.get(user)
            if current != name:
                src = anno.get(self.out[-1], "src") if self.out and anno.get(self.out[-1], "src") else self.src
                st = self.make_assign(name, ast.Name(current, ast.Load()) if current else ast.Constant(None), loc)
                anno.put(st, "backedge", True)
                self.out.append(st)
                anno.put(st, "src", src)
            self.version[user] = name

    def for_statement(self, s):
        self.loop_depth = getattr(self, "loop_depth", 0) + 1
        try:
            return self._for_statement(s)
        finally:
            self.loop_depth -= 1

    def while_statement(self, s):
        self.loop_depth = getattr(self, "loop_depth", 0) + 1
        try:
            return self._while_statement(s)
        finally:
            self.loop_depth -= 1

    def _for_statement(self, s):
        if isinstance(s.iter, (ast.ListComp, ast.GeneratorExp)):
            # a comprehension's list, made once: a list of objects made here is walked trip by trip
            made = self.expr(s.iter)
            if isinstance(made, instances.Objects):
                return self.unrolled(s, list(made.items))
            name = self.ctx.namer.claim("walked")
            self.version[name] = self.plain(made, s.iter).id
            old, s = s, _mk(ast.For(s.target, ast.Name(name, ast.Load()), s.body, s.orelse, None), s)
            if anno.has(old, "break"):
                anno.put(s, "break", anno.get(old, "break"))
        trips = self.object_trips(s.iter)
        if trips is not None:
            return self.unrolled(s, trips)
        it = s.iter
        fn = None
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Name) and it.func.id not in self.version:
            try:
                fn = self.resolve(it.func)
            except Unresolved:
                fn = None
        brk = anno.get(s, "break")
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
            self.back_edges(carried, s, before, s.target.id)
            body, self.out = self.out, saved_out
            self.version = before
            self.version[s.target.id] = target
            call = ast.copy_location(ast.Call(ast.Name(it.func.id, ast.Load()), args, []), it)
            anno.put(call, "prim", range)
            loop = ast.copy_location(ast.For(ast.Name(target, ast.Store()), call, body or [ast.Pass()], [], None), s)
            anno.put(loop, "carried", [c for _, c in carried])
            anno.put(loop, "src", self.src)
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

    def object_trips(self, it):
        """The values a ``for`` over a list, tuple or dict of objects made in the function takes (the loop
        is then unrolled: each trip's object is known while the function is lowered), else None.
        ``for o in objs``, ``for i, o in enumerate(objs)``, ``for o, x in zip(objs, xs)`` with each
        zipped sequence such a literal, ``for k in d``, ``d.items()``, ``d.values()``."""
        def objects(node):
            if isinstance(node, ast.Name) and isinstance(self.version.get(node.id), instances.Objects):
                return self.version[node.id]
            if isinstance(node, (ast.List, ast.Tuple)) and any(self.may_be_object(e) for e in node.elts):
                found = self.value(node)
                return found if isinstance(found, instances.Objects) else None
            return None

        fn = self.called(it)
        if isinstance(it, ast.Call) and fn in (enumerate, zip) and not it.keywords \
                and not any(isinstance(a, ast.Starred) for a in it.args) and it.args:
            parts = [objects(a) for a in it.args[:1 if fn is enumerate else None]]
            if not any(p is not None for p in parts):
                return None
            if fn is enumerate:
                start = it.args[1] if len(it.args) > 1 else ast.Constant(0)
                if not (isinstance(start, ast.Constant) and type(start.value) is int):
                    return None
                return [instances.Objects(ast.Tuple, [ast.Constant(start.value + i), v])
                        for i, v in enumerate(parts[0].items)]
            seqs = []
            for a, p in zip(it.args, parts):
                if p is None and isinstance(a, ast.Name) and self.version.get(a.id) in self.tuples:
                    p = instances.Objects(ast.Tuple, self.tuples[self.version[a.id]])
                if p is None:
                    raise self.error("zip of a list of objects made in the function with a sequence whose length "
                                     "adjoin does not know here", a, "zip lists written out in the function, or "
                                     "index the other sequence by position")
                seqs.append(p.items)
            return [instances.Objects(ast.Tuple, list(values)) for values in zip(*seqs)]
        if isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and it.func.attr in ("items", "values", "keys") \
                and not it.args and not it.keywords:
            found = objects(it.func.value)
            if found is None or found.keys is None:
                return None
            pick = {"items": lambda k, v: instances.Objects(ast.Tuple, [ast.Constant(k), v]),
                    "values": lambda k, v: v, "keys": lambda k, v: ast.Constant(k)}[it.func.attr]
            return [pick(k, v) for k, v in zip(found.keys, found.items)]
        found = objects(it)
        if found is None:
            return None
        return [ast.Constant(k) for k in found.keys] if found.keys is not None else list(found.items)

    def may_be_object(self, node):
        """Could ``node`` be an object made in the function (a name of one, ``Cls(..)``, ``objs[k]``, a field)?"""
        if isinstance(node, ast.Name):
            return instances.is_object(self.version.get(node.id))
        if isinstance(node, ast.Call):
            return self.makes_object(node)
        if isinstance(node, (ast.Subscript, ast.Attribute)):
            root = node.value
            return isinstance(root, ast.Name) and instances.is_object(self.version.get(root.id))
        return False

    def makes_object(self, call):
        """Is ``call`` ``Cls(...)`` of a class whose instances are kept as their fields?"""
        if not self.static(call.func):
            return False
        try:
            cls = self.resolve(call.func)
        except Exception:
            return False
        return isinstance(cls, type) and instances.supported(self, cls)

    def unrolled(self, s, trips):
        """``for`` over objects made in the function: the body once per item, the target bound to it."""
        if s.orelse:
            raise self.error("`for ... else` over objects made in the function is not supported", s,
                             "use a flag set before a break")
        brk = anno.get(s, "break")
        for value in trips:
            self.bind_atom(s.target, value)
            if brk is None:
                self.block(s.body)
            else:                        # after a break, the trips left do nothing
                self.statement(_mk(ast.If(ast.UnaryOp(ast.Not(), ast.Name(brk, ast.Load())), list(s.body), []), s))

    def iteration(self, target, it, fn, loc):
        """(setup statements, length expression, k -> statements binding the target)."""
        load = lambda n: ast.Name(n, ast.Load())  # noqa: E731
        if fn in (zip, enumerate) and not it.keywords[1:] and it.args:
            if fn is enumerate:
                seqs = it.args[:1]
                start = it.args[1] if len(it.args) > 1 else (it.keywords[0].value if it.keywords else ast.Constant(0))
            else:
                seqs, start = it.args, None
            names, setup, getters = [], [], []
            for sq in seqs:
                sq = self.materialized(sq)
                inner = self.reversed_argument(sq)
                view = writes.dict_view(self, sq if inner is None else inner, loc, backwards=inner is not None)
                if view is not None:        # enumerate(d.items()), zip(d.values(), ..)
                    setup += view[0]
                    names.append(view[1])
                    getters.append(view[2])
                    continue
                nm = self.ctx.namer.claim("seq")
                # enumerate(d), zip(d, ..) walk a dict's keys (as `for k in d` below)
                setup += self.walked(nm, sq, (dict,), loc)
                names.append(nm)
                getters.append(lambda k, nm=nm: ast.Subscript(load(nm), load(k), ast.Load()))
            lens = [ast.Call(ast.Name("len", ast.Load()), [load(nm)], []) for nm in names]
            length = lens[0] if len(lens) == 1 else ast.Call(ast.Name("min", ast.Load()), lens, [])
            width = 2 if fn is enumerate else len(seqs)

            def items(k):
                out = [load(k) if start is None or (isinstance(start, ast.Constant) and start.value == 0)
                       else ast.BinOp(load(k), ast.Add(), copy.deepcopy(start))] if fn is enumerate else []
                return out + [get(k) for get in getters]

            if isinstance(target, (ast.Tuple, ast.List)) and len(target.elts) == width \
                    and not any(isinstance(t, ast.Starred) for t in target.elts):
                def bind(k):
                    return [_mk(ast.Assign([copy.deepcopy(t)], v), loc) for t, v in zip(target.elts, items(k))]
            else:                        # `for pair in zip(a, b)`, `for i, *rest in ...`: the tuple itself
                def bind(k):
                    return [_mk(ast.Assign([copy.deepcopy(target)], ast.Tuple(items(k), ast.Load())), loc)]
            return setup, _mk(length, loc), bind
        inner = self.reversed_argument(it)
        walked = it if inner is None else inner
        if isinstance(walked, ast.Name) and self.version.get(walked.id) in self.dicts:
            # `for k in d` over a dict built here: its keys, as Python iterates it
            walked = _mk(ast.Call(ast.Attribute(ast.Name(walked.id, ast.Load()), "keys", ast.Load()), [], []), it)
        views = writes.dict_view_iteration(self, target, walked, loc, backwards=inner is not None)
        if views is not None:
            return views
        name = self.ctx.namer.claim("seq")
        if fn is range:
            setup = [_assign(name, it, loc)]
        else:
            # a set passed in is walked as list(s), in its own order, no derivative (a dict by its keys)
            setup = self.walked(name, it, (dict, set, frozenset), loc)
        return (setup, _mk(ast.Call(ast.Name("len", ast.Load()), [load(name)], []), loc),
                lambda k: [_mk(ast.Assign([copy.deepcopy(target)],
                                          ast.Subscript(load(name), load(k), ast.Load())), loc)])

    def materialized(self, it):
        """An iterator made by a call (``zip(..)``, ``enumerate(..)``, ``map``/``filter``, a generator) as the
        list of its items (a comprehension), so it can be indexed like the other sequences walked."""
        fn = self.called(it)
        if fn in (zip, enumerate, map, filter) or isinstance(it, ast.Call) and anno.get(it, "generator", False):
            v = self.ctx.namer.claim("item")
            comp = ast.ListComp(ast.Name(v, ast.Load()), [ast.comprehension(ast.Name(v, ast.Store()), it, [], 0)])
            return _mk(comp, it)
        return it

    def walked(self, name, it, unordered, loc):
        """Statements binding ``name`` to an indexable sequence with the items ``for .. in it`` walks:
        ``reversed(seq)`` as ``seq[::-1]``, a set as ``list(s)``, and a dict (or, for a name whose type
        is known only when it runs, an instance of one of ``unordered``) as its keys, which no
        derivative flows into."""
        load = lambda n: ast.Name(n, ast.Load())  # noqa: E731
        inner = self.reversed_argument(it)
        seq = it if inner is None else inner
        backwards = (lambda e: e) if inner is None else \
            (lambda e: _mk(ast.Subscript(e, ast.Slice(None, None, ast.Constant(-1)), ast.Load()), loc))
        if inner is None and self.is_set(seq, self.called(seq)):
            # a set is not indexable: walk list(s), which has the order `for v in s` has
            seq = _mk(ast.Call(load("list"), [seq], []), loc)
        plain = _assign(name, backwards(seq), loc)
        if not (isinstance(seq, ast.Name) and self.may_be_dict(seq.id)):
            return [plain]
        keys = _mk(ast.Call(load("list"), [load(seq.id)], []), loc)
        anno.put(keys, "keys_of", True)
        if inner is not None:
            unordered = (dict,)           # reversed(d) walks the keys backwards; a set is not reversible
        kinds = ast.Tuple([load(t.__name__) for t in unordered], ast.Load())
        test = _mk(ast.Call(load("isinstance"), [load(seq.id), kinds], []), loc)
        return [_mk(ast.If(test, [_assign(name, backwards(keys), loc)], [plain]), loc)]

    def called(self, node):
        """The function a call ``f(...)`` of a free name resolves to, or None."""
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id not in self.version:
            try:
                return self.resolve(node.func)
            except Unresolved:
                return None
        return None

    def is_set(self, it, fn):
        """A set display, set comprehension, ``set(...)``/``frozenset(...)``, or a local name only
        ever bound to those."""
        if isinstance(it, (ast.Set, ast.SetComp)) or fn in (set, frozenset):
            return True
        if not (isinstance(it, ast.Name) and it.id in self.version):
            return False
        values = [n.value for n in ast.walk(self.parsed.node) if isinstance(n, ast.Assign)
                  and any(isinstance(t, ast.Name) and t.id == it.id for t in n.targets)]
        stored = [n for n in ast.walk(self.parsed.node) if isinstance(n, ast.Name) and n.id == it.id
                  and not isinstance(n.ctx, ast.Load)]
        return bool(values) and len(values) == len(stored) and all(
            isinstance(v, (ast.Set, ast.SetComp)) or isinstance(v, ast.Call) and isinstance(v.func, ast.Name)
            and v.func.id in ("set", "frozenset") and v.func.id not in self.version for v in values)

    def may_be_dict(self, user):
        """Could ``for k in user`` iterate a dict (its keys) rather than items by index?"""
        current = self.version.get(user)
        if current is None:         # a global or closure value: known now
            try:
                return isinstance(self.scope.lookup(user), dict)
            except Exception:
                return True
        return current not in self.tuples

    def reversed_argument(self, node):
        """``seq`` when ``node`` is ``reversed(seq)`` (the builtin), else None."""
        if isinstance(node, ast.Call) and len(node.args) == 1 and not node.keywords \
                and not isinstance(node.args[0], ast.Starred) and self.called(node) is reversed:
            return node.args[0]
        return None

    def _while_statement(self, s):
        if s.orelse:
            raise self.error("`while ... else` is handled by the restructuring step", s, "")
        test = s.test
        if isinstance(test, ast.Name):
            # `while l:` as `while bool(l):`, so that `cond = l` does not make the list a second name
            test = _mk(ast.Call(ast.Name(self.ctx.ref(bool, "bool").id, ast.Load()), [test], []), test)
        carried = self.enter_loop(s, s.body + [ast.Expr(test)])
        cond = self.ctx.namer.claim("cond")
        self.assign(cond, self.expr(test), s.test)
        before = dict(self.version)
        saved_out, self.out = self.out, []
        self.block(s.body)
        saved_src, self.src = self.src, s
        new = self.expr(test)
        st = self.make_assign(cond, new, s.test)
        anno.put(st, "backedge", True)
        self.emit(st, s.test)
        self.back_edges(carried, s, before)
        self.src = saved_src
        body, self.out = self.out, saved_out
        self.version = before
        loop = ast.copy_location(ast.While(ast.Name(cond, ast.Load()), body, []), s)
        anno.put(loop, "carried", [c for _, c in carried] + [cond])
        anno.put(loop, "src", self.src)
        self.out.append(loop)
