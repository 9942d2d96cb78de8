"""Call sites: ``f(...)`` of a global function (resolved now), of a local callable (found when
the code runs), of a nested function (inlined), a method of a local value (array methods
become the numpy functions they stand for: ``x.sum(axis=0)`` -> ``np.sum(x, axis=0)``), and
a push or pop of a generated gradient's stack.
"""

import ast
import inspect

import numpy as np

from ...core import annotations as anno
from ..effects import checks
from . import nested
from .. import gradient_stacks
from ..control import iterables
from ..objects import instances
from ..containers import writes
from .primal_helpers import astype_, item_, to_integer_

__all__ = ["CallSites", "ARRAY_METHODS"]


# array methods that are numpy functions with the array as first argument
ARRAY_METHODS = {
    "sum", "mean", "prod", "max", "min", "std", "var", "dot", "reshape", "transpose",
    "ravel", "flatten", "squeeze", "swapaxes", "clip", "cumsum", "cumprod", "repeat", "take",
    "trace", "diagonal", "round", "conj", "conjugate", "all", "any", "argmax", "argmin",
    "nonzero", "copy", "astype", "ptp", "sort", "argsort",
}

_VARARG_METHODS = {"reshape", "transpose"}   # x.reshape(2, 3) == np.reshape(x, (2, 3))

_METHOD_FUNCTION = {"flatten": "ravel", "conj": "conjugate"}


