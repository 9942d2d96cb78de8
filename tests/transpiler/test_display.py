"""Generated code in Jupyter (transpiler/display.py): highlighted HTML, plain escaped <pre> without
pygments, and show() displaying HTML only inside a notebook kernel -- without importing IPython."""

import html
import re
import sys
import types

import numpy as np
import pytest

from transpiler import differentiate, grad


@differentiate
def f(x):
    return np.sum(np.where(x < 1.0, x * x, np.sin(x)))        # `<` in the source: escaped in HTML


def _text(markup):
    return html.unescape(re.sub(r"<[^>]+>", "", markup))


def test_repr_html_is_the_source_highlighted():
    pytest.importorskip("pygments")
    for obj in (f, grad(f)):
        markup = obj._repr_html_()
        assert "<span" in markup and "x < 1.0" not in markup       # highlighted, and escaped
        assert obj.source in _text(markup)
        assert _text(markup).startswith(repr(obj))


def test_repr_html_without_pygments_is_escaped_pre(monkeypatch):
    monkeypatch.setitem(sys.modules, "pygments", None)             # import pygments raises ImportError
    markup = grad(f)._repr_html_()
    assert "<span" not in markup and "<pre>" in markup
    assert "&lt;" in markup and "x < 1.0" not in markup
    assert grad(f).source in _text(markup)


def test_show_prints_outside_a_notebook_and_does_not_import_ipython(monkeypatch, capsys):
    monkeypatch.delitem(sys.modules, "IPython", raising=False)
    f.show()
    assert capsys.readouterr().out == f.source
    assert "IPython" not in sys.modules


def _fake_ipython(monkeypatch, shell_class):
    shown = []
    ipython = types.ModuleType("IPython")
    ipython.get_ipython = lambda: type(shell_class, (), {})()
    display = types.ModuleType("IPython.display")
    display.HTML = lambda data: ("HTML", data)
    display.display = shown.append
    ipython.display = display
    monkeypatch.setitem(sys.modules, "IPython", ipython)
    monkeypatch.setitem(sys.modules, "IPython.display", display)
    return shown


def test_show_displays_html_in_a_notebook(monkeypatch, capsys):
    shown = _fake_ipython(monkeypatch, "ZMQInteractiveShell")
    f.show()
    f.show(np.ones(2))
    assert capsys.readouterr().out == ""
    assert [kind for kind, _ in shown] == ["HTML", "HTML"]
    assert f.source in _text(shown[0][1])


def test_show_prints_in_a_terminal_ipython(monkeypatch, capsys):
    shown = _fake_ipython(monkeypatch, "TerminalInteractiveShell")
    f.show()
    assert shown == [] and capsys.readouterr().out == f.source
