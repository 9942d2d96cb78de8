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

__all__ = ["Instance", "ClassRef", "supported", "construct", "method_call", "attribute", "field_name",
           "escape_error", "fields_changed_in"]

_HOOKS = ("__new__", "__getattr__", "__getattribute__", "__setattr__", "__delattr__", "__slots__",
          "__set_name__", "__class_getitem__")


class Instance:
    """An instance made in the function: its class and the variable (user key) of each attribute."""

    def __init__(self, cls, label):
        self.cls, self.label, self.fields = cls, label, {}

    def __repr__(self):
        return f"<{self.cls.__name__} made at {self.label}>"


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
    return norm.error(f"the {inst.cls.__name__} object made in this function is used here as a value "
                      "(returned, passed, stored, compared or rebound across a loop or branch), which "
                      "adjoin does not follow", node,
                      "use it through its attributes and methods only, or make it outside the "
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
