"""``keras.optimizers``: SGD, Adam, RMSprop, Adagrad with Keras 3's update formulas.

``apply_gradients(zip(grads, vars))`` updates the variables in place (gradients that are None
are skipped); ``minimize(loss, var_list, tape=None)`` computes the gradients first.  Updates run
in the variable's dtype on plain numpy values, so they are never recorded on a tape.

Formulas (``lr`` the current learning rate, ``t`` the 1-based step):
* SGD: ``v -= lr * g``; with momentum ``m = momentum * m - lr * g`` then ``v += m`` or, with
  nesterov, ``v += momentum * m - lr * g``.
* Adam: ``m += (g - m)(1 - b1)``, ``s += (g^2 - s)(1 - b2)``,
  ``v -= lr * sqrt(1 - b2^t) / (1 - b1^t) * m / (sqrt(s) + epsilon)`` (epsilon outside the root).
* RMSprop: ``s = rho s + (1 - rho) g^2`` (centered: minus ``mg^2``), ``v -= lr g / sqrt(s + epsilon)``;
  with momentum ``m = momentum m + lr g / sqrt(s + epsilon)``, ``v -= m``.
* Adagrad: ``a += g^2``, ``v -= lr g / sqrt(a + epsilon)``.
"""

import numpy as np

from .. import backend
from ...engine.tensor import _TensorBase
from . import schedules
from .schedules import LearningRateSchedule

__all__ = ["Optimizer", "SGD", "Adam", "RMSprop", "Adagrad", "schedules", "get"]


def _np(x):
    return x._value if isinstance(x, _TensorBase) else np.asarray(x)


