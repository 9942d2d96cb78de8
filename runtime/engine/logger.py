"""``tf.get_logger()``: the "tensorflow" logger, on which the tape warns as TF does."""

import sys

__all__ = ["get_logger"]


_logger = []


def get_logger():
    """``tf.get_logger()``: the "tensorflow" logger, set up as TF sets it up on first use: when the
    root logger has no handlers, records go to stderr as ``WARNING:tensorflow:message``.
    (``logging`` is imported here, on first use, to keep ``import runtime`` fast.)"""
    if _logger:
        return _logger[0]
    import logging

    class _Stderr(logging.StreamHandler):
        """A handler writing to whatever ``sys.stderr`` is when a record is emitted."""

        @property
        def stream(self):
            return sys.stderr

        @stream.setter
        def stream(self, value):
            pass

    logger = logging.getLogger("tensorflow")
    if not logging.getLogger().handlers:
        handler = _Stderr()
        handler.setFormatter(logging.Formatter(logging.BASIC_FORMAT, None))
        logger.addHandler(handler)
    _logger.append(logger)
    return logger
