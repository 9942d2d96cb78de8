"""Normalizing writes into arrays and Python containers (lists, dicts, unpacking).

Each write becomes a new single-assignment version made by a primitive from
``runtime/rules/containers.py``, so every earlier version stays readable by the adjoint:

* ``x[i] = v``       -> ``x2 = setitem(x1, i, v)``
* ``x[i] += v``      -> ``t = x1[i]; u = t + v; x2 = setitem(x1, i, u)``
* ``lst.append(v)``  -> ``k = len(lst1); lst2 = append_at(lst1, k, v)``
* ``{"a": x}``       -> ``d1 = {}; d2 = setitem(d1, "a", x)``
* ``a, *rest = x``   -> ``a = x[0]; rest = x[1:]`` (element by element for tuple literals)
* comprehensions and ``sum(<generator>)`` -> loops (see ``blocks.comprehension_loop``)

A write through a name that shares its array or list with another name (``y = x``, a view)
would change both in Python but only one here, so it is refused with advice.  Methods that
change a container in place in ways these rules do not model (``extend``, ``pop``,
``update``...) are refused too, instead of silently losing their effect on the gradient.
"""

import ast
import builtins
import copy

import numpy as np

from runtime.rules.containers import append_at, assign_slice_, end_of_list_, keys_of, merge, setitem

from ...core import annotations as anno
from ..effects import checks
from ..objects import instances
from ..control import blocks
from .edits import (emptied_, insert_at_, insert_position_, list_position_, pop_at_, pop_key_, pop_position_,
                    removed_position_, reversed_positions_, sorted_positions_)
from ...core.astutil import as_value

__all__ = ["check_carried_writes", "INNER_METHODS", "store_item", "augmented_item", "method_statement", "starred_unpack", "pop_value",
           "comprehension",
           "dict_literal", "element_read", "special_call", "mutated_names", "dict_view", "dict_view_iteration",
           "indexed_names",
           "SET_OF_VALUES", "SET_COMPREHENSION"]

# a set of differentiable values: refused at its line (modes/reverse_statements.unknown), and
# set comprehensions and `s.add(v)` always (frontend/expressions.py, method_statement)
_SET_WHY = ("a set keeps no order and merges equal items (x and x * 1.0 become one), so no item has a "
            "place its derivative could flow back from")
_SET_HINT = ("use a list or tuple ([a, b]) and, to drop repeats, a dict keyed by something that is not "
             "differentiated (dict(zip(names, values))); a set of plain numbers or strings can also be "
             "built outside the differentiated function")
SET_OF_VALUES = (f"a set cannot hold differentiable values here: {_SET_WHY}", _SET_HINT)
SET_COMPREHENSION = (f"set comprehensions are not supported (and a set of differentiable values would not "
                     f"be: {_SET_WHY})", _SET_HINT)

_MUTATING = {"extend", "insert", "pop", "remove", "clear", "update", "setdefault", "popitem", "sort",
             "reverse", "fill", "resize", "put", "itemset", "__setitem__", "__iadd__", "add", "discard"}


def _call(norm, fn, name, args, loc):
    call = ast.copy_location(ast.Call(norm.ctx.ref(fn, name), args, []), loc)
    anno.put(call, "prim", fn)
    return call


def _local_base(norm, target, what):
    """The user name being written through ``target`` (``x`` in ``x[i] = ...``), checked."""
    base = target.value if isinstance(target, ast.Subscript) else target
    if isinstance(base, ast.Subscript):
        raise norm.error("assigning into an element of an element (x[i][j] = ...) is not supported", target,
                         "index once with a tuple: x[i, j] = ... (for arrays), or rebuild the inner value")
    if not isinstance(base, ast.Name) or base.id not in norm.version:
        raise norm.error(f"{what} changes something that is not a local variable of this function", target,
                         "copy it into a local variable first (x = np.array(x)) and return the result")
    current = norm.version[base.id]
    if current in getattr(norm, "parameters", ()):
        raise norm.error(f"{what} changes the argument `{base.id}` in place: the caller's object would "
                         "change in Python, but the gradient call works on its own copy", target,
                         f"copy it first (`{base.id} = {base.id}.copy()`, `list({base.id})`, "
                         f"`dict({base.id})`) and return what you need")
    if current in norm.shared:
        raise norm.error(f"`{base.id}` shares its array or list with another name (a copy, view or slice), "
                         f"so {what} would change both in Python, but adjoin gives `{base.id}` a new value",
                         target, f"take a copy first (`{base.id} = {base.id}.copy()`) or write through the "
                         "other name")
    return base.id, current


