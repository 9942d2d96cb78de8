"""``keras.optimizers.schedules``: learning rate as a function of the optimizer's step count."""

import math

import numpy as np


class LearningRateSchedule:
    """Base class: ``schedule(step) -> learning rate`` (a float32 scalar)."""

    def __call__(self, step):
        raise NotImplementedError

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class _StepDecay(LearningRateSchedule):
    """What exponential and inverse-time decay share: their arguments, config and progress."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase, name):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name

    def progress(self, step):
        """``step / decay_steps`` in float32, floored when ``staircase``."""
        p = np.float32(float(step)) / np.float32(self.decay_steps)
        return np.floor(p) if self.staircase else p

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate, "decay_steps": self.decay_steps,
                "decay_rate": self.decay_rate, "staircase": self.staircase, "name": self.name}


class ExponentialDecay(_StepDecay):
    """``initial_learning_rate * decay_rate ** (step / decay_steps)`` (integer exponent if staircase)."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name="ExponentialDecay"):
        if decay_steps <= 0:
            raise ValueError(f"Argument `decay_steps` must be > 0. Received: decay_steps={decay_steps}")
        super().__init__(initial_learning_rate, decay_steps, decay_rate, staircase, name)

    def __call__(self, step):
        return np.float32(self.initial_learning_rate) * np.power(np.float32(self.decay_rate), self.progress(step),
                                                                 dtype=np.float32)


class InverseTimeDecay(_StepDecay):
    """``initial_learning_rate / (1 + decay_rate * step / decay_steps)``."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False, name="InverseTimeDecay"):
        super().__init__(initial_learning_rate, decay_steps, decay_rate, staircase, name)

    def __call__(self, step):
        return np.float32(self.initial_learning_rate) / (np.float32(1.0)
                                                         + np.float32(self.decay_rate) * self.progress(step))


class PiecewiseConstantDecay(LearningRateSchedule):
    """``values[i]`` while ``boundaries[i-1] < step <= boundaries[i]``."""

    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        if len(values) != len(boundaries) + 1:
            raise ValueError("The length of boundaries should be 1 less than the length of values.")
        self.boundaries, self.values, self.name = list(boundaries), list(values), name

    def __call__(self, step):
        for b, v in zip(self.boundaries, self.values):
            if step <= b:
                return np.float32(v)
        return np.float32(self.values[-1])


class CosineDecay(LearningRateSchedule):
    """Cosine decay from ``initial_learning_rate`` to ``alpha * initial_learning_rate`` over ``decay_steps``."""

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name="CosineDecay", **kwargs):
        self.initial_learning_rate, self.decay_steps, self.alpha, self.name = \
            initial_learning_rate, decay_steps, alpha, name

    def __call__(self, step):
        s = min(float(step), self.decay_steps) / self.decay_steps
        decayed = (1 - self.alpha) * 0.5 * (1.0 + math.cos(math.pi * s)) + self.alpha
        return np.float32(self.initial_learning_rate * decayed)
