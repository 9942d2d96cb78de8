"""adjoin's Keras subset: ``from runtime import keras`` (or ``tf.keras``), built on GradientTape.

Layers (Dense, Flatten, Dropout, Activation, Input, Layer subclassing), Model subclassing,
functional and Sequential models with ``summary()``, ``compile`` / ``fit`` / ``evaluate`` /
``predict``; losses, activations, initializers, regularizers, optimizers (SGD, Adam, RMSprop,
Adagrad, learning-rate schedules) and metrics.  Weights are ``runtime.Variable``s, so a
hand-written ``GradientTape`` loop, ``assign_sub`` and ``optimizer.apply_gradients`` all work on
``model.variables``.
"""

from . import activations, backend, initializers, layers, losses, metrics, models, optimizers, regularizers, utils
from .backend import KerasVariable as Variable
from .layers import Input, Layer
from .models import Model, Sequential
from .optimizers import schedules  # noqa: F401

__version__ = "3.15.0"

__all__ = ["activations", "backend", "initializers", "layers", "losses", "metrics", "models", "optimizers",
           "regularizers", "utils", "Input", "Layer", "Model", "Sequential", "Variable"]
