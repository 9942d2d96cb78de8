"""Every reverse-mode test corpus in one list, for the forward-mode and higher-order suites.

A corpus module lists ``(function, args, wrt)`` cases in ``CASES`` (and, optionally,
``SCALAR_CASES``).  Every module named here must exist and list cases: a renamed module or
list is an error, so no corpus can silently drop out of the checks.
"""

import importlib

MODULES = ("test_functions", "frontend.control.test_control_flow", "frontend.control.test_match",
           "frontend.calls.test_calls", "frontend.calls.test_lambdas", "frontend.calls.test_splatting",
           "frontend.test_builtins", "frontend.test_statements", "frontend.objects.test_classes",
           "frontend.objects.test_instances_and_records", "frontend.containers.test_structures",
           "frontend.containers.test_lists_and_dicts", "frontend.effects.test_effects",
           # the Python real programs are written in (issue 23 section 2)
           "frontend.calls.test_scopes", "frontend.calls.test_keyword_arguments", "frontend.control.test_generators",
           "frontend.control.test_iteration", "frontend.containers.test_list_methods",
           "frontend.objects.test_objects_as_values", "frontend.calls.test_argument_writes",
           "frontend.calls.test_function_values")
LISTS = ("CASES", "SCALAR_CASES")


def _module(name):
    return importlib.import_module(f"tests.transpiler.{name}")


def _checked(name, case):
    if not (isinstance(case, tuple) and len(case) == 3 and callable(case[0])
            and isinstance(case[1], (tuple, list)) and isinstance(case[2], (int, str, tuple))):
        raise AssertionError(f"tests/transpiler/{name.replace('.', '/')}.py: a case is not (function, args, wrt): {case!r}")
    return case


def cases():
    """[(id, function, args, wrt)] over every corpus module that exists."""
    out, seen = [], {}
    for name in MODULES:
        mod = _module(name)
        lists = [getattr(mod, attr) for attr in LISTS if hasattr(mod, attr)]
        if not lists or not any(lists):
            raise AssertionError(f"tests/transpiler/{name.replace('.', '/')}.py exists but has no CASES list for the "
                                 "forward-mode and higher-order suites")
        for case in (c for lst in lists for c in lst):
            fn, args, wrt = _checked(name, case)
            base = f"{name.rpartition('.')[2][5:]}.{fn.__name__}"      # (the file's name: ids stay put)
            seen[base] = seen.get(base, 0) + 1
            out.append((base if seen[base] == 1 else f"{base}-{seen[base]}", fn, tuple(args), wrt))
    return out


def wrt_indices(fn, wrt):
    """``wrt`` (int, name or tuple of them) as a list of positional indices."""
    import inspect
    names = list(inspect.signature(fn).parameters)
    return [names.index(w) if isinstance(w, str) else w for w in (wrt if isinstance(wrt, tuple) else (wrt,))]
