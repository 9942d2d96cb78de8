"""Data-parallel gradients over dask arrays, on a dask.distributed cluster (extra ``[distributed]``).

The gradient of a loss that sums (or averages) over rows is the sum of per-block gradients.
``value_and_grad(f)(params, X, y)`` with ``X``, ``y`` dask arrays chunked along axis 0 runs
``f``'s generated gradient on each block where the block lives, and adds the results in a
tree on the cluster: only the parameters travel out and one gradient comes back.

Workers need numpy and dask only: the generated gradient travels as the standalone source
``python -m transpiler FILE:FUNC -o grads.py`` writes, and the task code as plain source
(distributed_worker.py), so no worker imports adjoin.  Dask is imported on first call.
"""

import hashlib
import inspect
import os
import uuid

import numpy as np

from .api import Differentiable, _transformer
from .frontend.source.parsing import parse_function, wrt_names

__all__ = ["value_and_grad", "grad"]

_REDUCTIONS = ("sum", "mean")


def value_and_grad(f, wrt=0, reduction="sum", data=None):
    """``(value, gradient)`` of ``f`` summed (``reduction="mean"``: averaged) over row blocks.

    Data arguments -- ``data`` (parameter names or indices), by default every array argument
    not in ``wrt`` -- may be dask arrays chunked along axis 0 with the same row chunks, or
    numpy arrays (one block, or split like the dask ones); the other arguments go whole to
    every block.  Parameters are floats, numpy arrays, or dicts/lists/tuples of them.  Uses
    the active ``distributed.Client``, else dask's local scheduler.
    """
    return DistributedGradient(f, wrt, reduction, "value_and_grad", data)


def grad(f, wrt=0, reduction="sum", data=None):
    """The gradient of ``f`` over row blocks, as ``value_and_grad`` computes it."""
    return DistributedGradient(f, wrt, reduction, "grad", data)


def _dask():
    try:
        import dask
    except ImportError:
        raise ImportError('transpiler.distributed needs dask: pip install "adjoin[distributed]"') from None
    return dask


class DistributedGradient:
    """What ``distributed.grad``/``value_and_grad`` return: call it with ``f``'s arguments."""

    def __init__(self, f, wrt, reduction, kind, data=None):
        if reduction not in _REDUCTIONS:
            raise ValueError(f"reduction={reduction!r}: use 'sum' (the loss adds over rows) or "
                             "'mean' (it averages over rows)")
        if isinstance(f, Differentiable):
            f = f._fn
        self._t = _transformer(f)
        self._wrt, self._reduction, self._kind = wrt, reduction, kind
        self._data = None if data is None else wrt_names(parse_function(self._t.fn).node, data, "data")[0]
        self._module = None
        self._sources = {}        # client id -> future of the source, scattered to every worker once
        self.last_call_bytes = None
        self.__name__ = f"distributed_{'d' if kind == 'grad' else 'vg_'}{self._t.fn.__name__}"
        if self._t.get(wrt, True, ahead=True) is not None:     # a TranspileError shows here, not
            self.module()                                        # on the first call

    def _generated(self):
        return self._t.get(self._wrt, True)

    def module(self):
        """``(name, source)`` of the module the workers execute: the standalone gradient module
        (what ``python -m transpiler FILE:FUNC -o grads.py`` writes), then the task code."""
        if self._module is None:
            from .backend.codegen import standalone_module
            from runtime.rules.containers import restructure
            source = standalone_module([self._generated()], extra={"restructure": restructure})
            source += "\n\n# --- the tasks of transpiler.distributed (distributed_worker.py) ---\n\n" + _worker_text()
            digest = hashlib.sha256(source.encode()).hexdigest()[:20]
            self._module = (f"adjoin_generated_{digest}", source)
        return self._module

    def __call__(self, *args, **kwargs):
        dask = _dask()
        gen, call, data, chunks = self._prepare(args, kwargs)
        packed = _pickle(call)
        self.last_call_bytes = len(packed)       # what one call sends out (benchmarks/distributed.py)
        total = self._graph(dask, packed, data, chunks)
        (value, grads), = dask.compute(total, optimize_graph=False)
        grads = grads[0] if gen.single else grads
        return grads if self._kind == "grad" else (value, grads)

    def _prepare(self, args, kwargs):
        """Check the call; ``(generated, call, data arguments, row chunks)``."""
        gen = self._generated()
        name = self._t.fn.__name__
        try:
            bound = self._t.signature.bind(*args, **kwargs)
        except TypeError as e:
            raise TypeError(f"{name}(): {e}") from None
        for param in gen.wrt:
            if param in bound.arguments and _is_dask(bound.arguments[param]):
                raise TypeError(f"{name}: the parameter `{param}` is a dask array; parameters are "
                                "sent to every block, so pass numpy (call .compute() on it)")
        self._t.check(gen, args, kwargs)
        call, data = _split_call(self._t.signature, bound, gen.wrt, self._data)
        chunks = _row_chunks(name, data, self._data is None)
        call.update(function=gen.node.name, seed=gen.seed_name, single=gen.single, name=name,
                    blocks=len(chunks), likes=[bound.arguments[p] for p in gen.wrt])
        return gen, call, data, chunks

    def _graph(self, dask, packed, data, chunks):
        """One task per block (on the worker holding it), then a tree of sums, four at a time."""
        module_name, source = self.module()
        rows = sum(chunks)
        weights = [n / rows if self._reduction == "mean" else 1.0 for n in chunks]
        run = dask.delayed(_tasks()["run"], name="adjoin-run")
        client = _client(dask)
        source_ref = self._source(dask, client, module_name, source)
        call_ref = dask.delayed(packed, name=f"adjoin-call-{hashlib.sha256(packed).hexdigest()[:20]}")
        blocks = [_blocks(dask, value, chunks) for _, value in data]
        where = _holders(client, data, chunks) if client is not None else [None] * len(chunks)
        parts = []
        for i in range(len(chunks)):
            with dask.annotate(**({"workers": where[i], "allow_other_workers": True} if where[i] else {})):
                parts.append(run(module_name, source_ref, "block", call_ref, i, weights[i],
                                 *[b[i] for b in blocks]))
        while len(parts) > 1:
            parts = [run(module_name, source_ref, "add", *parts[i:i + 4]) for i in range(0, len(parts), 4)]
        return parts[0]

    def _source(self, dask, client, module_name, source):
        """The module source as a task argument: with a Client, scattered to every worker on the
        first call and kept there; on dask's local scheduler, part of the graph."""
        if client is None:
            return dask.delayed(source, name=f"adjoin-source-{module_name}")
        future = self._sources.get(client.id)
        if future is None or future.status != "finished":
            future = self._sources[client.id] = client.scatter(source, broadcast=True)
        return future

    def __repr__(self):
        return (f"<distributed {self._kind} of {self._t.fn.__qualname__} wrt={self._wrt!r} "
                f"reduction={self._reduction!r}>")


