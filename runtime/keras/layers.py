"""``keras.layers``: the Layer base class (weights, tracking, build/call) and a few layers.

A layer is called on numpy data or tensors (floating inputs become float32) and computes with
numpy calls on tensors, which active ``GradientTape``s record.  Called on a symbolic
:class:`KerasTensor` (from :func:`Input`), it only works out shapes: that is how ``Sequential``
and functional models learn their output shapes.
"""

import inspect
import operator

import numpy as np

from . import activations, backend, initializers, regularizers
from .backend import KerasVariable, _scopes
from ..engine.shapes import TensorShape
from ..engine.tensor import _TensorBase, constant
from ..engine.variable import Variable

__all__ = ["Layer", "InputLayer", "Input", "KerasTensor", "Dense", "Flatten", "Reshape", "Dropout", "Activation",
           "ReLU", "LeakyReLU", "ELU", "PReLU", "Softmax"]


# --- symbolic tensors ------------------------------------------------------------------

class KerasTensor:
    """A symbolic input/output of a layer: a shape (batch dimension None) and a dtype."""

    def __init__(self, shape, dtype="float32", node=None, name=None):
        self.shape = TensorShape(shape)
        self.dtype = np.dtype(dtype).name
        self._node = node          # (layer, input KerasTensors, call kwargs) or None for inputs
        self.name = name or backend.unique_name("keras_tensor")

    ndim = property(lambda self: len(self.shape))

    def __repr__(self):
        return (f"<KerasTensor shape={tuple(self.shape)}, dtype={self.dtype}, sparse=False, "
                f"ragged=False, name={self.name}>")


def _is_symbolic(x):
    if isinstance(x, KerasTensor):
        return True
    return isinstance(x, (list, tuple)) and bool(x) and all(isinstance(e, KerasTensor) for e in x)


def _shape_of(x):
    if isinstance(x, (list, tuple)) and not isinstance(x, TensorShape):
        return [_shape_of(e) for e in x]
    if isinstance(x, dict):
        return {k: _shape_of(v) for k, v in x.items()}
    return tuple(x.shape)


# --- Layer -----------------------------------------------------------------------------

_SCALARS = frozenset({int, float, str, bool, type(None)})

