"""adjoin's runtime: a TensorFlow-2-compatible eager tape.  ``import runtime as tf``.

Three layers, imports pointing down: ``rules/`` (the derivative rules, numpy only), ``engine/``
(the tape: tensors and ``apply``, the numpy protocol, GradientTape, ForwardAccumulator...) and the
TF surface on top (this namespace, ``ops/``, ``framework/``, ``keras/``, ``data``, ``linalg``...).

Importing the package loads none of them (the transpiler imports ``runtime.rules``, which runs this
file first).  The ``tf`` names (``tf.constant``, ``tf.float32``, ``from runtime import
GradientTape``) load together on the first use of one of them, from ``runtime.namespace``;
``tf.keras``, ``tf.linalg``, ``tf.data``... each on its own first use.
"""

from ._version import __version__  # noqa: F401

_SUBMODULES = ("keras", "linalg", "signal", "random", "autodiff", "debugging", "data", "scipy", "experimental")
"""Namespaces loaded one by one on first use (``runtime.namespace`` loads none of them)."""


def _load_namespace():
    """Copy the ``tf`` names of ``runtime.namespace`` here, so later uses are plain attributes."""
    import importlib
    namespace = importlib.import_module(f"{__name__}.namespace")
    globals().update((name, value) for name, value in vars(namespace).items() if not name.startswith("_"))


def __getattr__(name):
    if name in _SUBMODULES:
        import importlib
        module = importlib.import_module(f"{__name__}.{name}")
        globals()[name] = module
        return module
    if not name.startswith("__") and "namespace" not in globals():
        _load_namespace()
        if name in globals():
            return globals()[name]
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__():
    if "namespace" not in globals():
        _load_namespace()
    return sorted(set(globals()) | set(_SUBMODULES))