def _client(dask):
    """The distributed.Client dask.compute will use, or None (dask's local scheduler)."""
    if dask.config.get("scheduler", None) not in (None, "dask.distributed", "distributed"):
        return None
    try:
        from distributed import default_client
        return default_client()
    except (ImportError, ValueError):
        return None


def _holders(client, data, chunks):
    """For each row block of persisted data, the worker holding most of its bytes, else None.

    Block tasks prefer that worker (a loose restriction: when it is gone, or much busier than
    the others, dask may still run the block elsewhere rather than wait)."""
    from distributed import futures_of
    persisted = [value for _, value in data if _is_dask(value) and futures_of(value)]
    who = client.who_has([f for value in persisted for f in futures_of(value)]) if persisted else {}
    weight = [{} for _ in chunks]
    for value in persisted:
        row = value.dtype.itemsize * int(np.prod(value.shape[1:]))
        for i, block in enumerate(value.to_delayed().ravel()):
            for address in who.get(block.key, ()):
                weight[i][address] = weight[i].get(address, 0) + row * chunks[i]
    return [[max(w, key=w.get)] if w else None for w in weight]


def _is_dask(value):
    return hasattr(value, "dask") and hasattr(value, "chunks")


def _split_call(signature, bound, wrt, named=None):
    """The call with its data arguments taken out: ``(call, [(name, value), ...])``.

    Data are the arguments ``named``, by default the array arguments (numpy with at least one
    axis, or dask) that are not parameters; everything else is sent whole to every block."""
    call = {"args": list(bound.args), "kwargs": dict(bound.kwargs), "data": []}
    data = []
    positions = {}
    i = 0
    for pname, p in signature.parameters.items():
        if pname not in bound.arguments:
            continue
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            positions[pname] = [("args", i)]
            i += 1
        elif p.kind == p.VAR_POSITIONAL:
            positions[pname] = [("args", i + k) for k in range(len(bound.arguments[pname]))]
            i += len(bound.arguments[pname])
        elif p.kind == p.KEYWORD_ONLY:
            positions[pname] = [("kwargs", pname)]
        else:
            positions[pname] = [("kwargs", k) for k in bound.arguments[pname]]
    for pname, slots in positions.items():
        if pname in wrt or (named is not None and pname not in named):
            continue
        for where, key in slots:
            value = (call["args"] if where == "args" else call["kwargs"])[key]
            if named is not None and not (_is_dask(value) or np.ndim(value) >= 1):
                raise TypeError(f"data argument `{pname}` is a {type(value).__name__}; data are "
                                "arrays split by rows (dask, or numpy)")
            if _is_dask(value) or (isinstance(value, np.ndarray) and value.ndim >= 1):
                label = pname if len(slots) == 1 else f"{pname}[{key!r}]"
                data.append((label, value))
                call["data"].append((where, key))
                (call["args"] if where == "args" else call["kwargs"])[key] = None
    return call, data