class Layer:
    """Base class: override ``build(input_shape)`` (create weights with ``add_weight``) and ``call``.

    Layers and variables assigned as attributes (also inside lists, tuples and dicts) are
    tracked, in assignment order, for ``variables`` / ``trainable_variables`` / ``summary()``.
    """

    def __init__(self, trainable=True, name=None, dtype=None, input_shape=None, batch_input_shape=None,
                 input_dim=None, **kwargs):
        kwargs.pop("autocast", None)
        kwargs.pop("activity_regularizer", None)
        if kwargs:
            raise TypeError(f"{type(self).__name__}.__init__() got unexpected keyword arguments: "
                            f"{sorted(kwargs)}")
        d = self.__dict__
        d["_name"] = name or backend.unique_name(backend.snake_case(type(self).__name__))
        d["_trainable"] = bool(trainable)
        d["built"] = False
        d["_own_variables"] = []
        d["_added_losses"] = []
        d["_build_shape"] = None
        d["_output_shape"] = None
        d["_dtype"] = getattr(dtype, "name", dtype) or backend.floatx()
        if input_dim is not None and input_shape is None:
            input_shape = (input_dim,)
        if batch_input_shape is not None:
            d["_declared_input_shape"] = tuple(batch_input_shape)
        elif input_shape is not None:
            d["_declared_input_shape"] = (None,) + tuple(input_shape)
        else:
            d["_declared_input_shape"] = None
        try:
            params = inspect.signature(self.call).parameters
        except (TypeError, ValueError):
            params = {}
        d["_call_has_training"] = "training" in params
        d["_training_default"] = params["training"].default if "training" in params and \
            params["training"].default is not inspect.Parameter.empty else None

    # Keras requires super().__init__(); be forgiving when a subclass sets attributes first
    def __getattr__(self, name):
        if name.startswith("__") or name in ("_name",):
            raise AttributeError(name)
        if "_own_variables" not in self.__dict__:
            Layer.__init__(self)
            return getattr(self, name)
        raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}'")

    # --- names, flags ------------------------------------------------------------------
    name = property(lambda self: self._name)
    dtype = property(lambda self: self._dtype)
    compute_dtype = dtype
    variable_dtype = dtype
    input_shape = property(lambda self: self._build_shape)
    output_shape = property(lambda self: self._output_shape)

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        value = bool(value)
        self.__dict__["_trainable"] = value
        for v in self._attribute_variables():
            if isinstance(v, backend.KerasVariable):
                v.trainable = value
        for layer in self._sublayers():
            layer.trainable = value

    # --- tracking ----------------------------------------------------------------------
    def _sublayers(self):
        """Directly tracked child layers, in attribute-assignment order (cached until an
        attribute holding a layer, variable or container changes, or a tracked container's items do)."""
        return list(Layer._tracking(self)[0])

    def _tracking(self):
        """(layers, variables, containers) found in the attributes, cached (see ``_sublayers``)."""
        cache = self.__dict__.get("_keras_cache")
        if cache is not None:
            for c, items in cache[2]:
                if len(c) != len(items) or not all(map(operator.is_, c.values() if isinstance(c, dict) else c, items)):
                    break       # grown, shrunk or an item replaced (self.blocks[0] = Dense(...))
            else:
                return cache
        layers, variables, containers = [], [], []
        seen = set()

        def visit(v, depth=0):
            if isinstance(v, Layer):
                if id(v) not in seen and v is not self:
                    seen.add(id(v))
                    layers.append(v)
            elif isinstance(v, Variable):
                if depth == 0 and id(v) not in seen:
                    seen.add(id(v))
                    variables.append(v)
            elif isinstance(v, (list, tuple, dict)) and depth < 3:
                if not isinstance(v, tuple):    # a tuple cannot change: nothing to check later
                    containers.append((v, tuple(v.values() if isinstance(v, dict) else v)))
                for e in (v.values() if isinstance(v, dict) else v):
                    visit(e, depth + 1)

        for k, v in self.__dict__.items():
            if type(v) in _SCALARS or k.startswith("_keras_") or k in _UNTRACKED:
                continue
            visit(v)
        cache = self.__dict__["_keras_cache"] = (layers, variables, containers)
        return cache

    def _attribute_variables(self):
        """Weights made by add_weight, then Variables assigned as attributes."""
        extra = Layer._tracking(self)[1]
        if not extra:
            return self._own_variables
        own = {id(v) for v in self._own_variables}
        return self._own_variables + [v for v in extra if id(v) not in own]

    @property
    def layers(self):
        return self._sublayers()

    @property
    def variables(self):
        return list(self._variables_tuple())

    def _variables_tuple(self):
        """``variables`` as a tuple, rebuilt only when this layer's tracked attributes, its number of
        weights or a sublayer's variables changed (a training loop reads them twice a step)."""
        cache = Layer._tracking(self)
        children = [layer._variables_tuple() if type(layer).variables is _VARIABLES else tuple(layer.variables)
                    for layer in self._sublayers()]
        own = self._own_variables
        memo = self.__dict__.get("_keras_variables")
        if memo is not None and memo[0] is cache and memo[1] == len(own) and _same_items(memo[2], children):
            return memo[3]
        out, seen = [], set()
        for v in self._attribute_variables():
            if id(v) not in seen:
                seen.add(id(v))
                out.append(v)
        for variables in children:
            for v in variables:
                if id(v) not in seen:
                    seen.add(id(v))
                    out.append(v)
        out = tuple(out)
        self.__dict__["_keras_variables"] = (cache, len(own), children, out)
        return out

    weights = variables

    @property
    def trainable_variables(self):
        if not self._trainable:
            return []
        return [v for v in self.variables if v.trainable]

    trainable_weights = trainable_variables

    @property
    def non_trainable_variables(self):
        if not self._trainable:
            return self.variables
        return [v for v in self.variables if not v.trainable]

    non_trainable_weights = non_trainable_variables

    def get_weights(self):
        return [np.array(v._value, copy=True) for v in self.weights]

    def set_weights(self, weights):
        params = self.weights
        if len(params) != len(weights):
            raise ValueError(f"You called `set_weights(weights)` on layer '{self.name}' with a weight list "
                             f"of length {len(weights)}, but the layer was expecting {len(params)} weights.")
        for v, w in zip(params, weights):
            v.assign(np.asarray(backend.to_numpy(w), dtype=v._value.dtype))

    def count_params(self):
        return int(sum(np.size(v._value) for v in self.weights))

    # --- weights -----------------------------------------------------------------------
    def add_weight(self, shape=None, initializer=None, dtype=None, trainable=True, autocast=True,
                   regularizer=None, constraint=None, aggregation=None, name=None, **kwargs):
        if isinstance(shape, str):  # Keras 2 order: add_weight(name, shape, ...)
            name, shape = shape, kwargs.pop("shape", initializer if not callable(initializer) else None)
        shape = () if shape is None else tuple(int(s) for s in shape)
        dtype = getattr(dtype, "name", dtype) or self._dtype
        if initializer is None:
            initializer = "glorot_uniform" if np.dtype(dtype).kind == "f" else "zeros"
        init = initializers.get(initializer)
        name = name or "variable"
        stack = _scopes.stack
        prefix = backend.current_path()
        if not stack or stack[-1] is not self:
            prefix = f"{prefix}/{self.name}" if prefix else self.name
        v = KerasVariable(init, shape=shape, dtype=dtype, trainable=trainable and self._trainable,
                          name=name, regularizer=regularizers.get(regularizer), constraint=constraint,
                          path=f"{prefix}/{name}")
        self._own_variables.append(v)
        return v

    def add_variable(self, shape, initializer, dtype=None, trainable=True, name=None, **kwargs):
        return self.add_weight(shape=shape, initializer=initializer, dtype=dtype, trainable=trainable,
                               name=name, **kwargs)

    # --- losses ------------------------------------------------------------------------
    def add_loss(self, loss):
        self._added_losses.append(loss)

    @property
    def losses(self):
        """Losses added in the last call plus weight-regularization penalties (recomputed now)."""
        out = list(self._added_losses)
        for v in self._own_variables:
            if v.regularizer is not None and v.trainable:
                out.append(v.regularizer(v))
        for layer in self._sublayers():
            out.extend(layer.losses)
        return out

    def _clear_losses(self):
        self._added_losses.clear()
        for layer in self._sublayers():
            layer._clear_losses()

    # --- build / call ------------------------------------------------------------------
    def build(self, input_shape=None):
        self.__dict__["built"] = True

    def call(self, inputs, *args, **kwargs):
        return inputs

    def compute_output_shape(self, input_shape):
        """By default: run ``call`` on zeros (batch dimension 1) and read the result's shape."""
        def zeros(shape):
            if isinstance(shape, list):
                return [zeros(s) for s in shape]
            return constant(np.zeros(tuple(1 if d is None else d for d in shape), np.float32))
        out = self.call(zeros(input_shape))
        batch_none = not isinstance(input_shape, list) and input_shape and input_shape[0] is None
        shape = tuple(out.shape)
        return (None,) + shape[1:] if batch_none and shape else shape

    def _maybe_build(self, shape):
        if self.built:
            return
        type(self).build(self, shape) if type(self).build is not Layer.build else None
        self.__dict__["built"] = True
        self.__dict__["_build_shape"] = shape

    def __call__(self, *args, **kwargs):
        if args and _is_symbolic(args[0]):
            return self._symbolic_call(*args, **kwargs)
        args = list(args)
        if args:
            args[0] = backend.autocast_input(args[0], self._dtype)
        elif "inputs" in kwargs:
            kwargs["inputs"] = backend.autocast_input(kwargs["inputs"], self._dtype)
        first = args[0] if args else kwargs.get("inputs")

        training = kwargs.get("training")
        if training is None:
            training = next((t for t in reversed(_scopes.training) if t is not None), None)
            if training is None:
                training = self._training_default
        if self._call_has_training and training is not None:
            kwargs["training"] = training
        elif not self._call_has_training:
            kwargs.pop("training", None)

        top = not _scopes.stack
        _scopes.stack.append(self)
        _scopes.training.append(training)
        try:
            if not self.built:
                self._maybe_build(_shape_of(first) if first is not None else None)
            if top:
                self._clear_losses()
            out = self.call(*args, **kwargs)
        finally:
            _scopes.stack.pop()
            _scopes.training.pop()
        if isinstance(out, _TensorBase):
            shape = tuple(out.shape)
            self.__dict__["_output_shape"] = (None,) + shape[1:] if shape else shape
        return out

    def _symbolic_call(self, inputs, *args, **kwargs):
        shape = _shape_of(inputs)
        _scopes.stack.append(self)
        try:
            if not self.built:
                self._maybe_build(shape)
            kwargs.pop("training", None)
            out_shape = self.compute_output_shape(shape)
        finally:
            _scopes.stack.pop()
        self.__dict__["_output_shape"] = tuple(out_shape)
        ins = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
        return KerasTensor(out_shape, node=(self, ins, kwargs))

    # --- misc ----------------------------------------------------------------------------
    def get_config(self):
        return {"name": self.name, "trainable": self.trainable, "dtype": self._dtype}

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"

    def __setattr__(self, name, value):
        d = self.__dict__
        if "_own_variables" not in d and not name.startswith("_"):
            Layer.__init__(self)
        if type(value) not in _SCALARS:
            d.pop("_keras_cache", None)
        object.__setattr__(self, name, value)

    def __delattr__(self, name):
        self.__dict__.pop("_keras_cache", None)
        object.__delattr__(self, name)


