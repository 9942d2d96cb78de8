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


def call_traced(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` raising what TF raises while tracing ``fn`` (a ``tf.function``, a
    ``tf.data`` map/filter/reduce function): operands of different dtypes are a ``TypeError``
    there ("in user code: ..." with the user's frames), an ``InvalidArgumentError`` eagerly."""
    try:
        return fn(*args, **kwargs)
    except InvalidArgumentError as e:
        graph_message = getattr(e, "graph_message", None)
        if graph_message is None:
            raise
        raise TypeError(f"in user code:\n\n{_user_frames(e.__traceback__, fn)}\n"
                        f"    TypeError: {graph_message}\n") from None


def _user_frames(tb, fn):
    """TF's listing of the frames from ``fn`` down to the failing op, leaving out this package."""
    import linecache
    import os
    here = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))     # runtime/
    code = getattr(getattr(fn, "python_function", fn), "__code__", None)
    lines, inside = [], False
    while tb is not None:
        frame = tb.tb_frame
        inside = inside or frame.f_code is code
        path = frame.f_code.co_filename
        if inside and not os.path.abspath(path).startswith(here + os.sep):
            name, source = frame.f_code.co_name, linecache.getline(path, tb.tb_lineno).strip()
            if name == "<lambda>":  # TF names a lambda None and shows the lambda alone
                name, source = "None", _lambda_text(source)
            lines.append(f'    File "{path}", line {tb.tb_lineno}, in {name}  *\n        {source}\n')
        tb = tb.tb_next
    return "".join(lines)


def _lambda_text(line):
    """The lambda in a source line: from ``lambda`` to the end, less the callers' closing parens."""
    text = line[line.find("lambda"):] if "lambda" in line else line
    while text.endswith(")") and text.count(")") > text.count("("):
        text = text[:-1]
    return text


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