def _index_atom(norm, index, loc):
    """An index (``i``, ``1:3``, ``i, :``) as an atom usable as a call argument."""
    value = as_value(copy.deepcopy(index))
    for n in ast.walk(value):
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == "slice":
            n.func = norm.ctx.ref(slice, "slice")
            anno.put(n, "prim", slice)
    if isinstance(value, (ast.Name, ast.Constant)):
        return value
    name = norm.ctx.namer.temp()
    norm.assign(name, ast.copy_location(value, loc), loc)
    return ast.Name(name, ast.Load())


def _stored(norm, value):
    """A value stored into a list or dict is shared with it (a later write to it would show there)."""
    if isinstance(value, ast.Name) and not anno.get(value, "static", False):
        norm.shared.add(value.id)


def _write(norm, user, current, index, value, loc):
    if not hasattr(norm, "writes"):
        norm.writes = {}
    norm.writes[current] = (user, loc)
    if isinstance(index, ast.Slice) and current not in norm.dicts and not _only_arrays(norm, user):
        # `l[1:] = items` may change a list's length: assign_slice_ models that (and on an array
        # it is setitem), whatever made `l` (a literal, a callee, a comprehension)
        bounds = [ast.Constant(None) if b is None else b for b in (index.lower, index.upper, index.step)]
        new = norm.store(user)
        norm.assign(new, _call(norm, assign_slice_, "assign_slice_", [ast.Name(current, ast.Load())] + bounds
                               + [value], loc), loc)
        if current in norm.lists:
            norm.lists.add(new)
        _stored(norm, value)
        return
    if isinstance(value, ast.Name) and value.id in norm.tuples and current not in norm.dicts:
        # second derivatives of a list put into a list by index are not exact yet (grad(grad))
        raise norm.error(f"putting a list or tuple into `{user}` by index is not supported", loc,
                         f"build `{user}` with the inner list in place, or use a dict")
    idx = _write_position(norm, user, current, index, loc)
    if current in norm.read_into:        # t = x[i] earlier: a view of a row when x is 2-d
        checks.row_view_guard(norm, ast.Name(current, ast.Load()), user, loc)
    new = norm.store(user)
    norm.assign(new, _call(norm, setitem, "setitem", [ast.Name(current, ast.Load()), idx, value], loc), loc)
    if current in norm.read_into:
        norm.read_into.add(new)          # the same array: its rows read before still see it
    _stored(norm, value)


def _write_position(norm, user, current, index, loc):
    """The index of ``x[index] = v`` as an atom; counted from the front when ``x`` may be a list.

    The adjoint of the write names its slot in the cotangent of the list as it is at the end, so
    ``l[-1]`` of a list that is grown later (append, insert, extend, +=) would name a slot of the
    longer list: the position is found on the list when the write runs (``list_position_``).
    Arrays never change length, so their writes keep the index as written (no call in hot loops)."""
    idx = _index_atom(norm, index, loc)
    if current in norm.dicts or isinstance(index, (ast.Slice, ast.Tuple)):
        if isinstance(index, ast.Slice) and (current in norm.lists or user in _grown(norm)):
            raise norm.error(f"assigning to a slice of the list `{user}` is not supported (it may change its "
                             "length)", loc, f"assign the items one by one: {user}[i] = v")
        return idx
    written = loc.slice if isinstance(loc, ast.Subscript) else None
    constant = written.value if isinstance(written, ast.Constant) else (
        -written.operand.value if isinstance(written, ast.UnaryOp) and isinstance(written.op, ast.USub)
        and isinstance(written.operand, ast.Constant) else None)
    if type(constant) is int and constant >= 0 or type(constant) is str:
        return idx
    if type(constant) is int or current in norm.lists or user in _grown(norm):
        return norm.temp(_call(norm, list_position_, "list_position_", [ast.Name(current, ast.Load()), idx], loc),
                         loc)
    return idx


