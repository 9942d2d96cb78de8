"""The tape engine: tensors and ``apply``, the numpy protocol, GradientTape, ForwardAccumulator,
custom_gradient, vectorised jacobians and gradient explanations.

Imports only ``runtime.rules`` below it; the TF surface (``runtime/__init__``, ``ops/``,
``keras/``...) is built on top.  Importing this package imports none of its modules.
"""
