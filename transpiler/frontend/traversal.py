"""Walks of a function's AST for the passes that look at every node of it.

``statements``: a function's statements, nested ones included, without walking expressions.

``nodes``, ``calls``: a function's nodes and calls, without the nodes no pass looks at.

``Transformer``: ``ast.NodeTransformer`` with the same results at a fraction of the cost.

``NodeTransformer`` looks a visitor method up by name for every node, reads fields through two
generator layers, and visits nodes that cannot change: contexts (``Load``), operators, and
names and constants (a name's only child is its context).  ``Transformer`` looks each node
class's visitor up once and returns those nodes as they are, unless the subclass visits them.
"""

import ast

__all__ = ["Transformer", "statements", "nodes", "calls"]

_AST = ast.AST
_SAME = object()               # "return the node as it is"
_LEAVES = (ast.Name, ast.Constant)
_CONSTANT_VISITORS = ("visit_Num", "visit_Str", "visit_Bytes", "visit_NameConstant", "visit_Ellipsis")
_DEPRECATED_CONSTANT_VISIT = getattr(ast.NodeVisitor, "visit_Constant", None)   # (gone in Python 3.14)


_STATEMENT_LISTS = {"body", "orelse", "finalbody", "handlers", "cases"}


def statements(body):
    """Every statement in the list ``body``, nested ones included (in branches, loops, handlers,
    match cases, nested functions and classes), in ``ast.walk``'s order."""
    out = []
    todo = list(body)
    for node in todo:                    # (todo grows as the walk goes: breadth first)
        if isinstance(node, ast.stmt):
            out.append(node)
        for field in node._fields:
            if field in _STATEMENT_LISTS:
                todo.extend(getattr(node, field, ()))
    return out


def nodes(tree):
    """Every node in ``tree`` in ``ast.walk``'s order, but the field-less contexts and operators
    (``Load``, ``Add``): a third of a function's nodes, which no pass looks for."""
    return _breadth_first(tree, _FIELDLESS)


def calls(tree):
    """Every ``Call`` in ``tree``, in ``ast.walk``'s order (listed before any is changed)."""
    return [n for n in _breadth_first(tree, _NO_CALLS) if n.__class__ is ast.Call]


def _breadth_first(tree, skip):
    """The nodes of ``tree`` (breadth first) but those of a class in ``skip`` and all below them."""
    todo = [tree]
    for node in todo:                    # (todo grows as the walk goes)
        for field in node._fields:
            v = getattr(node, field, None)
            if v.__class__ is list:
                todo.extend([x for x in v if isinstance(x, _AST) and x.__class__ not in skip])
            elif isinstance(v, _AST) and v.__class__ not in skip:
                todo.append(v)
    return todo


_CONTEXTS_AND_OPERATORS = (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop)
_FIELDLESS = {c for c in vars(ast).values() if isinstance(c, type) and issubclass(c, _CONTEXTS_AND_OPERATORS)}
_NO_CALLS = _FIELDLESS | {ast.Name, ast.Constant}          # (nothing below them)


class Transformer(ast.NodeTransformer):
    """A ``NodeTransformer`` (same visitors, same rewriting of fields and lists), faster."""

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        cls._how = {}          # node class -> visitor function, or _SAME

    def _visitor(self, cls):
        how = getattr(type(self), "visit_" + cls.__name__, None)
        if how is _DEPRECATED_CONSTANT_VISIT and not any(hasattr(self, m) for m in _CONSTANT_VISITORS):
            how = None         # (NodeVisitor's own: the deprecated visit_Num etc. only)
        if how is None:
            leaf = not cls._fields or issubclass(cls, _LEAVES) and not any(
                hasattr(self, "visit_" + c) for c in ("Load", "Store", "Del"))    # (a name's only child)
            how = _SAME if leaf else type(self).generic_visit
        self._how[cls] = how
        return how

    def visit(self, node):
        how = self._how.get(node.__class__) or self._visitor(node.__class__)
        return node if how is _SAME else how(self, node)

    def generic_visit(self, node):
        hows = self._how
        for field in node._fields:
            try:
                old = getattr(node, field)
            except AttributeError:
                continue
            if isinstance(old, list):
                new = []
                for value in old:
                    if isinstance(value, _AST):
                        value = self.visit(value)
                        if value is None:
                            continue
                        if not isinstance(value, _AST):
                            new.extend(value)
                            continue
                    new.append(value)
                old[:] = new
            elif isinstance(old, _AST):
                how = hows.get(old.__class__) or self._visitor(old.__class__)
                if how is _SAME:
                    continue
                value = how(self, old)
                if value is None:
                    delattr(node, field)
                elif value is not old:
                    setattr(node, field, value)
        return node