def _only_arrays(norm, user):
    """Is every value the function binds to ``user`` made by a numpy function (so never a list)?"""
    values = []
    for n in ast.walk(norm.parsed.node):
        targets = n.targets if isinstance(n, ast.Assign) else [n.target] if isinstance(
            n, (ast.AugAssign, ast.AnnAssign, ast.For, ast.NamedExpr)) else [n.optional_vars] \
            if isinstance(n, ast.withitem) else []
        for t in targets:
            if t is None or not any(isinstance(m, ast.Name) and m.id == user for m in ast.walk(t)):
                continue
            if not (isinstance(n, ast.Assign) and isinstance(t, ast.Name)):
                return False
            values.append(n.value)

    def numpy_call(v):
        if not isinstance(v, ast.Call):
            return False
        try:
            fn = norm.resolve(v.func)
        except Exception:
            return False
        return isinstance(fn, np.ufunc) or (getattr(fn, "__module__", None) or "").startswith("numpy")

    return bool(values) and all(numpy_call(v) for v in values)


def _grown(norm):
    """User names whose length may change in the function (``.append``, ``.insert``, ``.pop``,
    ``.extend``, ``+=``, ``del x[i]``), or that are returned (the caller may grow the list), and
    every name assigned into one of those (``m = list(l)``: ``m``'s cotangent reaches ``l``)."""
    if not hasattr(norm, "grown_names"):
        grown, flows = set(), []
        for n in ast.walk(norm.parsed.node):
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and isinstance(n.func.value, ast.Name) \
                    and n.func.attr in ("append", "insert", "pop", "extend", "remove", "clear"):
                grown.add(n.func.value.id)
            elif isinstance(n, ast.AugAssign) and isinstance(n.target, ast.Name):
                grown.add(n.target.id)
            elif isinstance(n, ast.Assign) and any(isinstance(t, ast.Subscript) and isinstance(t.slice, ast.Slice)
                                                   and isinstance(t.value, ast.Name) for t in n.targets):
                grown.update(t.value.id for t in n.targets if isinstance(t, ast.Subscript))   # l[1:] = items
            elif isinstance(n, ast.Delete):
                grown.update(t.value.id for t in n.targets if isinstance(t, ast.Subscript)
                             and isinstance(t.value, ast.Name))
            elif isinstance(n, ast.Return) and n.value is not None:     # `return l`, `return l, y`
                grown.update(v.id for v in (n.value.elts if isinstance(n.value, (ast.Tuple, ast.List))
                                            else [n.value]) if isinstance(v, ast.Name))
            elif isinstance(n, ast.Assign):
                targets = {t.id for tgt in n.targets for t in ast.walk(tgt) if isinstance(t, ast.Name)}
                flows.append((targets, {v.id for v in ast.walk(n.value) if isinstance(v, ast.Name)}))
        changed = True
        while changed:
            changed = False
            for targets, sources in flows:
                if targets & grown and not sources <= grown:
                    grown |= sources
                    changed = True
        norm.grown_names = grown
    return norm.grown_names


def check_carried_writes(norm, carried):
    """At a loop's back edge: a value written into (x[i] = ...) on one trip and stored in a list or
    dict by the end of it is the same array on the next trip in Python, so the write shows in the
    list too; adjoin would give it a new value instead."""
    for user, name in carried:
        current = norm.version.get(user)
        if name in getattr(norm, "writes", {}) and current in norm.shared:
            _, loc = norm.writes[name]
            raise norm.error(f"`{user}` shares its array or list with another name (it was stored in a list "
                             f"or dict, or copied), so writing into it on the next trip would change that too",
                             loc, f"take a copy first (`{user} = {user}.copy()`) or create `{user}` "
                             "inside the loop")


INNER_METHODS = {"append", "extend", "insert", "pop", "remove", "reverse", "sort", "clear"}


def store_item(norm, target, atom):
    """``x[index] = atom``."""
    base = target.value
    if isinstance(base, ast.Name) and isinstance(norm.version.get(base.id), instances.Objects):
        return _object_item(norm, base.id, norm.index(target.slice), atom, target)
    norm.plain(atom, target)
    user, current = _local_base(norm, target, f"`{ast.unparse(target)} = ...`")
    index = norm.index(target.slice)
    _write(norm, user, current, index, atom, target)


