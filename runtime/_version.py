"""adjoin's version: the one place it is written (``runtime.__version__``, ``transpiler.__version__``
and the wheel's metadata all read it). Importing it costs nothing: no imports here."""

__version__ = "0.1.0"