class Optimizer:
    """Base class: subclasses define ``_slots`` (names) and ``_update(var, grad, slots, lr, t)``."""

    _slots = ()

    def __init__(self, learning_rate=0.001, weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, name=None, **kwargs):
        for key in ("use_ema", "ema_momentum", "ema_overwrite_frequency", "loss_scale_factor",
                    "gradient_accumulation_steps", "jit_compile"):
            kwargs.pop(key, None)
        if kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() got unexpected keyword arguments: {sorted(kwargs)}")
        if sum(c is not None for c in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError("Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set.")
        self.name = name or backend.snake_case(type(self).__name__)
        self.weight_decay = weight_decay
        self.clipnorm, self.clipvalue, self.global_clipnorm = clipnorm, clipvalue, global_clipnorm
        self.iterations = backend.KerasVariable(np.int64(0), trainable=False, name="iteration",
                                                path=f"{self.name}/iteration")
        self._schedule = None
        self._lr = None
        self.learning_rate = learning_rate
        self._state = {}        # id(variable) -> list of slot arrays
        self._tracked = []      # variables with state, in first-update order

    # --- learning rate ---------------------------------------------------------------------
    @property
    def learning_rate(self):
        """The current learning rate (a schedule is evaluated at ``iterations``)."""
        if self._schedule is not None:
            return backend.convert(np.float32(self._schedule(int(self.iterations._value))))
        return self._lr

    @learning_rate.setter
    def learning_rate(self, value):
        if isinstance(value, LearningRateSchedule) or (callable(value) and not isinstance(value, (_TensorBase, float, int))):
            self._schedule = value
            self._lr = None
        else:
            if self._schedule is not None:
                raise TypeError("This optimizer was created with a `LearningRateSchedule` object as its "
                                "`learning_rate`; its learning rate cannot be set to a value.")
            v = np.float32(_np(value))
            if self._lr is None:
                self._lr = backend.KerasVariable(v, trainable=False, name="learning_rate",
                                                 path=f"{self.name}/learning_rate")
            else:
                self._lr.assign(v)

    lr = learning_rate

    def _current_lr(self):
        if self._schedule is not None:
            return float(self._schedule(int(self.iterations._value)))
        return float(self._lr._value)

    # --- state -----------------------------------------------------------------------------
    @property
    def variables(self):
        out = [self.iterations] + ([self._lr] if self._lr is not None else [])
        for v in self._tracked:
            out.extend(self._state[id(v)][1])
        return out

    def build(self, var_list):
        for v in var_list:
            self._slots_for(v)

    def _slots_for(self, var):
        entry = self._state.get(id(var))
        if entry is None:
            slots = [self._init_slot(name, var) for name in self._slots]
            entry = self._state[id(var)] = (var, slots)
            self._tracked.append(var)
        return entry[1]

    def _init_slot(self, name, var):
        path = getattr(var, "path", var.name.split(":")[0])
        return backend.KerasVariable(np.zeros(var._value.shape, var._value.dtype), trainable=False,
                                     name=f"{path.replace('/', '_')}_{name}",
                                     path=f"{self.name}/{path.replace('/', '_')}_{name}")

    # --- applying --------------------------------------------------------------------------
    def apply_gradients(self, grads_and_vars):
        pairs = [(g, v) for g, v in grads_and_vars]
        present = [(g, v) for g, v in pairs if g is not None]
        if not present:
            if pairs:
                raise ValueError(f"No gradients provided for any variable: {[v.name for _, v in pairs]}")
            return self.iterations
        grads = [np.asarray(_np(g), dtype=v._value.dtype) for g, v in present]
        grads = self._clip(grads)
        lr = self._current_lr()
        t = int(self.iterations._value) + 1
        for g, (_, var) in zip(grads, present):
            slots = self._slots_for(var)
            value = var._value
            dt = value.dtype.type
            if self.weight_decay:
                value = value - value * dt(self.weight_decay) * dt(lr)
            new = self._update(value, g, slots, dt(lr), t)
            var.assign(new.astype(value.dtype, copy=False))
        self.iterations.assign(np.int64(t))
        return self.iterations

    def apply(self, grads, trainable_variables=None):
        return self.apply_gradients(zip(grads, trainable_variables))

    def _clip(self, grads):
        if self.clipvalue is not None:
            grads = [np.clip(g, -self.clipvalue, self.clipvalue) for g in grads]
        if self.clipnorm is not None:
            out = []
            for g in grads:
                n = np.sqrt(np.sum(np.square(g)))
                out.append(g * (self.clipnorm / n) if n > self.clipnorm else g)
            grads = out
        if self.global_clipnorm is not None:
            n = np.sqrt(sum(np.sum(np.square(g)) for g in grads))
            if n > self.global_clipnorm:
                grads = [g * np.asarray(self.global_clipnorm / n, g.dtype) for g in grads]
        return grads

    def minimize(self, loss, var_list, tape=None):
        """Compute gradients of ``loss`` (a callable, or a tensor recorded on ``tape``) and apply them."""
        from ...engine.tape import GradientTape
        if callable(var_list) and not isinstance(var_list, (list, tuple)):
            var_list = var_list()
        var_list = list(var_list)
        if callable(loss) and not isinstance(loss, _TensorBase):
            with GradientTape() as tape:
                tape.watch(var_list)
                value = loss()
        else:
            if tape is None:
                raise ValueError("`tape` is required when a `Tensor` loss is passed. Received: "
                                 f"loss={loss!r}, tape=None.")
            value = loss
        grads = tape.gradient(value, var_list)
        return self.apply_gradients(zip(grads, var_list))

    def get_config(self):
        cfg = {"name": self.name, "learning_rate": self._current_lr(), "weight_decay": self.weight_decay,
               "clipnorm": self.clipnorm, "clipvalue": self.clipvalue, "global_clipnorm": self.global_clipnorm}
        cfg.update({k: getattr(self, k) for k in self._config_keys})
        return cfg

    _config_keys = ()

    def __repr__(self):
        return f"<keras.optimizers.{type(self).__name__} name={self.name}>"


class SGD(Optimizer):
    _config_keys = ("momentum", "nesterov")

    def __init__(self, learning_rate=0.01, momentum=0.0, nesterov=False, name="SGD", **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        if not isinstance(momentum, (int, float)) or momentum < 0 or momentum > 1:
            raise ValueError("`momentum` must be a float between [0, 1].")
        self.momentum = float(momentum)
        self.nesterov = bool(nesterov)
        self._slots = ("momentum",) if self.momentum else ()

    def _update(self, var, g, slots, lr, t):
        dt = var.dtype.type
        if not self.momentum:
            return var - lr * g
        m = slots[0]
        mom = dt(self.momentum)
        new_m = mom * m._value - lr * g
        m.assign(new_m)
        if self.nesterov:
            return var + (mom * new_m - lr * g)
        return var + new_m


class Adam(Optimizer):
    _config_keys = ("beta_1", "beta_2", "epsilon", "amsgrad")

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7, amsgrad=False,
                 name="adam", **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.beta_1, self.beta_2, self.epsilon, self.amsgrad = beta_1, beta_2, epsilon, amsgrad
        self._slots = ("momentum", "velocity") + (("velocity_hat",) if amsgrad else ())

    def _update(self, var, g, slots, lr, t):
        dt = var.dtype.type
        b1, b2, eps = dt(self.beta_1), dt(self.beta_2), dt(self.epsilon)
        one = dt(1)
        b1_power = np.power(b1, dt(t))
        b2_power = np.power(b2, dt(t))
        alpha = lr * np.sqrt(one - b2_power) / (one - b1_power)
        m, v = slots[0], slots[1]
        # Keras writes ``1 - self.beta_1`` with Python floats, then casts: not 1 - float32(beta_1)
        m_new = m._value + (g - m._value) * dt(1 - self.beta_1)
        v_new = v._value + (np.square(g) - v._value) * dt(1 - self.beta_2)
        m.assign(m_new)
        v.assign(v_new)
        if self.amsgrad:
            vh = slots[2]
            v_new = np.maximum(vh._value, v_new)
            vh.assign(v_new)
        return var - (m_new * alpha) / (np.sqrt(v_new) + eps)


class RMSprop(Optimizer):
    _config_keys = ("rho", "momentum", "epsilon", "centered")

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7, centered=False,
                 name="rmsprop", **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.rho, self.momentum, self.epsilon, self.centered = rho, momentum, epsilon, centered
        self._slots = ("velocity",) + (("momentum",) if momentum > 0 else ()) + (("average_gradient",) if centered else ())

    def _update(self, var, g, slots, lr, t):
        dt = var.dtype.type
        rho, eps, one = dt(self.rho), dt(self.epsilon), dt(1)
        velocity = slots[0]
        s = rho * velocity._value + dt(1 - self.rho) * np.square(g)
        velocity.assign(s)
        if self.centered:
            avg = slots[-1]
            a = rho * avg._value + dt(1 - self.rho) * g
            avg.assign(a)
            denominator = s - np.square(a) + eps
        else:
            denominator = s + eps
        increment = lr * g / np.sqrt(denominator)
        if self.momentum > 0:
            mom = slots[1]
            m = dt(self.momentum) * mom._value + increment
            mom.assign(m)
            return var - m
        return var - increment


class Adagrad(Optimizer):
    _config_keys = ("initial_accumulator_value", "epsilon")

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7, name="adagrad", **kwargs):
        super().__init__(learning_rate=learning_rate, name=name, **kwargs)
        self.initial_accumulator_value, self.epsilon = initial_accumulator_value, epsilon
        self._slots = ("accumulator",)

    def _init_slot(self, name, var):
        slot = super()._init_slot(name, var)
        slot.assign(np.full(var._value.shape, self.initial_accumulator_value, var._value.dtype))
        return slot

    def _update(self, var, g, slots, lr, t):
        dt = var.dtype.type
        acc = slots[0]
        a = acc._value + np.square(g)
        acc.assign(a)
        return var - lr * g / np.sqrt(a + dt(self.epsilon))


_BY_NAME = {"sgd": SGD, "adam": Adam, "rmsprop": RMSprop, "adagrad": Adagrad}


def get(identifier):
    """An optimizer from a name (``'adam'``), an instance, or a class."""
    if isinstance(identifier, Optimizer):
        return identifier
    if isinstance(identifier, str):
        try:
            return _BY_NAME[identifier.lower()]()
        except KeyError:
            raise ValueError(f"Could not interpret optimizer identifier: {identifier!r}; known: "
                             f"{', '.join(sorted(_BY_NAME))}") from None
    if isinstance(identifier, type) and issubclass(identifier, Optimizer):
        return identifier()
    raise ValueError(f"Could not interpret optimizer identifier: {identifier!r}")
