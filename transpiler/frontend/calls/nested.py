"""Nested ``def``s and lambdas, inlined where they are called (a normalize-time step).

A function defined inside the differentiated one usually reads the outer function's locals,
which are SSA values of the outer function: it cannot be transformed on its own.  So its
body is normalized again at each call, with its parameters bound to the call's atoms and
its locals given fresh names::

    def f(x, w):                          t1 = x * w          # h's parameter t is x
        h = lambda t: t * w       ->      y = t1 + 1.0
        return h(x) + 1.0

Free names read the outer variables' versions at the call, as Python's late-binding closures
do.  Defaults are evaluated where the function is defined.  A nested function that calls
itself, or is passed somewhere as a value, raises TranspileError (define it at module level:
module-level callees are differentiated separately and may recurse).
"""

import ast
import copy
import types

from ..control import iterables
from ..control.jumps import Restructure
from ..source import scopes
from .links import linked_now, links as _links, write_back as _write_back

__all__ = ["define", "define_lambda", "call", "call_made", "is_local_function", "own_names", "needs_inlining",
           "call_local", "is_function_value", "linked_now"]


class _Local:
    """A nested function: its node (FunctionDef or Lambda) and its evaluated defaults.  ``env``:
    None for a function inlined where it is defined (its free names read the current versions);
    else (versions, local functions) its body sees -- the definer's, for a function passed to a
    module-level function; none, for that module-level function itself."""

    def __init__(self, node, defaults, kw_defaults, env=None, key=None):
        self.node, self.defaults, self.kw_defaults = node, defaults, kw_defaults
        self.env, self.key = env, key


def _locals(norm):
    if not hasattr(norm, "local_fns"):
        norm.local_fns = {}
        norm.inlining = []
    return norm.local_fns


def is_local_function(norm, name):
    return name in getattr(norm, "local_fns", {})


def _record(norm, name, node):
    a = node.args
    defaults = [norm.expand(norm.expr(d)) for d in a.defaults]
    kw_defaults = [None if d is None else norm.expand(norm.expr(d)) for d in a.kw_defaults]
    _locals(norm)[name] = _Local(node, defaults, kw_defaults)
    norm.version.pop(name, None)


def define(norm, s):
    """``def h(...)`` inside the function: remember it for inlining at its calls."""
    if s.decorator_list:
        raise norm.error("a decorated nested function cannot be inlined", s,
                         "define it at module level")
    _record(norm, s.name, s)


def define_lambda(norm, target, lam):
    """``h = lambda ...``: remember it like a nested def."""
    _record(norm, target.id, lam)


def passed_function(norm, node):
    """For an argument that is a lambda or a nested function's name: the function it passes, seeing
    the caller's variables as they are now (the callee cannot rebind them); else None."""
    env = (dict(norm.version), dict(_locals(norm)))
    if isinstance(node, ast.Lambda):
        a = node.args
        return _Local(node, [norm.expand(norm.expr(d)) for d in a.defaults],
                      [None if d is None else norm.expand(norm.expr(d)) for d in a.kw_defaults], env)
    if isinstance(node, ast.Name) and is_local_function(norm, node.id):
        local = norm.local_fns[node.id]
        return _Local(local.node, local.defaults, local.kw_defaults, env)
    return None


def _argument(norm, node):
    from ..objects.instances import is_object
    if isinstance(node, ast.Name) and is_object(norm.version.get(node.id)):
        return norm.version[node.id]     # an object made in the function, passed on: its fields are shared
    made = passed_function(norm, node)
    if made is not None:
        return made
    value = norm.expr(node) if isinstance(node, ast.Call) else None     # Scale(2.0), make() passed on
    if is_object(value):
        return value
    return norm.expand(norm.plain(value, node)) if value is not None else norm.argument(node)