_VARIABLES = Layer.variables
_UNTRACKED = ("optimizer", "_own_variables", "_added_losses")
"""Attributes that never hold tracked layers (``_added_losses``: loss values, cleared each call)."""


def _same_items(old, new):
    """Whether two lists of variable tuples hold the same variables (by identity: ``==`` compares values)."""
    if len(old) != len(new):
        return False
    for a, b in zip(old, new):
        if a is not b and (len(a) != len(b) or any(x is not y for x, y in zip(a, b))):
            return False
    return True


# --- Input -----------------------------------------------------------------------------

class InputLayer(Layer):
    def __init__(self, shape=None, batch_size=None, dtype=None, batch_shape=None, name=None, **kwargs):
        input_shape = kwargs.pop("input_shape", None)
        if shape is None and input_shape is not None:
            shape = input_shape
        super().__init__(name=name or backend.unique_name("input_layer"), dtype=dtype)
        if batch_shape is None:
            batch_shape = (batch_size,) + tuple(shape or ())
        self.__dict__["_batch_shape"] = tuple(batch_shape)
        self.__dict__["built"] = True
        self.__dict__["_output_shape"] = tuple(batch_shape)
        self.__dict__["output"] = KerasTensor(batch_shape, dtype=dtype or backend.floatx(),
                                              node=(self, [], {}))

    batch_shape = property(lambda self: self._batch_shape)


