"""Fast AST helpers. A deep copy of AST nodes: the transformer copies rule templates and whole generated
functions many times, and ``copy.deepcopy`` (memo dictionary, reduce protocol) took a third of
the transformation's time.

Only AST structure is copied: child nodes and lists of them are new, every other attribute
(a number, a name, and the annotations the passes hang on nodes such as ``_prim`` or ``_src``)
is shared, as the passes treat those as references.  Field-less nodes (``Load``, ``Add``)
are shared too: Python's own parser shares them.
"""

import ast

from . import annotations as anno

__all__ = ["copy_ast", "walk", "collect", "statements", "fix_locations", "variable_names", "as_value"]


def copy_ast(node, _AST=ast.AST, _list=list):
    """A copy of ``node`` (an AST, or a list of them) sharing no node or list with it."""
    if node.__class__ is _list:
        return [copy_ast(x) if isinstance(x, _AST) else x for x in node]
    cls = node.__class__
    if not cls._fields:
        return node
    new = cls.__new__(cls)
    d = new.__dict__
    for k, v in node.__dict__.items():
        if v.__class__ is _list:
            d[k] = [copy_ast(x) if isinstance(x, _AST) else x for x in v]
        elif isinstance(v, _AST):
            d[k] = copy_ast(v)
        else:
            d[k] = v
    return new


def walk(node, _AST=ast.AST, _list=list):
    """``ast.walk`` (breadth first, the same order) without its two generator layers per node:
    the transformer walks every generated function several times."""
    from collections import deque
    todo = deque([node])
    pop, push, extend = todo.popleft, todo.append, todo.extend
    while todo:
        node = pop()
        for name in node._fields:
            v = getattr(node, name, None)
            if v.__class__ is _list:
                extend([x for x in v if isinstance(x, _AST)])
            elif isinstance(v, _AST):
                push(v)
        yield node


def collect(node, buckets, _AST=ast.AST, _list=list, _leaves=(ast.Name, ast.Constant)):
    """The nodes under ``node`` (``node`` too) of the classes ``buckets`` maps to an index:
    a list per index, each in ``walk``'s order.  One pass that skips what cannot matter
    (a name's or a constant's insides, ``Load``, ``Add``), for passes that look for a few
    kinds of node in a whole generated function."""
    out = [[] for _ in range(max(buckets.values()) + 1)]
    todo = [node]
    append = todo.append
    get = buckets.get
    for n in todo:
        cls = n.__class__
        k = get(cls)
        if k is not None:
            out[k].append(n)
        if cls in _leaves:
            continue
        for name in cls._fields:
            v = getattr(n, name, None)
            if v.__class__ is _list:
                for x in v:
                    if isinstance(x, _AST) and (x._fields or x.__class__ in buckets):
                        append(x)
            elif isinstance(v, _AST) and (v._fields or v.__class__ in buckets):
                append(v)
    return out


_BLOCK_ITEMS = (ast.stmt, ast.excepthandler, ast.match_case)


def statements(node):
    """The statements under ``node`` (``node`` itself too), in ``walk``'s order, without visiting
    a single expression: a pass that looks only at statements need not walk every name."""
    todo = [node]
    append = todo.append
    for n in todo:
        for name in n._fields:
            v = getattr(n, name, None)
            if v.__class__ is list:
                for x in v:
                    if isinstance(x, _BLOCK_ITEMS):
                        append(x)
    return [n for n in todo if isinstance(n, ast.stmt)]


def fix_locations(node, names=None, _AST=ast.AST, _list=list, _Name=ast.Name):
    """``ast.fix_missing_locations`` without recursion: a node without a location takes its
    parent's (the same result, for the generated functions the transformer builds).

    ``names``: a list to which the ``Name`` nodes are appended (in source order), for a
    caller that needs them next (codegen.free_names) and so saves another walk.

    Depth first: a node's children are near it in memory (they were made with it), so on a
    function too large for the processor's caches this is faster than breadth first."""
    todo = [(node, 1, 0, 1, 0)]
    pop, push = todo.pop, todo.append
    while todo:
        n, lineno, col, end_lineno, end_col = pop()
        cls = n.__class__
        if names is not None and cls is _Name:
            names.append(n)
        if "lineno" in cls._attributes:
            v = getattr(n, "lineno", None)
            if v is None:
                n.lineno = lineno
            else:
                lineno = v
            v = getattr(n, "end_lineno", None)
            if v is None:
                n.end_lineno = end_lineno
            else:
                end_lineno = v
            v = getattr(n, "col_offset", None)
            if v is None:
                n.col_offset = col
            else:
                col = v
            v = getattr(n, "end_col_offset", None)
            if v is None:
                n.end_col_offset = end_col
            else:
                end_col = v
        for name in reversed(cls._fields):
            v = getattr(n, name, None)
            if v.__class__ is _list:
                for x in reversed(v):
                    if isinstance(x, _AST):
                        push((x, lineno, col, end_lineno, end_col))
            elif isinstance(v, _AST):
                push((v, lineno, col, end_lineno, end_col))
    return node


def variable_names(node):
    """The local names ``node`` reads: a name, or the names in a (nested) tuple or list literal;
    names the front end marked static (modules, constants) are not variables."""
    if isinstance(node, ast.Name) and not anno.get(node, "static", False):
        return [node.id]
    if isinstance(node, (ast.Tuple, ast.List)):
        return [n for e in node.elts for n in variable_names(e)]
    return []


def as_value(index):
    """An index expression (``:, 0``) as an ordinary value (``(slice(None), 0)``)."""
    if isinstance(index, ast.Slice):
        none = ast.Constant(None)
        parts = [index.lower or none, index.upper or none] + ([index.step] if index.step else [])
        if len(parts) == 2 and index.lower is None and index.upper is None:
            parts = [none]
        return ast.Call(ast.Name("slice", ast.Load()), parts, [])
    if isinstance(index, ast.Tuple):
        return ast.Tuple([as_value(e) for e in index.elts], ast.Load())
    return index