def needs_inlining(norm, fn, node):
    """Is the call ``node`` of ``fn`` (a Python function with source) one adjoin follows only by inlining
    ``fn`` here: it is given an object made in the function, or changes an argument in place (its writes
    must reach the caller's variable), or returns an object it makes?"""
    from ..effects.checks import mutated_parameters
    from ..objects.instances import is_object
    if not isinstance(fn, types.FunctionType) or fn.__code__.co_flags & 0x280 \
            or (fn.__module__ or "").startswith(("numpy", "scipy", "runtime", "transpiler")) \
            or hasattr(fn, "__wrapped__"):          # (a decorator's wrapper: its source is another function's)
        return False
    given = list(node.args) + [k.value for k in node.keywords]
    if any(isinstance(a, ast.Name) and is_object(norm.version.get(a.id))
           or isinstance(a, ast.Call) and norm.makes_object(a) for a in given):
        return True
    changed = mutated_parameters(fn)
    if changed:
        params = list(fn.__code__.co_varnames[:fn.__code__.co_argcount])
        passed = [params[i] for i, a in enumerate(node.args) if i < len(params) and not isinstance(a, ast.Constant)]
        passed += [k.arg for k in node.keywords if not isinstance(k.value, ast.Constant)]
        if set(passed) & changed:
            return True
    if _makes_object(norm, fn):
        return True
    from ..effects.checks import function_tree
    fdef = function_tree(fn)
    return fdef is not None and not fdef.decorator_list and _hands_out_function(fdef)


def call_local(norm, node, local):
    """``node`` calls ``local``, a function a call handed out (``parts[1](v)``): inlined here."""
    return _inline(norm, node, local, "<lambda>" if isinstance(local.node, ast.Lambda) else local.node.name)


def is_function_value(value):
    """A function made in the function and handed out by a call (a _Local), not an AST value."""
    return isinstance(value, _Local)


def _makes_object(norm, fn):
    """Does ``fn`` return an instance of a class of its module it makes (``return Box(v)``, or a name
    bound to one)?"""
    from ..effects.checks import function_tree
    fdef = function_tree(fn)
    if fdef is None:
        return False
    made = set()
    for n in ast.walk(fdef):
        if isinstance(n, ast.Assign) and len(n.targets) == 1 and isinstance(n.targets[0], ast.Name) \
                and _constructs(fn, n.value):
            made.add(n.targets[0].id)
    return any(isinstance(n, ast.Return) and n.value is not None and (
        _constructs(fn, n.value) or isinstance(n.value, ast.Name) and n.value.id in made) for n in ast.walk(fdef))


def _constructs(fn, value):
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)):
        return False
    cls = fn.__globals__.get(value.func.id)
    return isinstance(cls, type) and cls.__module__ == fn.__module__ and type(cls) is type \
        and not issubclass(cls, (tuple, BaseException))


def _bind(norm, local, call, name, prefix=()):
    """Parameter name -> atom (or passed function) for this call (positional, keywords, defaults,
    *args, **kwargs); ``prefix``: values bound first (``self`` of an inlined method)."""
    a = local.node.args
    positional = a.posonlyargs + a.args
    args = list(prefix) + [_argument(norm, x) for x in call.args]
    keywords = {k.arg: _argument(norm, k.value) for k in call.keywords}
    out = {}
    for p, atom in zip(positional, args):
        out[p.arg] = atom
    extra = args[len(positional):]
    if extra and a.vararg is None:
        raise norm.error(f"{name}() takes {len(positional)} positional argument(s) but "
                         f"{len(args)} were given", call, "pass the right number of arguments")
    if a.vararg is not None:
        out[a.vararg.arg] = ast.Tuple(extra, ast.Load())
    rest = {}
    names = {p.arg for p in positional + a.kwonlyargs}
    for k, atom in keywords.items():
        if k in out:
            raise norm.error(f"{name}() got multiple values for argument {k!r}", call, "pass it once")
        if k in names and k not in {p.arg for p in a.posonlyargs}:
            out[k] = atom
        elif a.kwarg is not None:
            rest[k] = atom
        else:
            raise norm.error(f"{name}() got an unexpected keyword argument {k!r}", call,
                             "use one of its parameter names")
    first_default = len(positional) - len(local.defaults)
    for i, p in enumerate(positional):
        if p.arg not in out:
            if i < first_default:
                raise norm.error(f"{name}() is missing the argument {p.arg!r}", call, "pass it")
            out[p.arg] = local.defaults[i - first_default]
    for p, d in zip(a.kwonlyargs, local.kw_defaults):
        if p.arg not in out:
            if d is None:
                raise norm.error(f"{name}() is missing the keyword argument {p.arg!r}", call, "pass it")
            out[p.arg] = d
    if a.kwarg is not None:
        out[a.kwarg.arg] = rest        # a dict of atoms: read with constant keys
    return out


