"""``keras.Model`` (subclassing and functional), ``keras.Sequential``.

A subclassed model tracks the layers assigned to its attributes; ``variables`` follow that
order (each layer's kernel, then bias).  A functional model replays the layer calls recorded
from ``Input`` to ``outputs``.  Training (compile/fit/evaluate/predict) lives in ``training``.
"""

import numpy as np

from . import backend
from .backend import _scopes
from .layers import InputLayer, KerasTensor, Layer, _is_symbolic
from .summary import format_summary
from .training import TrainingMixin

__all__ = ["Model", "Sequential"]


class Model(TrainingMixin, Layer):
    """Group layers into an object with training and inference features."""

    def __init__(self, *args, **kwargs):
        inputs = kwargs.pop("inputs", args[0] if len(args) > 0 else None)
        outputs = kwargs.pop("outputs", args[1] if len(args) > 1 else None)
        if inputs is not None and outputs is not None:
            name = kwargs.pop("name", None) or backend.unique_name("functional")
            Layer.__init__(self, name=name, **{k: v for k, v in kwargs.items() if k in ("trainable", "dtype")})
            self._init_functional(inputs, outputs)
        else:
            Layer.__init__(self, **kwargs)
        self.__dict__.setdefault("_keras_graph", None)
        TrainingMixin._init_training(self)

    # --- functional models -------------------------------------------------------------------
    def _init_functional(self, inputs, outputs):
        ins = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
        outs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
        order, seen = [], set()

        def visit(kt):
            if id(kt) in seen:
                return
            seen.add(id(kt))
            layer, parents, _ = kt._node
            for p in parents:
                visit(p)
            order.append(kt)

        for o in outs:
            if not isinstance(o, KerasTensor):
                raise ValueError(f"Functional model outputs must be KerasTensors (results of calling "
                                 f"layers on keras.Input(...)); got {type(o).__name__}")
            visit(o)
        self.__dict__["_keras_graph"] = (ins, outs, order, isinstance(inputs, (list, tuple)),
                                         isinstance(outputs, (list, tuple)))
        layers = []
        for kt in order:
            layer = kt._node[0]
            if layer not in layers:
                layers.append(layer)
        self.__dict__["_keras_layers"] = layers
        self.__dict__["built"] = True
        self.__dict__["_output_shape"] = tuple(outs[0].shape)

    def _sublayers(self):
        if self.__dict__.get("_keras_graph") is not None:
            return [layer for layer in self._keras_layers if not isinstance(layer, InputLayer)]
        return Layer._sublayers(self)

    def _summary_layers(self):
        if self.__dict__.get("_keras_graph") is not None:
            return list(self._keras_layers)
        return self.layers

    def call(self, inputs, training=None, mask=None):
        graph = self.__dict__.get("_keras_graph")
        if graph is None:
            raise NotImplementedError(f"Model {type(self).__name__} has no `call` method: define "
                                      f"call(self, inputs) in your subclass or build a functional model.")
        ins, outs, order, multi_in, multi_out = graph
        values = {}
        given = list(inputs) if multi_in else [inputs]
        for kt, v in zip(ins, given):
            values[id(kt)] = backend.autocast_input(v)
        for kt in order:
            if id(kt) in values:
                continue
            layer, parents, kwargs = kt._node
            args = [values[id(p)] for p in parents]
            values[id(kt)] = layer(args if len(args) > 1 else args[0], **kwargs)
        results = [values[id(o)] for o in outs]
        return results if multi_out else results[0]

    # --- building ----------------------------------------------------------------------------
    def build(self, input_shape=None):
        """Create the weights by running ``call`` once on zeros of ``input_shape``."""
        if self.built or input_shape is None:
            self.__dict__["built"] = True
            return
        if type(self).call is Model.call and self.__dict__.get("_keras_graph") is None:
            self.__dict__["built"] = True
            return
        shape = tuple(1 if d is None else d for d in input_shape)
        self.__dict__["built"] = True
        stack_owner = _scopes.stack and _scopes.stack[-1] is self
        if stack_owner:
            self.call(backend.convert(np.zeros(shape, np.float32)))
        else:
            self(np.zeros(shape, np.float32))

    def _maybe_build(self, shape):
        if self.built:
            return
        if type(self).build is not Model.build:
            type(self).build(self, shape)
        self.__dict__["built"] = True
        self.__dict__["_build_shape"] = shape

    def summary(self, line_length=None, positions=None, print_fn=None, expand_nested=False,
                show_trainable=False, layer_range=None):
        text = format_summary(self, line_length)
        (print_fn or print)(text)

    def get_layer(self, name=None, index=None):
        layers = self._summary_layers()
        if index is not None:
            return layers[index]
        for layer in layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}. Existing layers are: {[l.name for l in layers]}.")

    @property
    def metrics_names(self):
        return ["loss"] + [m.name for m in self._compiled_metrics]