class CallSites:
    """Mixin of Normalizer: calls and their arguments."""

    def call(self, node):
        func = node.func
        if any(k.arg is None for k in node.keywords):
            raise self.error("**keyword arguments are not supported", node, "pass keywords one by one")
        made = self.object_call(node)
        if made is not None:
            return made
        checks.check_inner_method(self, node)
        if isinstance(func, ast.Name) and self.version.get(func.id) in self.stack_methods:
            return gradient_stacks.local_call(self, node)      # push(x) / x = pop() in generated code
        # method call on a local value: x.sum(axis=0) -> np.sum(x, axis=0)
        if isinstance(func, ast.Attribute) and not self.static(func):
            if func.attr == "pop" and isinstance(func.value, ast.Name) and isinstance(self.version.get(func.value.id), str) \
                    and len(node.args) <= 1 and not node.keywords and not any(isinstance(a, ast.Starred) for a in node.args):
                return writes.pop_value(self, node)     # `return stack.pop()`: the item, and a new list
            checks.check_call(self, None, node)
            base = self.expr(func.value)
            if isinstance(base, (instances.Instance, instances.ClassRef)):    # S(1.5).twice(x), make().m()
                return instances.method_call(self, node, base, func.attr)
            self.plain(base, func.value)
            if func.attr == "copy" and not node.args and not node.keywords and isinstance(base, ast.Name) \
                    and (base.id in self.lists or base.id in self.dicts):
                # a list's or dict's own shallow copy (its items are shared), not np.copy into an array
                item = self.ctx.namer.claim("item")
                load, gen = ast.Name(item, ast.Load()), [ast.comprehension(ast.Name(item, ast.Store()), func.value,
                                                                           [], 0)]
                copied = ast.DictComp(load, ast.Subscript(func.value, load, ast.Load()), gen) \
                    if base.id in self.dicts else ast.ListComp(load, gen)
                return self.value(ast.fix_missing_locations(ast.copy_location(copied, node)))
            args = [self.argument(a) for a in node.args]
            keywords = [ast.keyword(k.arg, self.argument(k.value)) for k in node.keywords]
            meth = func.attr
            if meth == "astype" and len(args) + len(keywords) == 1 and (args or keywords[0].arg == "dtype"):
                return self.astype_call(base, node.args[0] if node.args else node.keywords[0].value,
                                        (args or [keywords[0].value])[0], node)
            if meth == "item" and not args and not keywords:       # x.item() of a one-element array
                call = ast.copy_location(ast.Call(self.ctx.ref(item_, "item_"), [base], []), node)
                anno.put(call, "prim", item_)
                return call
            if meth in ARRAY_METHODS:
                attr = _METHOD_FUNCTION.get(meth, meth)
                if attr is not None:
                    if meth in _VARARG_METHODS and len(args) == 1 and isinstance(args[0], ast.Starred):
                        args = [self.numpy_like_call(tuple, "tuple", [args[0].value], node)]   # x.reshape(*s)
                    if meth in _VARARG_METHODS and len(args) > 1:
                        args = [ast.Tuple(args, ast.Load())]
                    if meth == "transpose" and len(args) == 1 and isinstance(args[0], ast.Constant) \
                            and args[0].value is None:
                        args = []
                    return self.numpy_call(getattr(np, attr), attr, [base] + args, keywords, node)
            call = ast.copy_location(ast.Call(ast.Attribute(base, meth, ast.Load()), args, keywords), node)
            anno.put(call, "prim", None)
            anno.put(call, "method", meth)
            return call
        if isinstance(func, ast.Name) and nested.is_local_function(self, func.id):
            if iterables.is_generator(self.local_fns[func.id].node) and not anno.get(node, "generator", False):
                raise iterables.generator_error(self, node, func.id)
            return nested.call(self, node)
        if not isinstance(func, (ast.Name, ast.Attribute)):
            made = nested.call_made(self, node)          # (lambda v: e)(x), make(a)(x): inlined
            if made is not None:
                return made
            return self.dynamic_call(self.expr(func), node)     # grad(g)(x): the callable found when it runs
        if isinstance(func, ast.Name) and (func.id in self.version or self.is_unbound(func.id)):
            # a local callable (a parameter, a function passed in): found when the code runs
            return self.dynamic_call(self.expr(func), node)
        fn = self.resolve(func)
        if fn is len and len(node.args) == 1 and not node.keywords and isinstance(node.args[0], ast.Name) \
                and isinstance(self.version.get(node.args[0].id), instances.Objects):
            return ast.copy_location(ast.Constant(len(self.version[node.args[0].id].items)), node)
        if inspect.isgeneratorfunction(fn) and not anno.get(node, "generator", False):
            raise iterables.generator_error(self, node, fn.__name__)
        if isinstance(fn, type) and fn.__module__ == self.scope.globals.get("__name__") \
                and instances.supported(self, fn):
            return instances.construct(self, node, fn)
        if isinstance(fn, type) and issubclass(fn, tuple) and hasattr(fn, "_fields"):
            made = instances.namedtuple_value(self, node, fn)       # a namedtuple kept item by item
            if made is not None:
                return made
        if inspect.ismethod(fn) and isinstance(fn.__self__, type) and instances.supported(self, fn.__self__) \
                and fn.__self__.__module__ == self.scope.globals.get("__name__"):
            return instances.method_call(self, node, instances.ClassRef(fn.__self__), fn.__name__)
        if nested.takes_functions(self, fn, node) or nested.needs_inlining(self, fn, node):
            return nested.call_with_functions(self, node, fn)
        if fn is np.einsum and node.args and not (isinstance(node.args[0], ast.Constant)
                                                  and isinstance(node.args[0].value, str)):
            checks.check_call(self, fn, node)
            node = einsum_subscripts_form(self, node)
            if anno.get(node, "prim") is np.einsum:
                return node                       # sublists read when the code runs
        checks.check_call(self, fn, node)
        special = writes.special_call(self, fn, node)
        if special is not None:
            return special
        if isinstance(func, ast.Name):
            new_func = self.global_name(func)
            anno.drop(new_func, "static")
        else:
            new_func = self.value(func)
        args = [self.argument(a) for a in node.args]
        keywords = [ast.keyword(k.arg, self.argument(k.value)) for k in node.keywords]
        call = ast.copy_location(ast.Call(new_func, args, keywords), node)
        anno.put(call, "prim", fn)
        return call

    def dynamic_call(self, callee, node):
        """``callee(...)`` of a callable held in a local (``callee``: its atom), found when the code runs."""
        if isinstance(callee, instances.Instance):           # Scaler(2.0)(x): its __call__ inlined
            return instances.method_call(self, node, callee, "__call__")
        if nested.is_function_value(callee):                 # parts[1](v): a function a call handed out
            return nested.call_local(self, node, callee)
        call = ast.copy_location(ast.Call(callee, [self.argument(a) for a in node.args],
                                          [ast.keyword(k.arg, self.argument(k.value)) for k in node.keywords]), node)
        anno.put(call, "prim", None)
        anno.put(call, "dynamic", True)
        return call

    def inline_function(self, node, fn, prefix=(), owner=None):
        """``fn``'s body inlined at call ``node`` (nested.call_with_functions; objects/instances.py calls this)."""
        return nested.call_with_functions(self, node, fn, prefix=prefix, owner=owner)

    def object_call(self, node):
        """Calls on objects made in the function (objects/instances.py): ``b.m(..)``, ``super().m(..)``,
        ``cls(..)`` and ``cls.m(..)`` in a classmethod; None for other calls."""
        func = node.func
        if isinstance(func, ast.Name) and isinstance(self.version.get(func.id), instances.ClassRef):
            return instances.construct(self, node, self.version[func.id].cls)
        if isinstance(func, ast.Name) and isinstance(self.version.get(func.id), instances.Instance):
            return instances.method_call(self, node, self.version[func.id], "__call__")     # obj(x)
        if not isinstance(func, ast.Attribute):
            return None
        base = func.value
        if isinstance(base, ast.Name) and isinstance(self.version.get(base.id), (instances.Instance, instances.ClassRef)):
            return instances.method_call(self, node, self.version[base.id], func.attr)
        sup = instances.super_of(self, base)
        if sup is not None:
            return instances.method_call(self, node, sup[0], func.attr, after=sup[1])
        return None

    def argument(self, node):
        if isinstance(node, ast.Starred):
            # `rs.randn(*x.shape)`: the items are passed as they are; a differentiable item is refused
            # where the gradient is made (modes: a call whose starred argument is active)
            return ast.copy_location(ast.Starred(self.atom_name(self.argument(node.value), node.value), ast.Load()), node)
        if isinstance(node, (ast.Tuple, ast.List)):
            return self.plain(self.value(node), node)
        return self.expand(self.atom(node))

    def astype_call(self, base, user_dtype, dtype, node):
        """``x.astype(d)``: a cast to integers or bool passes no gradient (to_integer_: the
        zero-gradient warning names this line); any other dtype -> astype_ (its rule gives zero for
        an integer dtype known only when the code runs; np.astype is numpy 2.1+ only)."""
        kind = None
        if isinstance(user_dtype, ast.Constant) or self.static(user_dtype):
            try:
                kind = np.dtype(ast.literal_eval(user_dtype) if isinstance(user_dtype, ast.Constant)
                                else self.resolve(user_dtype)).kind
            except TypeError:
                kind = None
        helper = to_integer_ if kind in ("i", "u", "b") else astype_
        call = ast.copy_location(ast.Call(self.ctx.ref(helper, helper.__name__), [base, dtype], []), node)
        anno.put(call, "prim", helper)
        anno.put(call, "user_text", f".astype({ast.unparse(user_dtype)})")
        return call

    def numpy_like_call(self, fn, name, args, node):
        """``fn(*args)`` of a builtin, named in the generated code."""
        call = ast.copy_location(ast.Call(self.ctx.ref(fn, name), args, []), node)
        anno.put(call, "prim", fn)
        return call

    def numpy_call(self, fn, attr, args, keywords, node):
        func = self.ctx.ref_attr(np, "np", attr)
        call = ast.copy_location(ast.Call(func, args, keywords), node)
        anno.put(call, "prim", fn)
        return call


