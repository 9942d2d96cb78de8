"""Command line: print or write the generated gradient of a function in a file.

    python -m transpiler model.py:loss                 # print the generated code
    python -m transpiler model.py:loss --wrt w,b       # choose the parameters
    python -m transpiler model.py:loss -o grads.py     # a standalone module (numpy only)
"""

import argparse
import importlib.util
import os
import sys

from .api import Differentiable, transform
from .backend.codegen import standalone_module
from .core.errors import TranspileError, Unresolved


def load(spec):
    path, _, name = spec.rpartition(":")
    if not path or not name:
        raise SystemExit(f"expected FILE.py:FUNCTION, got {spec!r}")
    path = os.path.abspath(path)
    sys.path.insert(0, os.path.dirname(path))
    modname = os.path.splitext(os.path.basename(path))[0]
    module_spec = importlib.util.spec_from_file_location(modname, path)
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[modname] = module
    module_spec.loader.exec_module(module)
    obj = module
    for part in name.split("."):
        obj = getattr(obj, part)
    wrt = None
    if isinstance(obj, Differentiable):
        wrt = obj._wrt
        obj = obj._fn
    return obj, wrt


def parse_wrt(text):
    items = [w.strip() for w in text.split(",") if w.strip()]
    items = [int(w) if w.lstrip("-").isdigit() else w for w in items]
    return items[0] if len(items) == 1 else tuple(items)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m transpiler", description=__doc__.splitlines()[0])
    parser.add_argument("targets", nargs="+", metavar="FILE.py:FUNC")
    parser.add_argument("--wrt", help="parameters to differentiate with respect to: indices or names, "
                                      "comma separated (default: the decorator's, else 0)")
    parser.add_argument("-o", "--output", help="write a standalone module (needs only numpy) here")
    parser.add_argument("--preserve-result", action="store_true",
                        help="the generated function returns (gradient, value)")
    args = parser.parse_args(argv)
    generated = []
    try:
        for target in args.targets:
            fn, wrt = load(target)
            if args.wrt is not None:
                wrt = parse_wrt(args.wrt)
            generated.append(transform(fn, 0 if wrt is None else wrt, args.preserve_result))
    except TranspileError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except Unresolved as e:
        print(f"error: name `{e.name}` is not defined", file=sys.stderr)
        return 1
    if args.output:
        try:
            text = standalone_module(generated)
        except TranspileError as e:
            print(f"error: {e}", file=sys.stderr)
            return 1
        with open(args.output, "w") as fh:
            fh.write(text)
        print(f"wrote {args.output}: " + ", ".join(g.node.name for g in generated), file=sys.stderr)
    else:
        for g in generated:
            print(g.source)
    return 0


if __name__ == "__main__":
    sys.exit(main())