def call(norm, node):
    """Inline the nested function called at ``node``; returns the call's value (an atom or tuple)."""
    name = node.func.id
    local = _locals(norm)[name]
    if local in norm.inlining or local.env is not None and any(
            other.node is local.node and other.env is not None for other in norm.inlining):
        raise norm.error(f"the nested function {name}() calls itself", node,
                         f"define {name} at module level: module-level functions may recurse")
    return _inline(norm, node, local, name)


def takes_functions(norm, fn, node):
    """Does the call ``node`` of module-level function ``fn`` pass it a lambda or a nested
    function, and can ``fn`` be inlined there (a plain function of this module, no closure)?"""
    if not any(isinstance(a, ast.Lambda) or isinstance(a, ast.Name) and is_local_function(norm, a.id)
               for a in list(node.args) + [k.value for k in node.keywords]):
        return False
    return _same_module(norm, fn)


def _same_module(norm, fn):
    return (isinstance(fn, types.FunctionType) and fn.__globals__ is norm.scope.globals and not fn.__closure__
            and not set(fn.__code__.co_names) & set(norm.scope.closure)
            and not fn.__code__.co_flags & 0x280)          # coroutine, async generator


def _returns_function(fdef):
    """Does every ``return`` of ``fdef`` give a lambda or a function defined in it?"""
    defined = {s.name for s in _own_statements(fdef) if isinstance(s, ast.FunctionDef)}
    returns = [s for s in _own_statements(fdef) if isinstance(s, ast.Return)]
    return bool(returns) and all(isinstance(r.value, ast.Lambda) or isinstance(r.value, ast.Name)
                                 and r.value.id in defined for r in returns)


def _hands_out_function(fdef):
    """Does a ``return`` of ``fdef`` give a tuple holding a lambda or a function defined in it
    (``return flat, unflatten``)?"""
    defined = {s.name for s in _own_statements(fdef) if isinstance(s, ast.FunctionDef)}
    return any(isinstance(s, ast.Return) and isinstance(s.value, ast.Tuple) and any(
        isinstance(e, ast.Lambda) or isinstance(e, ast.Name) and e.id in defined for e in s.value.elts)
        for s in _own_statements(fdef))


def made_function(norm, node):
    """For ``g = make(...)`` where ``make`` (nested, or a plain function of this module) returns a
    lambda or a function it defines: that function, reading ``make``'s variables of this call
    (inlined where ``g`` is called); else None."""
    made = _made(norm, node)
    if made is not None and getattr(norm, "loop_depth", 0):
        raise norm.error("a function made by a call inside a loop is not supported", node,
                         "make it before the loop, or call the factory's body directly")
    return made


def call_made(norm, node):
    """``make(a)(x)`` / ``(lambda v: e)(x)``: the function made (or written) there inlined at this call;
    None when ``node.func`` is neither."""
    if isinstance(node.func, ast.Lambda):
        local = passed_function(norm, node.func)
    else:
        local = _made(norm, node.func)
    if local is None:
        return None
    return _inline(norm, node, local, "<lambda>" if isinstance(local.node, ast.Lambda) else local.node.name)


def _made(norm, node):
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    if isinstance(func, ast.Name) and is_local_function(norm, func.id):
        local = norm.local_fns[func.id]
        if isinstance(local.node, ast.Lambda) or not _returns_function(local.node):
            return None
        made = call(norm, node)
    elif norm.static(func):
        try:
            fn = norm.scope.evaluate(func)
        except Exception:
            return None
        if not _same_module(norm, fn):
            return None
        from ..source.parsing import parse_function
        try:
            fdef = parse_function(fn).node
        except Exception:
            return None
        if not _returns_function(fdef):
            return None
        made = call_with_functions(norm, node, fn)
    else:
        return None
    return made


