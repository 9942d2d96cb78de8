"""Generated code in Jupyter: a differentiated function and ``grad(f)`` display their source
highlighted (``_repr_html_``), and ``show()`` prints it highlighted in a notebook.

pygments highlights when it is installed; otherwise the code is an escaped ``<pre>`` block.
Nothing here imports IPython: a notebook kernel has loaded it already, and elsewhere it is absent.
"""

import sys


def html_source(title, source):
    """``source`` as HTML: a one-line title, then the code (highlighted when pygments is there)."""
    import html             # (here: import transpiler need not load html.entities)

    head = f"<p><code>{html.escape(title)}</code></p>"
    try:
        from pygments import highlight
        from pygments.formatters import HtmlFormatter
        from pygments.lexers import PythonLexer
    except ImportError:
        return f"{head}<pre>{html.escape(source)}</pre>"
    return head + highlight(source, PythonLexer(), HtmlFormatter(noclasses=True))


def in_notebook():
    """True in a Jupyter kernel (a terminal IPython cannot show HTML, so it gets plain text)."""
    ipython = sys.modules.get("IPython")
    shell = getattr(ipython, "get_ipython", lambda: None)() if ipython is not None else None
    return type(shell).__name__ == "ZMQInteractiveShell"


def show(title, source):
    """Print ``source``; in a notebook, display it highlighted instead."""
    if not in_notebook():
        print(source, end="")
        return
    from IPython.display import HTML, display       # loaded by the kernel already
    display(HTML(html_source(title, source)))
