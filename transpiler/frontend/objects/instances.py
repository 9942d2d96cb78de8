"""Instances of user classes made inside the differentiated function, kept as their fields.

``b = Box(x, 2.0)`` makes no object in the core IR: ``Box.__init__`` is inlined (calls/nested.py) with
``self`` standing for the new instance, and each attribute set on it becomes a variable of its
own (``b.v`` -> ``b_v``), versioned like any local -- so derivatives flow through fields exactly
as through locals, and writing an attribute later (``b.v = ...``) is a new version.  Methods,
``@property`` getters, ``@staticmethod``/``@classmethod`` and ``super()`` calls are inlined the
same way.  Only plain classes of this module qualify (no ``__new__``, ``__slots__``,
``__getattr__``/``__setattr__`` hooks; a dataclass's generated ``__init__`` is read from its
fields).  An instance used any other way -- returned, passed to a function, stored in a
container, compared, rebound in a loop or a branch -- is refused at that line.
"""

import ast
import types

from ...core.astutil import walk

__all__ = ["Instance", "ClassRef", "Objects", "is_object", "supported", "construct", "method_call", "attribute", "field_name",
           "escape_error", "fields_changed_in", "merge_branches"]

_HOOKS = ("__new__", "__getattr__", "__getattribute__", "__setattr__", "__delattr__", "__slots__",
          "__set_name__", "__class_getitem__")


class Instance:
    """An instance made in the function: its class and the variable (user key) of each attribute."""

    def __init__(self, cls, label):
        self.cls, self.label, self.fields = cls, label, {}

    def __repr__(self):
        return f"<{self.cls.__name__} made at {self.label}>"


class Objects:
    """A list, tuple or dict literal that holds objects made in the function (``[Layer(a), Layer(b)]``):
    known item by item while the function is lowered, like an object's fields.  ``items``: atoms,
    Instances or Objects; ``keys``: a dict's constant keys (None for a list or tuple)."""

    def __init__(self, kind, items, keys=None, cls=None):
        self.kind, self.items, self.keys = kind, list(items), None if keys is None else list(keys)
        self.cls = cls           # a namedtuple class: its items are also read by field name

    def field(self, norm, node):
        """``p.x`` of a namedtuple made here, else a located refusal."""
        if self.cls is None or node.attr not in self.cls._fields:
            raise escape_error(norm, node, self)
        return self.items[self.cls._fields.index(node.attr)]

    def item(self, norm, index, node):
        """The item at constant ``index`` (an ast.Constant), else a located refusal."""
        if isinstance(index, ast.Name) and index.id in norm.constants:
            index = ast.Constant(norm.constants[index.id])      # a loop's key, unrolled
        key = index.value if isinstance(index, ast.Constant) else None
        if self.keys is not None:
            if key not in self.keys:
                raise norm.error(f"this dict of objects has no key {key!r} known here", node,
                                 "read it with a constant key that it was built with")
            return self.items[self.keys.index(key)]
        if type(key) is not int or not -len(self.items) <= key < len(self.items):
            raise norm.error("a list of objects made in the function is read at a position adjoin does not know "
                             "when it lowers the function", node,
                             "read it with a constant index, or loop over it (`for obj in objs:`)")
        return self.items[key]

    def __repr__(self):
        return f"<{self.kind.__name__} of {len(self.items)} items made here>"


def is_object(value):
    """An object made in the function, or a container literal holding some (not an AST value)."""
    return isinstance(value, (Instance, ClassRef, Objects))


class ClassRef:
    """``cls`` inside an inlined classmethod: the class itself."""

    def __init__(self, cls):
        self.cls = cls


def _generated_init(cls):
    """A dataclass's own generated ``__init__`` (no source to read: made from its fields)."""
    import dataclasses      # (loaded on first use: import transpiler need not pay for it)
    init = vars(cls).get("__init__")
    return dataclasses.is_dataclass(cls) and isinstance(init, types.FunctionType) \
        and init.__code__.co_filename.startswith("<")