def augmented_item(norm, s):
    """``x[index] op= value``: read the element, combine, write it back (index evaluated once)."""
    target = s.target
    user, current = _local_base(norm, target, f"`{ast.unparse(s)}`")
    index = norm.index(target.slice)
    old = norm.temp(ast.copy_location(ast.Subscript(ast.Name(current, ast.Load()), copy.deepcopy(index),
                                                    ast.Load()), target), target)
    checks.in_place_guard(norm, old, s.op, s, ast.Name(current, ast.Load()))
    value = norm.expr(s.value)
    new_value = norm.temp(ast.copy_location(ast.BinOp(old, s.op, value), s), s)
    _write(norm, user, current, index, new_value, target)


def method_statement(norm, s):
    """``lst.append(v)`` as a new list version; True when ``s`` was handled here.

    Other in-place methods of local values raise: their effect would not reach the gradient.
    """
    call = s.value
    if not (isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute)
            and isinstance(call.func.value, ast.Name) and call.func.value.id in norm.version):
        return False
    meth, user = call.func.attr, call.func.value.id
    if isinstance(norm.version[user], instances.Objects):
        return _objects_method(norm, call, meth, user)
    if not isinstance(norm.version[user], str):
        return False                     # a method of an object made in the function (objects/instances.py)
    if meth == "append" and len(call.args) == 1 and not call.keywords \
            and not isinstance(call.args[0], ast.Starred):
        _, current = _local_base(norm, call.func.value, f"`{user}.append(...)`")
        value = norm.expr(call.args[0])
        if instances.is_object(value):
            if norm.kinds.get(current) is not ast.List or current not in norm.tuples:
                raise instances.escape_error(norm, call.args[0], value)
            # a list known item by item (written out, or built in an unrolled loop) gets an object made here
            norm.version[user] = instances.Objects(ast.List, list(norm.tuples[current]) + [value])
            return True
        lst = ast.Name(current, ast.Load())
        k = norm.temp(_call(norm, len, "len", [lst], call), call)
        new = norm.store(user)
        norm.assign(new, _call(norm, append_at, "append_at", [copy.deepcopy(lst), k, value], call), call)
        _stored(norm, value)
        return True
    if (meth == "pop" and len(call.args) <= 1 or meth == "insert" and len(call.args) == 2) \
            and not call.keywords and not any(isinstance(a, ast.Starred) for a in call.args):
        _edit(norm, call, meth, user)
        return True
    if meth in ("add", "discard", "update") and norm.is_set(call.func.value, None):
        raise norm.error(f"`{user}.{meth}(...)` changes the set `{user}` in place, which adjoin cannot follow",
                         call, "build a set of plain numbers or strings in one expression ({a, b}, set(items)); "
                         "keep differentiable values in a list (.append(v)): a set merges equal items and "
                         "keeps no order")
    if meth in ("extend", "update") and len(call.args) == 1 and not call.keywords \
            and not isinstance(call.args[0], ast.Starred):
        _extend_or_update(norm, call, meth, user)
        return True
    if meth in ("reverse", "sort", "remove", "clear") and not any(isinstance(a, ast.Starred) for a in call.args) \
            and _reordered(norm, call, meth, user):
        return True
    if meth in _MUTATING:
        raise norm.error(f"`{user}.{meth}(...)` changes `{user}` in place, which adjoin cannot follow", call,
                         "use `.append(v)` for lists, `d[k] = v` for dicts and `x[i] = v` for arrays, "
                         "or build a new value")
    return False