def call_with_functions(norm, node, fn, prefix=(), owner=None):
    """``apply(lambda t: t * t, x)`` with ``apply`` a module-level function of this module: its
    body inlined at the call (its statements located at the call), its parameter bound to the
    lambda, which reads the caller's variables.  Methods of objects made in the function come
    here too (objects/instances.py): ``prefix`` holds ``self`` (or ``cls``), ``owner`` the defining class."""
    from ..source.parsing import parse_function
    _locals(norm)
    if any(getattr(other, "key", None) is fn for other in norm.inlining):
        raise norm.error(f"{fn.__qualname__}() calls itself where adjoin inlines it (it is given a function or an "
                         "object made in the function, or changes an argument in place)", node,
                         "write the recursion as a loop, or pass plain values and return the new ones")
    fdef = copy.deepcopy(parse_function(fn).node)
    for n in ast.walk(fdef):         # its names are taken: fresh versions must not reuse them
        if isinstance(n, (ast.Name, ast.arg)):
            norm.ctx.namer.taken.add(n.id if isinstance(n, ast.Name) else n.arg)
    for n in ast.walk(fdef):
        if "lineno" in n._attributes:
            ast.copy_location(n, node)
    values = fn.__defaults__ or ()
    kw = fn.__kwdefaults__ or {}

    def const(v, pname):
        if v is None or isinstance(v, (bool, int, float, complex, str)):
            return ast.Constant(v)
        return norm.ctx.ref(v, f"{pname}_default")

    params = (fdef.args.posonlyargs + fdef.args.args)[len(fdef.args.posonlyargs + fdef.args.args) - len(values):]
    local = _Local(fdef, [const(v, p.arg) for v, p in zip(values, params)],
                   [const(kw[p.arg], p.arg) if p.arg in kw else None for p in fdef.args.kwonlyargs],
                   env=({}, {}), key=fn)
    local.owner = owner
    return _inline(norm, node, local, fn.__qualname__, prefix)


def _inline(norm, node, local, name, prefix=()):
    from ..objects.instances import is_object
    from ..source.parsing import Scope
    binding = _bind(norm, local, node, name, prefix)
    outer = dict(norm.version)
    saved_locals = dict(_locals(norm))
    links = _links(norm, local, binding, outer, node, name, prefix)
    saved_scope = norm.scope
    if isinstance(local.key, types.FunctionType):
        norm.scope = Scope(local.key)       # its free names are its module's globals and its closure's cells
    norm.inlining.append(local)
    owner = getattr(local, "owner", None)
    norm.method_stack = getattr(norm, "method_stack", [])
    norm.method_stack.append((owner, prefix[0] if prefix else None))
    fields = norm.field_keys = getattr(norm, "field_keys", set())     # grows as objects get attributes
    saved_unbound = norm.unbound
    saved_linked, norm.linked = linked_now(norm), set()
    own_locals = scopes.local_names(local.node) - scopes.parameters(local.node)
    if local.env is not None:
        norm.version = dict(local.env[0])
        norm.local_fns = dict(local.env[1])
        norm.version.update((k, outer[k]) for k in fields if k in outer)     # objects' fields: shared state
        norm.unbound = own_locals | (set() if local.key is not None else saved_unbound)
    else:
        norm.unbound = own_locals | saved_unbound    # the definer's locals not bound yet stay so
    for name in own_locals:      # its own locals start unbound, whatever the caller's variables are
        norm.version.pop(name, None)
        norm.local_fns.pop(name, None)
    start = dict(norm.version)
    try:
        for pname, atom in binding.items():
            if isinstance(atom, _Local):
                norm.version.pop(pname, None)
                norm.local_fns[pname] = atom
                continue
            if is_object(atom):
                norm.version[pname] = atom         # self / cls of an inlined method, an object passed on
                continue
            if pname in links:              # the caller's own value: its writes here are writes there
                norm.version[pname] = atom.id
                norm.linked = set(linked_now(norm)) | {pname}
                continue
            if isinstance(atom, dict):
                norm.kwarg_dicts = getattr(norm, "kwarg_dicts", {})
                stored = norm.store(pname)
                norm.kwarg_dicts[stored] = atom
                norm.assign(stored, ast.Constant(None), node)
                continue
            stored = norm.store(pname)
            norm.assign(stored, atom, node)
            if isinstance(atom, (ast.Tuple, ast.List)):
                norm.tuples[stored] = list(atom.elts)
                norm.kinds[stored] = type(atom)
                if isinstance(atom, ast.List):
                    norm.shared.add(stored)     # the caller's list itself: a write here would show there
        if isinstance(local.node, ast.Lambda):
            result = _returned(norm, norm.expr(local.node.body))
        else:
            result = _body(norm, local.node, Restructure)
        inner = norm.version
    finally:
        norm.inlining.pop()
        norm.method_stack.pop()
        norm.version = outer
        norm.local_fns = saved_locals
        norm.unbound = saved_unbound
        norm.scope = saved_scope
        norm.linked = saved_linked
    for pname, (user, methods) in links.items():     # what it wrote into its argument, the caller's variable holds
        before = norm.version[user]
        after = inner.get(pname, before)
        if after != before:
            _write_back(norm, node, pname, user, methods, before, after)
    # a free variable changed in place inside (st.append(v) on the outer list): the outer name
    # now holds the new version, as the one list object does in Python
    own = own_names(local.node)
    for user, ver in inner.items():
        if user in fields:
            norm.version[user] = ver            # an attribute of an object made in the function
        elif user in start and start[user] != ver and user not in own:
            if local.env is not None:
                raise norm.error(f"the function passed here changes `{user}` of the function that made it",
                                 node, f"return the new value of `{user}` instead")
            norm.version[user] = ver
    return result