def supported(norm, cls):
    """Is ``cls`` a plain class of this module whose instances can be kept as fields?"""
    if not isinstance(cls, type) or type(cls) is not type or cls.__module__ == "builtins":
        return False
    if issubclass(cls, (tuple, BaseException)) or cls.__mro__[-1] is not object:
        return False
    for klass in cls.__mro__[:-1]:
        names = vars(klass)
        if any(h in names for h in _HOOKS) or "__post_init__" in names:
            return False
        for name, v in names.items():
            if name.startswith("__") and name != "__init__":
                continue                 # only reached through uses refused anyway (==, repr(b), ...)
            fn = getattr(v, "__func__", v)
            if isinstance(v, property):
                fn = v.fget
            if isinstance(fn, types.FunctionType) and fn.__globals__ is not norm.scope.globals \
                    and not fn.__code__.co_filename.startswith("<"):      # (a dataclass's generated ones)
                return False
    return True


def _lookup(cls, name, after=None):
    """(owner class, raw class attribute) for ``name`` in ``cls``'s MRO (after ``after``), else None."""
    mro = cls.__mro__
    if after is not None:
        mro = mro[mro.index(after) + 1:]
    for klass in mro:
        if name in vars(klass):
            return klass, vars(klass)[name]
    return None


def field_name(norm, inst, attr, node=None):
    """The user key that holds ``inst.attr`` (claimed once per instance and attribute); ``node``: a
    write, refused when the class defines ``attr`` as a property or other data descriptor (Python
    would call its setter, not store the value)."""
    found = _lookup(inst.cls, attr)
    if node is not None and found is not None and hasattr(type(found[1]), "__set__"):
        raise norm.error(f"`{inst.cls.__name__}.{attr}` is a {type(found[1]).__name__} with a setter: writing "
                         "it runs code adjoin does not inline", node,
                         "store the value under another attribute name, or set it through a method")
    key = inst.fields.get(attr)
    if key is None:
        key = inst.fields[attr] = norm.ctx.namer.claim(f"{inst.label}_{attr}")
        norm.field_keys = getattr(norm, "field_keys", set())
        norm.field_keys.add(key)
    return key


def escape_error(norm, node, inst):
    what = f"the {inst.cls.__name__} object" if isinstance(inst, (Instance, ClassRef)) or \
        isinstance(inst, Objects) and inst.cls is not None else \
        "the list of objects" if not isinstance(inst, Objects) or inst.keys is None else "the dict of objects"
    return norm.error(f"{what} made in this function is used here in a way adjoin does not follow (an "
                      "operand, an index, a condition, a value returned from the differentiated function, an "
                      "argument of a function adjoin does not inline)", node,
                      "use it through its attributes and methods, pass it to functions of yours, keep it in "
                      "lists and dicts read with constant positions or looped over, or make it outside the "
                      "differentiated function")


def construct(norm, node, cls):
    """``Cls(...)``: a new Instance with ``__init__`` inlined (its fields set); returns it."""
    label = norm.ctx.namer.claim(cls.__name__.lower())
    inst = Instance(cls, label)
    if _generated_init(cls):
        _dataclass_init(norm, node, inst)
        return inst
    found = _lookup(cls, "__init__")
    if found is None or found[1] is object.__init__:
        if node.args or node.keywords:
            raise norm.error(f"{cls.__name__}() takes no arguments", node, "pass none")
        return inst
    owner, init = found
    norm.inline_function(node, init, prefix=[inst], owner=owner)
    return inst


def _dataclass_init(norm, node, inst):
    import dataclasses      # (loaded on first use: import transpiler need not pay for it)
    fs = [f for f in dataclasses.fields(inst.cls) if f.init]
    if len(node.args) > len(fs) or any(k.arg is None for k in node.keywords):
        raise norm.error(f"{inst.cls.__name__}() is given more arguments than it has fields", node,
                         "pass one value per field")
    given = dict(zip([f.name for f in fs], node.args))
    for k in node.keywords:
        given[k.arg] = k.value
    for f in fs:
        if f.name in given:
            value = given[f.name]
        elif f.default is not dataclasses.MISSING and isinstance(f.default, (int, float, bool, str, type(None))):
            value = ast.copy_location(ast.Constant(f.default), node)
        else:
            raise norm.error(f"the field `{f.name}` of {inst.cls.__name__} needs a value here", node,
                             "pass it (a default_factory is not supported)")
        norm.bind(ast.copy_location(ast.Name(field_name(norm, inst, f.name), ast.Store()), node), value)


