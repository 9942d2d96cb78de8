"""State shared by the passes of one transformation: fresh names and outside references.

Generated code refers to objects the user's function never named (``np`` inside a rule,
the ``unbroadcast`` helper, a rule function called by name).  ``Context.ref`` gives each
such object a name that cannot collide with the user's: reusing the user's own name when it
is bound to the same object, else a fresh one that the compiled namespace provides.
"""

import ast
import builtins
import keyword

from .astutil import walk
from .annotations import CONTEXT
from .ir import MISSING

__all__ = ["Namer", "Context"]


class Namer:
    """Hands out identifiers that appear nowhere else in the function being generated."""

    def __init__(self, reserved=()):
        self.taken = set(reserved) | set(keyword.kwlist)
        self.counters = {}
        self.temps = set()          # names from temp(): the normalizer's own, never the user's

    def claim(self, preferred):
        """``preferred`` if still free, else ``preferred_1``, ``preferred_2``..."""
        if preferred not in self.taken:
            self.taken.add(preferred)
            return preferred
        base = preferred.rstrip("0123456789_") or preferred
        n = self.counters.get(base, 0)
        while True:
            n += 1
            name = f"{base}_{n}" if base[-1:].isdigit() or preferred == base else f"{base}{n}"
            if name not in self.taken:
                self.counters[base] = n
                self.taken.add(name)
                return name

    def temp(self, prefix="t"):
        n = self.counters.get(prefix, 0)
        while True:
            n += 1
            name = f"{prefix}{n}"
            if name not in self.taken:
                self.counters[prefix] = n
                self.taken.add(name)
                self.temps.add(name)
                return name


def names_in(tree):
    """Every identifier used in ``tree`` (variables, parameters, attribute names excluded)."""
    return _names(tree)[0]


def _names(tree):
    """(every identifier used in ``tree``, the names a statement or ``:=`` in it binds or deletes)."""
    used, stored = set(), set()
    for node in walk(tree):
        cls = node.__class__
        if cls is ast.Name:
            used.add(node.id)
            if isinstance(getattr(node, "ctx", None), (ast.Store, ast.Del)):
                stored.add(node.id)
        elif cls is ast.arg:
            used.add(node.arg)
    return used, stored


class Context:
    """One transformation: the parsed function, its namer, and the outside objects used.

    Its fields are declared in core/annotations.CONTEXT (what each means, who sets and reads it);
    no other can be set."""

    __slots__ = tuple(CONTEXT)

    def __init__(self, parsed):
        self.parsed = parsed
        # of the user's function as written (the passes rewrite parsed.node later: these stay
        # facts about the source, and the names the generated code must not take)
        self.user_names, self.user_stored = _names(parsed.node)
        self.namer = Namer(self.user_names)
        self.injected = {}     # name -> object the generated namespace must provide
        self.by_id = {}        # id(object) -> name already given
        self.handlers = []
        self.memory_budget = None
        self.arrays = None
        self.shapes_from = ()
        self.scalar_seed = None

    def error(self, message, node=None, hint=None):
        return self.parsed.error(message, node, hint)

    def resolve(self, func):
        """The object a name or attribute chain of generated code stands for (None: not known)."""
        if isinstance(func, ast.Name):
            if func.id in self.injected:
                return self.injected[func.id]
            v = self.parsed.scope.lookup(func.id)
            return None if v is MISSING else v
        if isinstance(func, ast.Attribute):
            base = self.resolve(func.value)
            return getattr(base, func.attr, None) if base is not None else None
        return None

    def ref(self, obj, preferred):
        """A Name node that evaluates to ``obj`` in the generated function."""
        key = id(obj)
        if key in self.by_id:
            return ast.Name(self.by_id[key], ast.Load())
        scope = self.parsed.scope
        if preferred in self.user_names and scope.lookup(preferred) is obj:
            name = preferred                      # the user's own name for it
        elif preferred not in self.user_names and getattr(builtins, preferred, MISSING) is obj:
            name = preferred
        else:
            name = self.namer.claim(preferred)
            self.injected[name] = obj
        self.by_id[key] = name
        return ast.Name(name, ast.Load())

    def ref_attr(self, module, modname, attr):
        """``np.sum`` style reference: module by its usual name, then the attribute."""
        return ast.Attribute(self.ref(module, modname), attr, ast.Load())