def Input(shape=None, batch_size=None, dtype=None, batch_shape=None, name=None, **kwargs):
    """A symbolic input: ``Input(shape=(3,))`` stands for batches of shape ``(None, 3)``."""
    layer = InputLayer(shape=shape, batch_size=batch_size, dtype=dtype, batch_shape=batch_shape,
                       name=name, **kwargs)
    return layer.output


# --- core layers -----------------------------------------------------------------------

class Dense(Layer):
    """``outputs = activation(inputs @ kernel + bias)``; kernel ``(input_dim, units)``."""

    def __init__(self, units, activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(**kwargs)
        units = int(units) if not isinstance(units, int) else units
        if units <= 0:
            raise ValueError(f"Received an invalid value for `units`, expected a positive integer. "
                             f"Received: units={units}")
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel = None
        self.bias = None

    def build(self, input_shape):
        in_dim = input_shape[-1]
        if in_dim is None:
            raise ValueError(f"The last dimension of the inputs to a Dense layer should be defined. "
                             f"Found None. Full input shape received: {input_shape}")
        self.kernel = self.add_weight(shape=(in_dim, self.units), initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer, name="kernel")
        if self.use_bias:
            self.bias = self.add_weight(shape=(self.units,), initializer=self.bias_initializer,
                                        regularizer=self.bias_regularizer, name="bias")
        self.built = True

    def call(self, inputs):
        x = inputs
        if x._value.dtype != self.kernel._value.dtype:
            x = backend.cast(x, self.kernel._value.dtype)
        y = np.matmul(x, self.kernel)
        if self.use_bias:
            y = y + self.bias
        return self.activation(y)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)

    def get_config(self):
        return {**super().get_config(), "units": self.units,
                "activation": activations.serialize(self.activation), "use_bias": self.use_bias}