def method_call(norm, node, inst_or_cls, name, after=None):
    """``b.m(...)``, ``Cls.m(...)`` inside a method, or ``super().m(...)``: the method inlined."""
    cls = inst_or_cls.cls
    found = _lookup(cls, name, after)
    if found is None:
        raise norm.error(f"`{cls.__name__}` has no method `{name}`", node, "check the spelling")
    owner, raw = found
    if isinstance(raw, staticmethod):
        return norm.inline_function(node, raw.__func__, owner=owner)
    if isinstance(raw, classmethod):
        return norm.inline_function(node, raw.__func__, prefix=[ClassRef(cls)], owner=owner)
    if isinstance(raw, types.FunctionType) and isinstance(inst_or_cls, Instance):
        return norm.inline_function(node, raw, prefix=[inst_or_cls], owner=owner)
    raise norm.error(f"`{cls.__name__}.{name}` is not a method adjoin can inline here", node,
                     "call a plain method, staticmethod or classmethod")


def attribute(norm, node, inst, after=None):
    """``b.attr`` read: the field's current version, a property's getter inlined, or a class constant
    (``super().attr``: ``after`` is the class whose method reads it)."""
    key = inst.fields.get(node.attr)
    if key is not None and key in norm.version and after is None:
        return ast.copy_location(ast.Name(norm.version[key], ast.Load()), node)
    found = _lookup(inst.cls, node.attr, after)
    if found is None:
        raise norm.error(f"the {inst.cls.__name__} object has no attribute `{node.attr}` here", node,
                         "set it (in __init__ or before this line) first")
    owner, raw = found
    if isinstance(raw, property) and isinstance(raw.fget, types.FunctionType):
        call = ast.copy_location(ast.Call(node, [], []), node)
        return norm.inline_function(call, raw.fget, prefix=[inst], owner=owner)
    if raw is None or isinstance(raw, (bool, int, float, complex, str)):
        return ast.copy_location(ast.Constant(raw), node)
    raise norm.error(f"`{ast.unparse(node)}` ({type(raw).__name__}) cannot be used as a value here", node,
                     "call the method, or keep the value in a variable")


def _written_attributes(cls):
    """Attribute names any function of ``cls`` (or its bases) assigns on some name (a superset of
    what its methods may set on ``self``)."""
    import dataclasses      # (loaded on first use: import transpiler need not pay for it)
    from ..source.parsing import parse_function
    out = set()
    for klass in cls.__mro__[:-1]:
        for v in vars(klass).values():
            fn = v.fget if isinstance(v, property) else getattr(v, "__func__", v)
            if not isinstance(fn, types.FunctionType):
                continue
            try:
                tree = parse_function(fn).node
            except Exception:
                continue                 # a generated __init__ (dataclass): its fields are its writes
            out |= {n.attr for n in walk(tree) if isinstance(n, ast.Attribute) and isinstance(n.ctx, ast.Store)}
        if dataclasses.is_dataclass(klass):
            out |= {f.name for f in dataclasses.fields(klass)}
    return out


def fields_changed_in(norm, stmts):
    """Field variables ``stmts`` (a loop body) may change: attributes written on objects made in the
    function, directly or by any of their class's methods."""
    out = set()
    for st in stmts:
        for n in walk(st):
            if isinstance(n, ast.Name) and isinstance(norm.version.get(n.id), Instance):
                inst = norm.version[n.id]
                out |= {field_name(norm, inst, a) for a in _written_attributes(inst.cls)}
    return out


def super_of(norm, node):
    """(instance, owner class) for ``super()`` in a method inlined for an object made here, else None."""
    if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "super"
            and not node.args and not node.keywords and "super" not in norm.version):
        return None
    owner, this = (getattr(norm, "method_stack", None) or [(None, None)])[-1]
    if owner is None or not isinstance(this, (Instance, ClassRef)):
        raise norm.error("super() outside a method of an object made in this function", node,
                         "call the base class's method directly")
    return this, owner


def compare(norm, node, left, right):
    """``a is b``, ``a == b`` (and their negations) where an operand is an object made in the function:
    identity is known while the function is lowered (an object made here is no other value); ``==``
    runs the class's ``__eq__`` (a dataclass's compares the fields in order) or is identity."""
    op = node.ops[0]
    negate = isinstance(op, (ast.IsNot, ast.NotEq))
    if isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(left, Instance) and isinstance(right, Instance):
        result = _equal(norm, node, left, right)
    elif isinstance(op, (ast.Is, ast.IsNot, ast.Eq, ast.NotEq)) and not (
            isinstance(op, (ast.Eq, ast.NotEq)) and isinstance(left, Instance) and _lookup(left.cls, "__eq__")[0]
            is not object):
        result = ast.Constant(left is right)
    else:
        raise escape_error(norm, node, left if is_object(left) else right)
    if not negate:
        return ast.copy_location(result, node)
    return ast.copy_location(ast.Constant(not result.value), node) if isinstance(result, ast.Constant) else \
        ast.copy_location(ast.UnaryOp(ast.Not(), norm.atom_name(result, node)), node)


