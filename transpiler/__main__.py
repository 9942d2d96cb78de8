"""Command line: print or write the generated gradient of a function in a file.

    python -m transpiler model.py:loss                 # print the generated code
    python -m transpiler model.py:loss --wrt w,b       # choose the parameters
    python -m transpiler model.py:loss -o grads.py     # a standalone module (numpy only)

The input file is imported, so its top-level code runs, as with ``python model.py``.
Mistakes in the command (a missing file, an unknown function, a bad ``--wrt``, an output that
would overwrite a file) print one line and exit with status 2; a function adjoin cannot
differentiate prints the located error and exits with status 1.
"""

import argparse
import importlib.util
import inspect
import os
import sys
import tempfile
import traceback

from .api import Differentiable, transform
from .backend.codegen import standalone_module
from .core.errors import TranspileError, Unresolved
from .targets import target as _target

EPILOG = ("The input file is imported: its top-level code runs, as with `python FILE.py` (guard a "
          "script's work with `if __name__ == '__main__':`). -o writes a new file; it does not replace "
          "an existing one unless --force is given, and never an input file or through a symbolic link.")


class UsageError(Exception):
    """A mistake in the command line: printed as one line, exit status 2."""


def load(spec):
    """``(function, its decorator's wrt or None)`` for ``FILE.py:NAME`` (``NAME`` may be dotted)."""
    path, _, name = spec.rpartition(":")
    if not path or not name:
        raise UsageError(f"expected FILE.py:FUNCTION, got {spec!r}")
    path = os.path.abspath(path)
    if not os.path.isfile(path):
        raise UsageError(f"{path}: no such file")
    sys.path.insert(0, os.path.dirname(path))
    modname = os.path.splitext(os.path.basename(path))[0]
    module_spec = importlib.util.spec_from_file_location(modname, path)
    if module_spec is None or module_spec.loader is None:
        raise UsageError(f"{path}: not a Python file that can be imported")
    module = importlib.util.module_from_spec(module_spec)
    sys.modules[modname] = module
    try:
        module_spec.loader.exec_module(module)
    except Exception as e:       # noqa: BLE001  (the user's module failed: say where, in one line)
        where = next((f"{f.filename}:{f.lineno}" for f in reversed(traceback.extract_tb(e.__traceback__))
                      if os.path.abspath(f.filename) == path), path)
        raise UsageError(f"importing {path} raised {type(e).__name__}: {e} (at {where})") from None
    obj = module
    for part in name.split("."):
        if not hasattr(obj, part):
            defined = sorted(n for n, v in vars(module).items() if inspect.isfunction(v) or isinstance(v, Differentiable))
            raise UsageError(f"{path} defines no `{name}`" + (f" (functions: {', '.join(defined)})" if defined else ""))
        obj = getattr(obj, part)
    wrt = None
    if isinstance(obj, Differentiable):
        wrt = obj._wrt
        obj = obj._fn
    try:
        obj = _target(obj, "python -m transpiler")
    except TypeError as e:
        raise UsageError(f"{spec}: {e}") from None
    if inspect.ismethod(obj):
        raise UsageError(f"{spec} is a bound method or callable object: name a function of the module "
                         "(a def at its top level, or a class's method as Class.method)")
    return obj, wrt


def parse_wrt(text, fn):
    """``--wrt`` as the int or name (or a tuple of them) ``fn``'s parameters allow."""
    items = [w.strip() for w in text.split(",")]
    if not text.strip() or any(not w for w in items):
        raise UsageError(f"--wrt {text!r}: give parameter indices or names, comma separated (e.g. --wrt 0,1 "
                         "or --wrt w,b)")
    params = [p.name for p in inspect.signature(fn).parameters.values()
              if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)]
    positional = [p.name for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    out = []
    for w in items:
        if w.lstrip("-").isdigit():
            i = int(w)
            if not -len(positional) <= i < len(positional):
                raise UsageError(f"--wrt {w}: {fn.__name__}() has {len(positional)} positional parameter(s) "
                                 f"({', '.join(positional)})")
            out.append(i)
        elif w in params:
            out.append(w)
        else:
            raise UsageError(f"--wrt {w}: {fn.__name__}() has no parameter named {w!r} "
                             f"(parameters: {', '.join(params)})")
    return out[0] if len(out) == 1 else tuple(out)


def write_new(path, text, inputs, force):
    """Write ``text`` to ``path``: a new file, or with ``force`` one that replaces a regular file;
    never an input file, never through a symbolic link."""
    path = os.path.abspath(path)
    folder = os.path.dirname(path)
    if not os.path.isdir(folder):
        raise UsageError(f"-o {path}: the folder {folder} does not exist")
    if os.path.islink(path):
        raise UsageError(f"-o {path} is a symbolic link; adjoin does not write through links: give the "
                         "path of a regular file")
    if any(os.path.exists(path) and os.path.samefile(path, p) for p in inputs):
        raise UsageError(f"-o {path} is an input file; write the gradient to another file")
    if os.path.exists(path) and not force:
        raise UsageError(f"-o {path} exists; pass --force to replace it, or choose another name")
    if os.path.exists(path) and not os.path.isfile(path):
        raise UsageError(f"-o {path} exists and is not a regular file")
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".adjoin-", suffix=".py")
    try:
        with os.fdopen(fd, "w") as fh:
            fh.write(text)
        if force:
            os.replace(tmp, path)              # replaces the directory entry; follows no link
        else:
            os.link(tmp, path)                 # fails if something appeared there meanwhile
            os.unlink(tmp)
    except FileExistsError:
        os.unlink(tmp)
        raise UsageError(f"-o {path} exists; pass --force to replace it, or choose another name") from None
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m transpiler", description=__doc__.splitlines()[0],
                                     epilog=EPILOG)
    parser.add_argument("targets", nargs="+", metavar="FILE.py:FUNC",
                        help="a function in a Python file (the file is imported: its top-level code runs)")
    parser.add_argument("--wrt", help="parameters to differentiate with respect to: indices or names, "
                                      "comma separated (default: the decorator's, else 0)")
    parser.add_argument("-o", "--output", help="write a standalone module (needs only numpy) to this new file")
    parser.add_argument("--force", action="store_true", help="let -o replace an existing regular file")
    parser.add_argument("--preserve-result", action="store_true",
                        help="the generated function returns (gradient, value)")
    args = parser.parse_args(argv)
    generated = []
    try:
        for spec in args.targets:
            fn, wrt = load(spec)
            if args.wrt is not None:
                wrt = parse_wrt(args.wrt, fn)
            generated.append(transform(fn, 0 if wrt is None else wrt, args.preserve_result))
        text = standalone_module(generated) if args.output else None
        if args.output:
            inputs = [os.path.abspath(s.rpartition(":")[0]) for s in args.targets]
            write_new(args.output, text, inputs, args.force)
    except UsageError as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except TranspileError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except Unresolved as e:
        print(f"error: name `{e.name}` is not defined", file=sys.stderr)
        return 1
    if args.output:
        print(f"wrote {args.output}: " + ", ".join(g.node.name for g in generated), file=sys.stderr)
    else:
        for g in generated:
            print(g.source)
    return 0


if __name__ == "__main__":
    sys.exit(main())