def _reordered(norm, call, meth, user):
    """``l.reverse()``, ``l.sort(key=, reverse=)``, ``l.remove(v)``, ``l.clear()`` of a list: a new version
    whose items are read from the old one by position (the positions found on the values, with no
    gradient: containers/edits.py), or an empty one.  False for other call shapes."""
    kw = {k.arg: k.value for k in call.keywords}
    if meth in ("reverse", "clear") and (call.args or kw) or meth == "remove" and (len(call.args) != 1 or kw) \
            or meth == "sort" and (call.args or set(kw) - {"key", "reverse"}):
        return False
    _, current = _local_base(norm, call.func.value, f"`{user}.{meth}(...)`")
    old = ast.Name(current, ast.Load())
    _list_check(norm, old, user, meth, call)
    if meth == "clear":
        new = norm.store(user)
        norm.assign(new, _call(norm, emptied_, "emptied_", [old], call), call)
        (norm.dicts if current in norm.dicts else norm.lists).add(new)
        return True
    if meth == "remove":
        k = norm.temp(_call(norm, removed_position_, "removed_position_", [old, norm.expr(call.args[0])], call), call)
        norm.assign(norm.store(user), _call(norm, pop_at_, "pop_at_", [copy.deepcopy(old), k], call), call)
        norm.lists.add(norm.version[user])
        return True
    if meth == "reverse":
        order = _call(norm, reversed_positions_, "reversed_positions_", [old], call)
    else:
        key = kw.get("key")
        if key is None or isinstance(key, ast.Constant) and key.value is None:
            keys = old
        else:                            # the keys, one per item, as `[key(v) for v in l]` computes them
            v = norm.ctx.namer.claim("item")
            comp = ast.ListComp(ast.Call(key, [ast.Name(v, ast.Load())], []),
                                [ast.comprehension(ast.Name(v, ast.Store()), ast.Name(user, ast.Load()), [], 0)])
            keys = norm.expr(ast.fix_missing_locations(ast.copy_location(comp, call)))
        reverse = [norm.expr(kw["reverse"])] if "reverse" in kw else []
        order = _call(norm, sorted_positions_, "sorted_positions_", [copy.deepcopy(old), keys] + reverse, call)
    positions = norm.temp(order, call)
    k = norm.ctx.namer.claim("position")
    comp = ast.ListComp(ast.Subscript(ast.Name(user, ast.Load()), ast.Name(k, ast.Load()), ast.Load()),
                        [ast.comprehension(ast.Name(k, ast.Store()), ast.Name(positions.id, ast.Load()), [], 0)])
    norm.version[positions.id] = positions.id          # (read by its own name in the comprehension)
    items = norm.value(ast.fix_missing_locations(ast.copy_location(comp, call)))
    new = norm.store(user)
    norm.assign(new, items, call)
    norm.lists.add(new)
    return True


def _list_check(norm, value, user, meth, call):
    """A check, when the code runs, that ``user`` is a list (or a dict for ``.clear()``): the items are
    read by position, which is ``.sort()``'s effect only on a list (an array sorts along an axis)."""
    kinds = (list, dict) if meth == "clear" else (list,)

    def other(v):
        """a value whose method adjoin does not write as a list's"""
        return None if isinstance(v, kinds) else type(v).__name__

    def error(found):
        instead = {"sort": f" (for an array: `{user} = np.sort({user})`)", "reverse": f" (for an array: "
                   f"`{user} = {user}[::-1]`)"}.get(meth, "")
        return norm.error(f"`{user}.{meth}()` is written as a list's here, but `{user}` is a {found}", call,
                          f"build a new value{instead}")

    check = checks.RunCheck(other, error)
    expr = ast.copy_location(ast.Call(norm.ctx.ref(check, "list_check"), [copy.deepcopy(value)], []), call)
    anno.put(expr, "prim", check)
    norm.emit(ast.Expr(expr), call)


def _object_item(norm, user, index, atom, node):
    """``objs[i] = v`` / ``d[k] = v`` of a list or dict of objects made in the function: a new version
    of the literal, known item by item."""
    objs = norm.version[user]
    key = index.value if isinstance(index, ast.Constant) else None
    items, keys = list(objs.items), None if objs.keys is None else list(objs.keys)
    if keys is not None and isinstance(index, ast.Constant):
        if key in keys:
            items[keys.index(key)] = atom
        else:
            keys.append(key)
            items.append(atom)
    elif keys is None and type(key) is int and -len(items) <= key < len(items):
        items[key] = atom
    else:
        raise norm.error("a list or dict of objects made in the function is written at a position adjoin does "
                         "not know when it lowers the function", node, "write it with a constant index or key")
    norm.version[user] = instances.Objects(objs.kind, items, keys)
    return None


