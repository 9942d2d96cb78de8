"""``tf.Module``: a named container that finds the variables and modules in its attributes.

Attributes are walked in sorted-name order (lists, tuples and dicts inside them too): first
the module's own attributes, then each submodule's in turn, each object listed once.  So
``variables`` / ``trainable_variables`` come out sorted by attribute name, as in TensorFlow.
"""

import contextlib
import functools
import re

from ..engine.variable import Variable, name_scopes

__all__ = ["Module", "name_scope"]

_IGNORED = frozenset(("_self_unconditional_checkpoint_dependencies",
                      "_self_unconditional_dependency_names"))


@contextlib.contextmanager
def _scope(name):
    """Enter scope ``name``: relative to the enclosing scope, or absolute if it ends in '/'
    (``''`` and ``None`` return to the top level); yields the full prefix, e.g. ``'a/b/'``."""
    if not name:
        full = ""
    elif name.endswith("/"):
        full = name
    else:
        full = (name_scopes[-1] if name_scopes else "") + name + "/"
    name_scopes.append(full)
    try:
        yield full
    finally:
        name_scopes.pop()


class name_scope:  # noqa: N801  (TF's name)
    """``tf.name_scope(name)``: variables created inside are named ``name/...``."""

    def __init__(self, name):
        self._name = name
        self._cm = None

    @property
    def name(self):
        return self._name

    def __enter__(self):
        self._cm = _scope(self._name)
        return self._cm.__enter__()

    def __exit__(self, *exc):
        return self._cm.__exit__(*exc)


def _camel_to_snake(name):
    s = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z0-9])([A-Z])", r"\1_\2", s).lower()


def _is_module(x):
    return isinstance(x, Module)


def _leaves(value):
    if isinstance(value, Module) or isinstance(value, Variable):
        yield value
    elif isinstance(value, dict):
        try:
            keys = sorted(value)
        except TypeError:
            keys = list(value)
        for k in keys:
            yield from _leaves(value[k])
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


def _walk(module, predicate, recursive=True, seen=None, stack=None):
    if seen is None:
        seen = {id(module)}
    if stack is None:
        stack = []
    if id(module) in stack:
        recursive = False
    submodules = []
    attrs = vars(module)
    for key in sorted(attrs):
        if key in _IGNORED:
            continue
        for leaf in _leaves(attrs[key]):
            if id(leaf) in seen:
                continue
            seen.add(id(leaf))
            if predicate(leaf):
                yield leaf
            if recursive and _is_module(leaf):
                submodules.append(leaf)
    stack.append(id(module))
    for sub in submodules:
        yield from _walk(sub, predicate, recursive, seen, stack)
    stack.pop()


class Module:
    """Base class for models and layers that own variables (``tf.Module``)."""

    def __init__(self, name=None):
        if name is None:
            name = _camel_to_snake(type(self).__name__)
        elif not (isinstance(name, str) and name.isidentifier()):
            raise ValueError(
                f"{name!r} is not a valid module name. Module names must be valid Python identifiers "
                f"(e.g. a valid class name).")
        self._name = name
        with _scope(name) as full:  # the scope's full name, fixed when the module is made
            self._scope_name = full

    @property
    def name(self):
        return self._name

    @property
    def name_scope(self):
        return name_scope(self._scope_name)

    @property
    def variables(self):
        return tuple(_walk(self, lambda x: isinstance(x, Variable)))

    @property
    def trainable_variables(self):
        return tuple(_walk(self, lambda x: isinstance(x, Variable) and x.trainable))

    @property
    def non_trainable_variables(self):
        return tuple(_walk(self, lambda x: isinstance(x, Variable) and not x.trainable))

    @property
    def submodules(self):
        return tuple(_walk(self, _is_module))

    def _flatten(self, recursive=True, predicate=None, attribute_traversal_key=None,
                 with_path=False, expand_composites=False):
        return tuple(_walk(self, predicate or (lambda x: True), recursive))

    @classmethod
    def with_name_scope(cls, method):
        @functools.wraps(method)
        def wrapped(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)
        return wrapped