def _row_chunks(name, data, guessed=False):
    """The row chunks every data argument shares; ValueError naming them when they differ."""
    if not data:
        raise ValueError(f"{name}: no data argument to split by rows; pass the data as dask or "
                         "numpy arrays (arguments that are not differentiated)")
    chunked = [(label, value) for label, value in data if _is_dask(value)]
    for label, value in chunked:
        if value.ndim == 0:
            raise ValueError(f"{name}: the data argument `{label}` is a 0-d dask array; pass a number")
        if any(np.isnan(c) for axis in value.chunks for c in axis):
            raise ValueError(f"{name}: the data argument `{label}` has unknown chunk sizes; call "
                             f"{label}.compute_chunk_sizes() first")
        if any(len(axis) > 1 for axis in value.chunks[1:]):
            raise ValueError(f"{name}: the data argument `{label}` is chunked along axis "
                             f"{next(a for a, c in enumerate(value.chunks) if a and len(c) > 1)} "
                             f"(chunks {value.chunks}); chunk it along rows only: "
                             f"{label}.rechunk({{{', '.join(f'{a}: -1' for a in range(1, value.ndim))}}})")
    if chunked:
        chunks = tuple(int(c) for c in chunked[0][1].chunks[0])
        differ = [(label, tuple(int(c) for c in v.chunks[0])) for label, v in chunked
                  if tuple(int(c) for c in v.chunks[0]) != chunks]
        if differ:
            listing = "; ".join(f"`{label}` {c}" for label, c in [(chunked[0][0], chunks)] + differ)
            raise ValueError(f"{name}: the data arguments have different row chunks: {listing}; "
                             f"rechunk them alike, e.g. {differ[0][0]}.rechunk({{0: {chunked[0][0]}.chunks[0]}})")
    else:
        chunks = (len(data[0][1]),)
    rows = sum(chunks)
    wrong = [(label, len(v)) for label, v in data if not _is_dask(v) and len(v) != rows]
    if wrong:
        listing = "; ".join(f"`{label}` has {n}" for label, n in wrong)
        first = chunked[0][0] if chunked else data[0][0]
        raise ValueError(f"{name}: every data argument needs the same number of rows: `{first}` has "
                         f"{rows} (row chunks {chunks}), {listing}" + (_data_hint(data, wrong) if guessed else ""))
    return chunks


def _data_hint(data, wrong):
    """Every non-parameter array was taken for data: say how to name the real data instead."""
    others = [label for label, _ in data if label not in dict(wrong)]
    return ("; to send " + ", ".join(f"`{label}`" for label, _ in wrong) + " whole to every block "
            f"instead, name the data arguments: data={tuple(others)!r}")


def _blocks(dask, value, chunks):
    """One delayed block per row chunk of a data argument."""
    if _is_dask(value):
        return list(value.to_delayed().ravel())
    ends = np.cumsum(chunks)[:-1]
    return [dask.delayed(part, name=f"adjoin-rows-{uuid.uuid4().hex}") for part in np.split(value, ends)]


def _pickle(call):
    import cloudpickle
    return cloudpickle.dumps(call)


def _worker_text():
    path = os.path.join(os.path.dirname(inspect.getfile(_worker_text)), "distributed_worker.py")
    with open(path) as fh:
        return fh.read()


_TASKS = {}


def _tasks():
    """distributed_worker.py executed under a module name no process can import, so its ``run``
    travels by value and a worker never imports adjoin."""
    if not _TASKS:
        namespace = {"__name__": "adjoin_distributed_tasks"}
        exec(compile(_worker_text(), "distributed_worker.py", "exec"), namespace)
        _TASKS.update(namespace)
    return _TASKS
