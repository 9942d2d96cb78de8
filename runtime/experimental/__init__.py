"""``tf.experimental``: ``tf.experimental.numpy`` (numpy's names on tensors, TF's numpy behaviour)."""

_SUBMODULES = ("numpy",)


def __getattr__(name):
    if name in _SUBMODULES:
        import importlib
        module = importlib.import_module(f"{__name__}.{name}")
        globals()[name] = module
        return module
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