def _returned(norm, atom):
    """A returned atom: a tuple variable as its elements, but a list stays the one list object
    (``m = get()`` returning the outer ``l`` is a second name for it, not a copy)."""
    if isinstance(atom, ast.Name) and norm.kinds.get(atom.id) is ast.List:
        return atom
    return norm.expand(atom)


def own_names(node):
    """The parameters and assigned names of a nested function: its locals, not the outer ones
    (a name it declares ``nonlocal`` is the outer one)."""
    a = node.args
    own = {p.arg for p in a.posonlyargs + a.args + a.kwonlyargs}
    own |= {p.arg for p in (a.vararg, a.kwarg) if p is not None}
    for n in ast.walk(node):
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
            own.add(n.id)
    return own - nonlocal_names(node)


def _own_statements(node):
    """The statements of a function's body, not those of functions nested in it."""
    todo = list(node.body) if isinstance(node.body, list) else []
    while todo:
        s = todo.pop()
        yield s
        if not isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            todo.extend(c for c in ast.iter_child_nodes(s) if isinstance(c, ast.stmt))


def nonlocal_names(node):
    """Names a nested function declares ``nonlocal``: its writes to them change the outer variable."""
    return {name for s in _own_statements(node) if isinstance(s, ast.Nonlocal) for name in s.names}


class _DropNonlocal(ast.NodeTransformer):
    """The ``nonlocal`` statements of one function (not of functions nested in it): inlined, its
    writes to those names are writes to the outer function's variables (inline.call)."""

    def visit_Nonlocal(self, node):
        return ast.copy_location(ast.Pass(), node)

    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_ClassDef = visit_Lambda = visit_FunctionDef


def _body(norm, fdef, restructure):
    body = list(fdef.body)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        body = body[1:]
    if nonlocal_names(fdef):
        body = [_DropNonlocal().visit(copy.deepcopy(st)) for st in body]
    if iterables.is_generator(fdef):              # differentiated as the list of what it yields
        body = iterables.as_list_body(copy.deepcopy(body), norm.ctx.namer, fdef)
    body = iterables.rewrite(body, norm.ctx)
    body = restructure(norm.ctx.namer).function_body(body, fdef)
    saved_src = norm.src
    try:
        for stmt in body:
            norm.src = stmt
            if isinstance(stmt, ast.Return):
                if stmt.value is None:
                    return ast.Constant(None)
                made = passed_function(norm, stmt.value)
                if made is not None:
                    return made          # a factory's lambda or inner def (made_function)
                if isinstance(stmt.value, ast.Tuple):
                    from ..objects.instances import Objects
                    elts = [passed_function(norm, e) or _returned(norm, norm.expr(e)) for e in stmt.value.elts]
                    if any(isinstance(e, _Local) for e in elts):
                        return Objects(ast.Tuple, elts)     # `return flat, unflatten`: known item by item
                    return ast.Tuple(elts, ast.Load())
                return _returned(norm, norm.expr(stmt.value))
            norm.statement(stmt)
    finally:
        norm.src = saved_src
    return ast.Constant(None)


def kwarg_item(norm, base, index):
    """``kwargs["k"]`` of an inlined function's ``**kwargs``: the atom passed as ``k=``."""
    table = getattr(norm, "kwarg_dicts", {})
    if isinstance(base, ast.Name) and base.id in table and isinstance(index, ast.Constant):
        items = table[base.id]
        if index.value not in items:
            raise norm.error(f"no keyword argument {index.value!r} was passed", index,
                             "pass it, or read it with a default elsewhere")
        return items[index.value]
    return None
