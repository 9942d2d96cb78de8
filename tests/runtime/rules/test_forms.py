"""The derivative forms (runtime/rules/forms.py): the rules they make read as hand-written ones, and
what they make is kept beside the bytecode and made again when a source changes."""

import importlib
import inspect
import math
import sys

import numpy as np
import pytest

from runtime.rules import forms, lookup


def _source(fn):
    return inspect.getsource(fn)


def test_elementwise_rules_read_as_written_by_hand():
    rule = lookup(np.sin)
    assert _source(rule.vjp(0)) == "def sin_vjp(g, ans, x):\n    return g * np.cos(x)\n"
    assert _source(rule.jvp(0)) == "def sin_jvp(t, ans, x):\n    return t * np.cos(x)\n"
    assert _source(lookup(np.cos).vjp(0)) == "def cos_vjp(g, ans, x):\n    return -g * np.sin(x)\n"
    assert _source(lookup(np.arctan2).vjp(1)) == \
        "def arctan2_vjp_x(g, ans, y, x):\n    return unbroadcast(-g * y / (x * x + y * y), x)\n"
    assert _source(lookup(np.arctan2).jvp(0)) == \
        "def arctan2_jvp_y(t, ans, y, x):\n    return broadcast_like(t * x / (x * x + y * y), ans)\n"


def test_math_rules_are_the_numpy_derivative_with_math_functions():
    assert _source(lookup(math.sin).vjp(0)) == "def sin_vjp(g, ans, x):\n    return g * math.cos(x)\n"
    assert lookup(math.sin).vjp(0).__module__ == "runtime.rules.pymath"


def test_made_rules_are_functions_of_their_family():
    from runtime.rules import trig
    assert trig.sin_vjp is lookup(np.sin).vjp(0)
    assert trig.sin_vjp.__module__ == "runtime.rules.trig"


def test_jvp_like_reads_the_cotangent_as_the_tangent():
    rule = lookup(np.maximum)
    assert _source(rule.jvp(0)) == \
        "def maximum_jvp_x(t, ans, x, y):\n    return broadcast_like(np.where(x >= y, t, 0.0), ans)\n"


def test_transposes_and_linear():
    assert _source(lookup(np.fft.fftshift).vjp(0)) == \
        "def fftshift_vjp(g, ans, x, axes=None):\n    return np.fft.ifftshift(g, axes=axes)\n"
    assert _source(lookup(np.real).jvp(0)) == "def real_jvp(t, ans, val):\n    return np.real(t)\n"


def test_a_namesake_reads_its_own_librarys_functions():
    sc = pytest.importorskip("scipy.special")
    from runtime.rules import special
    rule = lookup(sc.gammaln).vjp(0)
    assert _source(rule) == "def gammaln_vjp(g, ans, x):\n    return g * digamma(x)\n"
    assert rule.__globals__["digamma"] is sc.digamma            # scipy's, not adjoin's own digamma
    assert lookup(special.lgamma).vjp(0).__globals__["digamma"] is special.digamma
    with pytest.raises(ValueError, match="does not bind"):
        forms.namesake(_plain, special.d_lgamma, "plain")      # this module has no `digamma`


def test_a_derivative_function_is_checked():
    with pytest.raises(TypeError, match=r"takes \(ans, <the primitive's parameters>\)"):
        @forms.elementwise(_plain)
        def d_wrong(x):
            return x


def _plain(x):
    return x


FAMILY = '''
import numpy as np
from runtime.rules.forms import elementwise


def prim(x):
    return np.sin(x)


@elementwise(prim)
def d_prim(ans, x):
    return {derivative}
'''


def test_made_rules_are_kept_and_made_again_when_their_source_changes(tmp_path, monkeypatch):
    monkeypatch.setattr(sys, "dont_write_bytecode", False)
    monkeypatch.syspath_prepend(str(tmp_path))
    made = []
    partials = forms._partials
    monkeypatch.setattr(forms, "_partials", lambda *a, **k: made.append(a) or partials(*a, **k))
    path = tmp_path / "family_kept.py"

    def load(derivative):
        if derivative is not None:
            path.write_text(FAMILY.format(derivative=derivative))
        sys.modules.pop("family_kept", None)
        forms._Made._ALL.pop("family_kept", None)
        importlib.invalidate_caches()
        module = importlib.import_module("family_kept")
        return inspect.getsource(module.prim_vjp)

    assert load("np.cos(x)") == "def prim_vjp(g, ans, x):\n    return g * np.cos(x)\n" and len(made) == 1
    assert list(tmp_path.glob("__pycache__/family_kept.*.made"))
    assert load(None) == "def prim_vjp(g, ans, x):\n    return g * np.cos(x)\n" and len(made) == 1   # kept
    assert load("2.0 * np.cos(x)") == "def prim_vjp(g, ans, x):\n    return g * 2.0 * np.cos(x)\n"
    assert len(made) == 2                                                  # the file changed: made again
    sys.modules.pop("family_kept", None)
