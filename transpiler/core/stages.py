"""The ASTs of one transformation's passes, by name (``Generated.stages``): what
``grad(f, verbose=2)`` prints."""

__all__ = ["Later", "Stages"]


class Later:
    """A stage built when first read."""

    def __init__(self, make):
        self.make = make


class Stages(dict):
    """Each pass's AST by name; a stage kept as a ``Later`` is built on first read (copying the
    whole generated function on every transformation, for printing, cost a tenth of its time)."""

    def __getitem__(self, key):
        value = dict.__getitem__(self, key)
        if isinstance(value, Later):
            value = value.make()
            self[key] = value
        return value

    def get(self, key, default=None):
        return self[key] if key in self else default

    def items(self):
        return [(k, self[k]) for k in self]

    def values(self):
        return [self[k] for k in self]
