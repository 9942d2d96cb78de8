"""The ``tf.*`` functions (math, arrays, convolutions, initializers, random bits): wrappers that run
primitives through the engine's ``apply``, so each op's one derivative rule serves the tape.

Part of the TF surface; ``runtime/__init__`` re-exports these names as the ``tf`` namespace.
"""