def _objects_method(norm, call, meth, user):
    """``objs.append(v)`` / ``objs.extend([..])`` of a list of objects made in the function."""
    objs = norm.version[user]
    if objs.keys is None and objs.kind is ast.List and meth == "append" and len(call.args) == 1 and not call.keywords:
        norm.version[user] = instances.Objects(ast.List, objs.items + [norm.expr(call.args[0])])
        return True
    if objs.keys is None and objs.kind is ast.List and meth == "extend" and len(call.args) == 1 \
            and isinstance(call.args[0], (ast.List, ast.Tuple)) and not call.keywords:
        norm.version[user] = instances.Objects(ast.List, objs.items + [norm.expr(e) for e in call.args[0].elts])
        return True
    raise instances.escape_error(norm, call, objs)


def pop_value(norm, call):
    """``l.pop(i)`` / ``d.pop(k)`` inside an expression: the item read at the position the pop takes it
    from (its value), then the pop as a statement (a new version of the list or dict)."""
    user = call.func.value.id
    _, current = _local_base(norm, call.func.value, f"`{user}.pop(...)`")
    old = ast.Name(current, ast.Load())
    where = norm.expr(call.args[0]) if call.args else ast.Constant(-1)
    if current in norm.dicts or anno.get(call, "dict_pop", False):
        item = norm.temp(ast.copy_location(ast.Subscript(old, where, ast.Load()), call), call)
        norm.assign(norm.store(user), _call(norm, pop_key_, "pop_key_", [copy.deepcopy(old), where], call), call)
        return item
    k = norm.temp(_call(norm, pop_position_, "pop_position_", [old, where], call), call)
    item = norm.temp(ast.copy_location(ast.Subscript(copy.deepcopy(old), k, ast.Load()), call), call)
    norm.shared.discard(item.id)         # (the item leaves the list: no other name holds it there)
    norm.assign(norm.store(user), _call(norm, pop_at_, "pop_at_", [copy.deepcopy(old), k], call), call)
    if current in norm.lists:
        norm.lists.add(norm.version[user])
    return item


def _extend_or_update(norm, call, meth, user):
    """``l.extend(items)`` as ``l[len(l):] = items`` (``assign_slice_``) and ``d.update(other)`` as
    ``d | dict(other)`` (``merge``): new versions whose derivatives put each item back in place."""
    _, current = _local_base(norm, call.func.value, f"`{user}.{meth}(...)`")
    value = norm.expr(call.args[0])
    old = ast.Name(current, ast.Load())
    if meth == "extend":
        end = norm.temp(_call(norm, end_of_list_, "end_of_list_", [old], call), call)
        new_value = _call(norm, assign_slice_, "assign_slice_",
                          [copy.deepcopy(old), end, ast.Constant(None), ast.Constant(None), value], call)
    else:
        other = norm.temp(_call(norm, dict, "dict", [value], call), call)
        new_value = _call(norm, merge, "merge", [copy.deepcopy(old), other], call)
    new = norm.store(user)
    norm.assign(new, new_value, call)
    (norm.lists if meth == "extend" else norm.dicts).add(new)     # (the items are copied, not `value`)


def _edit(norm, call, meth, user):
    """``lst.insert(i, v)``, ``lst.pop(i)``, ``d.pop(k)`` (a statement) as a new version of the list or
    dict: ``k = insert_position_(lst1, i); lst2 = insert_at_(lst1, k, v)`` (containers/edits.py)."""
    _, current = _local_base(norm, call.func.value, f"`{user}.{meth}(...)`")
    where = norm.expr(call.args[0]) if call.args else ast.Constant(-1)
    old = ast.Name(current, ast.Load())
    if meth == "pop" and (current in norm.dicts or anno.get(call, "dict_pop", False)):
        norm.assign(norm.store(user), _call(norm, pop_key_, "pop_key_", [old, where], call), call)
        return
    position = insert_position_ if meth == "insert" else pop_position_
    k = norm.temp(_call(norm, position, position.__name__, [old, where], call), call)
    if meth == "insert":
        value = norm.expr(call.args[1])
        new_value = _call(norm, insert_at_, "insert_at_", [copy.deepcopy(old), k, value], call)
        _stored(norm, value)
    else:
        new_value = _call(norm, pop_at_, "pop_at_", [copy.deepcopy(old), k], call)
    norm.assign(norm.store(user), new_value, call)