class Flatten(Layer):
    """Reshape ``(batch, d1, d2, ...)`` to ``(batch, d1 * d2 * ...)``."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)

    def call(self, inputs):
        if inputs.ndim == 0:
            return np.reshape(inputs, (1, 1))
        if inputs.ndim == 1:
            return np.expand_dims(inputs, -1)
        return np.reshape(inputs, (inputs.shape[0], -1))

    def compute_output_shape(self, input_shape):
        rest = input_shape[1:]
        n = None if any(d is None for d in rest) else int(np.prod(rest)) if rest else 1
        return (input_shape[0], n)


class Reshape(Layer):
    """Reshape each example to ``target_shape`` (the batch axis is kept; one entry may be -1)."""

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(target_shape)

    def call(self, inputs):
        return np.reshape(inputs, (inputs.shape[0],) + self.target_shape)

    def compute_output_shape(self, input_shape):
        shape = list(self.target_shape)
        if -1 in shape and None not in input_shape[1:]:
            known = int(np.prod([d for d in shape if d != -1]))
            shape[shape.index(-1)] = int(np.prod(input_shape[1:])) // known
        return (input_shape[0],) + tuple(None if d == -1 else d for d in shape)

    def get_config(self):
        return {**super().get_config(), "target_shape": self.target_shape}


class Dropout(Layer):
    """Zero a ``rate`` fraction of inputs and scale the rest by ``1 / (1 - rate)``, when training."""

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not 0 <= rate <= 1:
            raise ValueError(f"Invalid value received for argument `rate`. Expected a float value "
                             f"between 0 and 1. Received: rate={rate}")
        self.rate = float(rate)
        self.noise_shape = noise_shape
        self.seed = seed
        self.__dict__["_keras_gen"] = None if seed is None else np.random.default_rng(seed)

    def call(self, inputs, training=False):
        if not training or self.rate == 0:
            return inputs
        gen = self._keras_gen or backend.rng()
        shape = tuple(inputs.shape) if self.noise_shape is None else tuple(
            s if s is not None else d for s, d in zip(self.noise_shape, inputs.shape))
        keep = gen.random(shape) >= self.rate
        scale = np.where(keep, 1.0 / (1.0 - self.rate), 0.0).astype(inputs._value.dtype)
        return inputs * scale

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)


class Activation(Layer):
    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)


class ReLU(Layer):
    """Keras 3's ReLU layer: ``activations.relu(x, negative_slope, max_value, threshold)``."""

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        for what, value in (("max_value", max_value), ("negative_slope", negative_slope), ("threshold", threshold)):
            if (value is None and what != "max_value") or (value is not None and value < 0.0):
                raise ValueError(f"{what} of a ReLU layer cannot be None or a negative value. "
                                 f"Received: {what}={value}")
        self.max_value, self.negative_slope, self.threshold = max_value, negative_slope, threshold

    def call(self, inputs):
        return activations.relu(inputs, negative_slope=self.negative_slope, max_value=self.max_value,
                                threshold=self.threshold)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {**super().get_config(), "max_value": self.max_value, "negative_slope": self.negative_slope,
                "threshold": self.threshold}


class LeakyReLU(Layer):
    def __init__(self, negative_slope=0.3, **kwargs):
        if "alpha" in kwargs:                          # Keras 2's name
            negative_slope = kwargs.pop("alpha")
        super().__init__(**kwargs)
        if negative_slope is None or negative_slope < 0:
            raise ValueError(f"The negative_slope value of a Leaky ReLU layer cannot be None or negative "
                             f"value. Expected a float. Received: negative_slope={negative_slope}")
        self.negative_slope = negative_slope

    def call(self, inputs):
        return activations.leaky_relu(inputs, negative_slope=self.negative_slope)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {**super().get_config(), "negative_slope": self.negative_slope}


class ELU(Layer):
    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.alpha = alpha

    def call(self, inputs):
        return activations.elu(inputs, alpha=self.alpha)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)


class PReLU(Layer):
    """relu(x) - alpha * relu(-x) with a trained ``alpha`` per input unit (shared along ``shared_axes``)."""

    def __init__(self, alpha_initializer="Zeros", alpha_regularizer=None, alpha_constraint=None, shared_axes=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.alpha_initializer = initializers.get(alpha_initializer)
        self.alpha_regularizer = regularizers.get(alpha_regularizer)
        self.shared_axes = None if shared_axes is None else list(shared_axes) if isinstance(
            shared_axes, (list, tuple)) else [shared_axes]
        self.alpha = None

    def build(self, input_shape):
        shape = list(input_shape[1:])
        for i in self.shared_axes or ():
            shape[i - 1] = 1
        self.alpha = self.add_weight(shape=shape, name="alpha", initializer=self.alpha_initializer,
                                     regularizer=self.alpha_regularizer)
        self.built = True

    def call(self, inputs):
        return activations.relu(inputs) - self.alpha * activations.relu(-inputs)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)


class Softmax(Layer):
    """softmax over ``axis`` (a tuple: over all of them); masked positions get a large negative logit."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs, mask=None):
        if mask is not None:
            keep = np.asarray(backend.to_numpy(mask))
            keep = keep if keep.dtype == bool else keep > 0.5
            big = -1e9 if inputs._value.dtype != np.float16 else -3e4
            inputs = np.where(keep, inputs, np.asarray(big, dtype=inputs._value.dtype))
        if isinstance(self.axis, (tuple, list)):
            from ..rules import activations as prims
            out = np.exp(inputs - prims.logsumexp(inputs, axis=tuple(self.axis), keepdims=True))
        else:
            out = activations.softmax(inputs, axis=self.axis)
        return out if mask is None else np.where(keep, out, np.zeros_like(out))   # (a fully masked axis: 0)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}
