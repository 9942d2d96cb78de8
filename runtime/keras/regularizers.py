"""``keras.regularizers``: penalties on a weight, added to ``layer.losses`` at every call."""

import numpy as np


class Regularizer:
    def __call__(self, x):
        return 0.0

    def get_config(self):
        return {}


class L1L2(Regularizer):
    def __init__(self, l1=0.0, l2=0.0):
        self.l1, self.l2 = float(l1), float(l2)

    def __call__(self, x):
        out = 0.0
        if self.l1:
            out = out + self.l1 * np.sum(np.abs(x))
        if self.l2:
            out = out + self.l2 * np.sum(np.square(x))
        return out

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


class L1(L1L2):
    def __init__(self, l1=0.01):
        super().__init__(l1=l1)


class L2(L1L2):
    def __init__(self, l2=0.01):
        super().__init__(l2=l2)


l1, l2, l1_l2 = L1, L2, L1L2


def get(identifier):
    if identifier is None:
        return None
    if isinstance(identifier, str):
        table = {"l1": L1, "l2": L2, "l1_l2": L1L2, "l1l2": L1L2}
        if identifier not in table:
            raise ValueError(f"Could not interpret regularizer identifier: {identifier!r}")
        return table[identifier]()
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret regularizer identifier: {identifier!r}")
