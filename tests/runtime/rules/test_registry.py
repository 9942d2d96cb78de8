"""The registry's lazy families: ``index.py`` agrees with what the families register, so a lookup
imports the right family and no rule is missed."""

import importlib
import sys

import numpy as np

from runtime.rules import __main__ as rules_main
from runtime.rules import index, load_all, lookup, registry

PACKAGE = "runtime.rules."


def _resolve(name):
    module, _, path = name.partition(":")
    obj = sys.modules.get(module) or importlib.import_module(module)
    for part in path.split("."):
        obj = getattr(obj, part, None)
    return obj


def test_index_names_the_family_of_every_rule():
    """A callable registered by a family is either defined in that family's module (importing it to
    reach the callable registers the rule) or listed under that family in the index."""
    load_all()
    listed = {}
    for family, names in index.CALLABLES.items():
        for name in names:
            obj = _resolve(name)
            if obj is not None:
                listed[obj] = PACKAGE + family
    missing = []
    for fn, family in registry.REGISTERED_IN.items():
        if family is None or not family.startswith(PACKAGE):
            continue
        name = rules_main.qualified(fn)
        if name is not None and name.partition(":")[0] == family:
            continue
        if listed.get(fn) != family:
            missing.append(f"{name or fn!r} (registered in {family}, index says {listed.get(fn)})")
    assert not missing, "run `python -m runtime.rules --index`: " + "; ".join(sorted(missing))


def test_index_lists_only_registered_callables():
    load_all()
    wrong = []
    for family, names in index.CALLABLES.items():
        for name in names:
            obj = _resolve(name)
            if obj is not None and registry.REGISTERED_IN.get(obj) != PACKAGE + family:
                wrong.append(f"{name} under {family} (registered in {registry.REGISTERED_IN.get(obj)})")
    assert not wrong, "run `python -m runtime.rules --index`: " + "; ".join(wrong)


def test_index_is_what_the_command_writes():
    """Regenerating changes nothing (the entries of other Python and numpy versions are kept)."""
    text = rules_main.index_source(index.CALLABLES)
    with open(index.__file__, encoding="utf-8") as f:
        assert f.read() == text, "run `python -m runtime.rules --index`"


def test_every_family_is_loaded_by_load_all():
    load_all()
    registering = {f for f in registry.REGISTERED_IN.values() if f and f.startswith(PACKAGE)}
    families = {PACKAGE + f for f in registry.FAMILIES}
    outside = sorted(f for f in registering if f not in families and f.rsplit(".", 1)[0] not in families)
    assert not outside, f"modules registering rules missing from registry.FAMILIES: {outside}"


def test_lookup_of_an_unknown_callable_is_none():
    assert lookup(lambda x: x) is None
    assert lookup(np.ndarray.copy) is None or lookup(np.ndarray.copy).fn is not None
    assert lookup([]) is None          # unhashable


LIGHT = """
import json, sys, types
import numpy as np
package = types.ModuleType("runtime")      # runtime.rules alone, without the tf namespace above it
package.__path__ = [{root!r} + "/runtime"]
sys.modules["runtime"] = package
import runtime.rules as rules
loaded = lambda: sorted(m for m in sys.modules if m.startswith("runtime.rules."))
after_import = loaded()
rule = rules.lookup(np.sin)
print(json.dumps([after_import, loaded(), rule.name]))
"""


def test_importing_the_rules_loads_no_family_and_a_lookup_loads_its_own():
    import json
    import os
    import subprocess
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    out = subprocess.run([sys.executable, "-c", LIGHT.format(root=root)], capture_output=True, text=True,
                         check=True, cwd=root).stdout
    after_import, after_lookup, name = json.loads(out)
    assert after_import == ["runtime.rules.registry"]
    assert name == "np.sin" and "runtime.rules.trig" in after_lookup
    assert not any(m.startswith(("runtime.rules.linalg", "runtime.rules.fft", "runtime.rules.containers"))
                   for m in after_lookup)


THREADS = """
import math, sys, threading, types
import numpy as np
package = types.ModuleType("runtime")
package.__path__ = [{root!r} + "/runtime"]
sys.modules["runtime"] = package
import runtime.rules as rules
fns = [np.sin, math.sin, np.linalg.inv, np.fft.fft, np.sum, np.concatenate, np.maximum, abs] * 4
found = [None] * len(fns)
barrier = threading.Barrier(len(fns))
def look(i):
    barrier.wait()
    found[i] = rules.lookup(fns[i])
threads = [threading.Thread(target=look, args=(i,)) for i in range(len(fns))]
for t in threads: t.start()
for t in threads: t.join()
print(sum(r is None for r in found))
"""


def test_lookups_from_many_threads_find_their_families():
    import os
    import subprocess
    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))
    out = subprocess.run([sys.executable, "-c", THREADS.format(root=root)], capture_output=True, text=True,
                         check=True, cwd=root).stdout
    assert out.strip() == "0"
