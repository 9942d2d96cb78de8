"""Which names are a function's own locals, by Python's rules.

A name is local to a function when the function binds it anywhere in its own body (an assignment,
a ``for`` or ``with`` target, ``:=`` even inside a comprehension, ``except .. as``, an import, a
nested ``def``/``class``, a ``del``, a ``match`` capture) and does not declare it ``global`` or
``nonlocal``.  Reading a local before it is bound raises ``UnboundLocalError`` even when a global or
an enclosing function has a variable of that name; the front end follows the same rule
(``Emitter.unbound``).  Bodies of nested functions, lambdas and classes and the targets of
comprehensions are scopes of their own.
"""

import ast

__all__ = ["local_names", "parameters"]


def parameters(fdef):
    """The parameter names of a FunctionDef or Lambda (``*args``/``**kwargs`` included)."""
    a = fdef.args
    names = [p.arg for p in a.posonlyargs + a.args + a.kwonlyargs]
    return set(names) | {p.arg for p in (a.vararg, a.kwarg) if p is not None}


def local_names(fdef):
    """The names local to ``fdef`` (a FunctionDef or Lambda), its parameters included."""
    found = _Binds()
    body = fdef.body if isinstance(fdef.body, list) else [fdef.body]
    for node in body:
        found.visit(node)
    return (parameters(fdef) | found.bound) - found.declared


class _Binds(ast.NodeVisitor):
    """The names one scope binds, and those it declares global or nonlocal."""

    def __init__(self, comprehension=False):
        self.bound, self.declared = set(), set()
        self.comprehension = comprehension     # inside a comprehension: only `:=` binds out here

    def _bind(self, name):
        if not self.comprehension:
            self.bound.add(name)

    def visit_Name(self, node):
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self._bind(node.id)

    def visit_NamedExpr(self, node):
        self.bound.add(node.target.id)          # binds in the enclosing function, even from a comprehension
        self.visit(node.value)

    def visit_Global(self, node):
        self.declared.update(node.names)

    visit_Nonlocal = visit_Global

    def _definition(self, node):
        self._bind(node.name)
        for d in node.decorator_list:
            self.visit(d)

    def visit_FunctionDef(self, node):
        self._definition(node)
        self._defaults(node.args)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node):
        self._defaults(node.args)

    def _defaults(self, args):
        for d in args.defaults + [d for d in args.kw_defaults if d is not None]:
            self.visit(d)

    def visit_ClassDef(self, node):
        self._definition(node)
        for b in node.bases + [k.value for k in node.keywords]:
            self.visit(b)

    def _comprehension(self, node):
        gens = node.generators
        self.visit(gens[0].iter)            # the first iterable is evaluated in the enclosing scope
        inner = _Binds(comprehension=True)
        for i, g in enumerate(gens):
            inner.visit(g.target)
            if i:
                inner.visit(g.iter)
            for cond in g.ifs:
                inner.visit(cond)
        for part in ("elt", "key", "value"):
            if getattr(node, part, None) is not None:
                inner.visit(getattr(node, part))
        self.bound |= inner.bound           # (its `:=` targets)

    visit_ListComp = visit_SetComp = visit_GeneratorExp = visit_DictComp = _comprehension

    def visit_Import(self, node):
        for alias in node.names:
            self._bind(alias.asname or alias.name.split(".")[0])

    visit_ImportFrom = visit_Import

    def visit_ExceptHandler(self, node):
        if node.name:
            self._bind(node.name)
        self.generic_visit(node)

    def visit_MatchAs(self, node):
        if node.name:
            self._bind(node.name)
        self.generic_visit(node)

    def visit_MatchStar(self, node):
        if node.name:
            self._bind(node.name)

    def visit_MatchMapping(self, node):
        if node.rest:
            self._bind(node.rest)
        self.generic_visit(node)
