"""``tf.debugging``: gradient explanations (adjoin's own) -- "why is my gradient None?".

``enable_gradient_explanations()`` makes every None that ``tape.gradient`` / ``jacobian`` returns
come with one :class:`GradientExplanationWarning` naming the source, the cause and the user's
``file:line`` where the chain broke.  Off by default: output stays identical to TensorFlow's.
"""

from .engine.explain import GradientExplanationWarning, enabled as gradient_explanations_enabled  # noqa: F401
from .engine import explain as _explain

__all__ = ["enable_gradient_explanations", "disable_gradient_explanations",
           "gradient_explanations_enabled", "GradientExplanationWarning"]


def enable_gradient_explanations():
    """Record where values come from, so each None gradient can be explained (costs time)."""
    _explain.enable()


def disable_gradient_explanations():
    """Back to the default: nothing recorded, no explanations."""
    _explain.disable()