def starred_unpack(norm, target, atom):
    """``a, *rest, b = atom``: the starred name gets the middle (a list, or an array slice)."""
    elts = target.elts
    star = next(i for i, e in enumerate(elts) if isinstance(e, ast.Starred))
    if sum(isinstance(e, ast.Starred) for e in elts) > 1:
        raise norm.error("two starred names in one assignment", target, "use one starred name")
    before, middle, after = elts[:star], elts[star].value, elts[star + 1:]
    static = norm.tuples.get(atom.id) if isinstance(atom, ast.Name) else None
    if static is not None:
        if len(static) < len(before) + len(after):
            raise norm.error(f"cannot unpack {len(static)} values into {len(elts)} names", target,
                             "make both sides the same length")
        end = len(static) - len(after)
        for t, e in zip(before, static[:star]):
            norm.bind_atom(t, e)
        norm.bind_atom(middle, norm.temp(ast.List(list(static[star:end]), ast.Load()), target))
        for t, e in zip(after, static[end:]):
            norm.bind_atom(t, e)
        return

    def item(index):
        return norm.temp(ast.copy_location(ast.Subscript(atom, index, ast.Load()), target), target)

    for i, t in enumerate(before):
        norm.bind_atom(t, item(ast.Constant(i)))
    stop = ast.Constant(-len(after)) if after else None
    norm.bind_atom(middle, item(ast.Slice(ast.Constant(len(before)) if before else None, stop, None)))
    for j, t in enumerate(after):
        norm.bind_atom(t, item(ast.Constant(j - len(after))))


def _loop_into(norm, node, kind, prefix):
    result = norm.ctx.namer.claim(prefix)
    norm.block(blocks.comprehension_loop(node, norm.ctx.namer, result, kind))
    if instances.is_object(norm.version[result]):
        return norm.version[result]      # a list of objects made here (its loop was unrolled)
    out = ast.Name(norm.version[result], ast.Load())
    anno.put(out, "fresh", True)           # a new list no user name holds: `m = [...]` is not a second name for it
    return out


def comprehension(norm, node):
    """A list/dict comprehension or generator expression: a loop building a list (or dict)."""
    kind = "dict" if isinstance(node, ast.DictComp) else "list"
    return _loop_into(norm, node, kind, "items")


def dict_literal(norm, node):
    """``{k1: v1, k2: v2}`` -> an empty dict and one ``setitem`` per key (in source order).

    Returns the last ``setitem`` call as the value, so the user's name is not a copy."""
    if any(k is None for k in node.keys):
        raise norm.error("`**` unpacking inside a dict literal is not supported", node,
                         "set the keys one by one: d[k] = v")
    if all(isinstance(k, ast.Constant) for k in node.keys) and any(
            isinstance(v, ast.Name) and instances.is_object(norm.version.get(v.id))
            or isinstance(v, ast.Call) and norm.makes_object(v) for v in node.values):
        keys, items = [], []             # a dict of objects made in the function: known key by key
        for k, v in zip(node.keys, node.values):
            if k.value in keys:
                items[keys.index(k.value)] = norm.expr(v)
            else:
                keys.append(k.value)
                items.append(norm.expr(v))
        return instances.Objects(ast.Dict, items, keys)
    value = ast.copy_location(ast.Dict([], []), node)
    for k, v in zip(node.keys, node.values):
        current = norm.temp(value, node)
        key, item = norm.expr(k), norm.expr(v)
        value = _call(norm, setitem, "setitem", [current, key, item], node)
    return value


def element_read(value):
    """``x[i]`` / ``x["k"]`` with a name or constant index: not a slice of x."""
    return isinstance(value, ast.Subscript) and isinstance(value.slice, (ast.Name, ast.Constant))


