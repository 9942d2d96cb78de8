"""``tf.errors``: the exception types TensorFlow programs catch."""


class OpError(Exception):
    """An operation failed (TF's base class for runtime errors)."""

    def __init__(self, message="", node_def=None, op=None, error_code=None):
        super().__init__(message)
        self.message = message
        self.node_def = node_def
        self.op = op
        self.error_code = error_code


class InvalidArgumentError(OpError, ValueError):
    """An op got an argument it cannot use: mismatched dtypes, incompatible shapes.

    Also a ``ValueError``, so numpy-style code that catches shape errors keeps working.
    """


class InternalError(OpError):
    pass


class UnimplementedError(OpError):
    pass


class NotFoundError(OpError):
    pass


class OutOfRangeError(OpError):
    pass


class ResourceExhaustedError(OpError):
    pass