def _equal(norm, node, a, b):
    owner, raw = _lookup(a.cls, "__eq__")
    if owner is object:
        return ast.Constant(a is b)
    import dataclasses      # (loaded on first use: import transpiler need not pay for it)
    if dataclasses.is_dataclass(owner) and isinstance(raw, types.FunctionType) \
            and raw.__code__.co_filename.startswith("<"):             # the generated __eq__
        if a.cls is not b.cls:
            return ast.Constant(a is b)
        names = [f.name for f in dataclasses.fields(a.cls) if f.compare]
        sides = [ast.Tuple([attribute(norm, ast.copy_location(ast.Attribute(ast.Name("_", ast.Load()), n, ast.Load()),
                                                              node), inst) for n in names], ast.Load())
                 for inst in (a, b)]
        sides = [norm.temp(side, node) for side in sides]
        return ast.Compare(sides[0], [ast.Eq()], [sides[1]])
    if isinstance(raw, types.FunctionType):
        call = ast.copy_location(ast.Call(ast.Name("__eq__", ast.Load()), [], []), node)
        return norm.inline_function(call, raw, prefix=[a, b], owner=owner)
    raise escape_error(norm, node, a)


def namedtuple_value(norm, node, cls):
    """``Point(a, b)`` of a namedtuple class: the tuple kept item by item (Objects with the class, so
    ``p.x`` reads a field); None for a call shape it does not read (``*args``, ``**kw``)."""
    if any(isinstance(a, ast.Starred) for a in node.args) or any(k.arg is None for k in node.keywords):
        return None
    fields, defaults = list(cls._fields), dict(getattr(cls, "_field_defaults", {}))
    given = dict(zip(fields, node.args))
    given.update((k.arg, k.value) for k in node.keywords)
    if len(node.args) > len(fields) or set(given) - set(fields):
        raise norm.error(f"{cls.__name__}() takes the fields {', '.join(fields)}", node, "pass one value per field")
    values = {}                          # (evaluated in the order written, as Python does)
    order = [f for f in fields if f in given and given[f] in node.args] + [k.arg for k in node.keywords]
    for f in order:
        values[f] = norm.expr(given[f])
    items = []
    for f in fields:
        if f in values:
            items.append(values[f])
        elif f in defaults and isinstance(defaults[f], (int, float, complex, str, bool, type(None))):
            items.append(ast.copy_location(ast.Constant(defaults[f]), node))
        else:
            raise norm.error(f"{cls.__name__}() is missing the field `{f}`", node, "pass it")
    return Objects(ast.Tuple, items, cls=cls)


def merge_branches(norm, user, vb, vo):
    """``user`` names one object after one branch and another after the other (``b = Box(2 * x)`` in one):
    when both are of one class with the same attributes and nothing else holds either, ``user`` names a new
    object whose attributes are merged like variables (in ``vb``/``vo``, the versions after each branch).
    Nothing else can tell the new object from the one the branch made, so it is exact; else left alone
    (and refused where the branches are joined)."""
    a, b = vb[user], vo[user]
    if not (isinstance(a, Instance) and isinstance(b, Instance)) or a is b or a.cls is not b.cls \
            or set(a.fields) != set(b.fields):
        return
    for versions in (vb, vo):
        for key, value in versions.items():
            if key != user and _holds(value, (a, b)):
                return
    merged = Instance(a.cls, norm.ctx.namer.claim(a.cls.__name__.lower()))
    for attr in a.fields:
        key = field_name(norm, merged, attr)
        vb[key], vo[key] = vb.get(a.fields[attr]), vo.get(b.fields[attr])
    vb[user] = vo[user] = merged


def _holds(value, objs):
    if any(value is o for o in objs):
        return True
    if isinstance(value, Objects):
        return any(_holds(item, objs) for item in value.items)
    return False