def einsum_subscripts_form(norm, node):
    """``np.einsum(x, [0, 1], y, [1, 2], [0, 2])`` (the sublist form) as ``np.einsum("ab,bc->ac", x, y)``:
    the derivative rules read the subscripts string.  Sublists held in names become that string when
    the code runs (``sublist_subscripts``); subscripts in a name are the string form already."""
    from runtime.rules.support import einsum_subscripts, sublist_subscripts
    args = list(node.args)
    if len(args) < 2 or not _a_sublist(norm, args[1]):
        return node                       # np.einsum(subscripts_in_a_name, x, y)
    sub_nodes = [a for i, a in enumerate(args) if i % 2 == 1 or (i == len(args) - 1 and len(args) % 2 == 1)]
    operands = args[0::2] if len(args) % 2 == 0 else args[0:-1:2]
    try:
        subs = [ast.literal_eval(a) for a in sub_nodes]
    except ValueError:
        output = sub_nodes[len(operands)] if len(sub_nodes) > len(operands) else ast.Constant(None)
        inputs = ast.copy_location(ast.Tuple(sub_nodes[:len(operands)], ast.Load()), node)
        subscripts = ast.copy_location(ast.Call(norm.ctx.ref(sublist_subscripts, "sublist_subscripts"),
                                                [norm.argument(inputs), norm.argument(output)], []), node)
        anno.put(subscripts, "prim", sublist_subscripts)
        func = node.func
        func = ast.copy_location(ast.Name(func.id, ast.Load()), func) if isinstance(func, ast.Name) \
            else norm.value(func)
        call = ast.copy_location(ast.Call(func, [norm.temp(subscripts, node)] + [norm.argument(a) for a in operands],
                                          [ast.keyword(k.arg, norm.argument(k.value)) for k in node.keywords]), node)
        anno.put(call, "prim", np.einsum)
        return call
    placeholders = [object() for _ in operands]
    pairs = [v for pair in zip(placeholders, subs) for v in pair] + subs[len(operands):]
    subscripts, _ = einsum_subscripts(pairs)
    return ast.copy_location(ast.Call(node.func, [ast.Constant(subscripts)] + operands, node.keywords), node)


def _a_sublist(norm, node):
    """True when einsum's second argument is a sublist: a list or tuple written out or in a global name."""
    if isinstance(node, (ast.List, ast.Tuple)):
        return True
    if norm.static(node):
        try:
            return isinstance(norm.resolve(node), (list, tuple))
        except Exception:
            return False
    return False