class Sequential(Model):
    """A linear stack of layers: ``Sequential([Input((3,)), Dense(30, 'relu'), Dense(1)])``."""

    def __init__(self, layers=None, trainable=True, name=None):
        Model.__init__(self, trainable=trainable, name=name)
        self.__dict__["_keras_layers"] = []
        self.__dict__["_keras_input"] = None
        for layer in layers or ():
            self.add(layer)

    def add(self, layer):
        if isinstance(layer, KerasTensor):
            layer = layer._node[0]
        if isinstance(layer, InputLayer):
            if self._keras_layers or self._keras_input is not None:
                raise ValueError("An Input can only be the first element of a Sequential model.")
            self.__dict__["_keras_input"] = KerasTensor(layer.batch_shape)
            self.__dict__["_keras_symbolic"] = self._keras_input
            return
        if not isinstance(layer, Layer):
            raise ValueError(f"Only instances of `keras.Layer` can be added to a Sequential model. "
                             f"Received: {layer!r} (of type {type(layer)})")
        if not self._keras_layers and self._keras_input is None and layer._declared_input_shape is not None:
            self.__dict__["_keras_input"] = KerasTensor(layer._declared_input_shape)
            self.__dict__["_keras_symbolic"] = self._keras_input
        self._keras_layers.append(layer)
        if self._keras_input is not None:
            _scopes.stack.append(self)
            try:
                self.__dict__["_keras_symbolic"] = layer(self._keras_symbolic)
            finally:
                _scopes.stack.pop()
            self.__dict__["built"] = True
            self.__dict__["_build_shape"] = tuple(self._keras_input.shape)
            self.__dict__["_output_shape"] = tuple(self._keras_symbolic.shape)

    def pop(self):
        if not self._keras_layers:
            raise TypeError("There are no layers in the model.")
        return self._keras_layers.pop()

    def _sublayers(self):
        return list(self._keras_layers)

    def _summary_layers(self):
        return list(self._keras_layers)

    def build(self, input_shape=None):
        if input_shape is None or self.built and all(l.built for l in self._keras_layers):
            self.__dict__["built"] = True
            return
        kt = KerasTensor(input_shape)
        push = not (_scopes.stack and _scopes.stack[-1] is self)
        if push:
            _scopes.stack.append(self)
        try:
            for layer in self._keras_layers:
                kt = layer(kt)
        finally:
            if push:
                _scopes.stack.pop()
        self.__dict__["built"] = True
        self.__dict__["_build_shape"] = tuple(input_shape)
        self.__dict__["_output_shape"] = tuple(kt.shape)

    def call(self, inputs, training=None, mask=None):
        x = inputs
        for layer in self._keras_layers:
            x = layer(x)
        return x

    @property
    def inputs(self):
        return [self._keras_input] if self._keras_input is not None else None

    def _maybe_build(self, shape):
        if not self.built:
            self.build((None,) + tuple(shape[1:]) if isinstance(shape, tuple) and shape else shape)