def special_call(norm, fn, node):
    """Calls normalized here: ``sum(<generator>)`` as a loop, ``list(<generator>)``; eval/exec refused."""
    if fn in (eval, exec, compile):
        raise norm.error(f"`{fn.__name__}` runs code adjoin cannot see, so it cannot be differentiated", node,
                         "write the computation as ordinary Python in the function")
    one = len(node.args) == 1 and not node.keywords
    if anno.get(node, "keys_of", False):
        return _call(norm, keys_of, "keys_of", [norm.argument(node.args[0])], node)
    if one and isinstance(node.args[0], (ast.GeneratorExp, ast.ListComp)):
        if fn is builtins.sum:
            return _loop_into(norm, node.args[0], "sum", "total")
        if fn is list:
            return _loop_into(norm, node.args[0], "list", "items")
        if fn is tuple:                  # built as a list, then made a tuple: `+ (..,)` concatenates
            return _call(norm, tuple, "tuple", [_loop_into(norm, node.args[0], "list", "items")], node)
    return None


def mutated_names(stmts):
    """Local names changed through ``x[i] = ...``, ``x[i] += ...``, ``x.append(...)``, ``.pop``, ``.insert``."""
    out = set()
    for st in stmts:
        for n in ast.walk(st):
            targets = n.targets if isinstance(n, ast.Assign) else \
                [n.target] if isinstance(n, ast.AugAssign) else []
            for t in targets:
                for sub in ast.walk(t):
                    if isinstance(sub, ast.Subscript) and isinstance(sub.value, ast.Name):
                        out.add(sub.value.id)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) \
                    and n.func.attr in ("append", "pop", "insert") and isinstance(n.func.value, ast.Name):
                out.add(n.func.value.id)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Attribute) and n.func.attr in INNER_METHODS \
                    and isinstance(n.func.value, ast.Subscript):
                root = n.func.value
                while isinstance(root, ast.Subscript):
                    root = root.value
                if isinstance(root, ast.Name):
                    out.add(root.id)             # grid[1].append(v): grid changes (inner_write)
    return out


def dict_view(norm, it, loc, backwards=False):
    """``d.items()`` / ``d.keys()`` / ``d.values()`` of a local dict walked by index: (setup
    statements, the name of its keys' list, k -> the k-th item as an expression), or None.
    The keys are ``keys_of(d)``, into which no derivative flows (last to first when ``backwards``:
    ``reversed(d.items())``)."""
    if not (isinstance(it, ast.Call) and isinstance(it.func, ast.Attribute) and not it.args
            and not it.keywords and it.func.attr in ("items", "keys", "values")
            and isinstance(it.func.value, ast.Name) and it.func.value.id in norm.version):
        return None
    view = it.func.attr
    load = lambda n: ast.Name(n, ast.Load())  # noqa: E731
    d, keys = norm.ctx.namer.claim("mapping"), norm.ctx.namer.claim("keys")
    listed = ast.Call(load("list"), [load(d)], [])
    anno.put(listed, "keys_of", True)          # becomes keys_of(d): no derivative flows into the keys
    if backwards:
        listed = ast.Subscript(listed, ast.Slice(None, None, ast.Constant(-1)), ast.Load())
    setup = [blocks._mk(ast.Assign([ast.Name(d, ast.Store())], load(it.func.value.id)), loc),
             blocks._mk(ast.Assign([ast.Name(keys, ast.Store())], listed), loc)]

    def item(k):
        key = ast.Subscript(load(keys), load(k), ast.Load())
        value = ast.Subscript(load(d), copy.deepcopy(key), ast.Load())
        return {"keys": key, "values": value, "items": ast.Tuple([key, value], ast.Load())}[view]

    return setup, keys, item


def dict_view_iteration(norm, target, it, loc, backwards=False):
    """``for k, v in d.items()`` (also ``.keys()``, ``.values()``): an index loop over the keys.

    Returns (setup statements, length, k -> statements binding the target) or None.
    """
    parts = dict_view(norm, it, loc, backwards)
    if parts is None:
        return None
    if it.func.attr == "items" and not (isinstance(target, (ast.Tuple, ast.List)) and len(target.elts) == 2):
        raise norm.error("unpack the items of a dict into two names in the for statement", target,
                         "write `for key, value in d.items()`")
    setup, keys, item = parts
    length = blocks._mk(ast.Call(ast.Name("len", ast.Load()), [ast.Name(keys, ast.Load())], []), loc)

    def bind(k):
        value = item(k)
        pairs = list(zip(target.elts, value.elts)) if isinstance(value, ast.Tuple) else [(target, value)]
        return [blocks._mk(ast.Assign([copy.deepcopy(t)], v), loc) for t, v in pairs]

    return setup, length, bind
