"""The interop examples and benchmark run and agree with their tape-only counterparts."""

import importlib.util
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]


def load(rel):
    spec = importlib.util.spec_from_file_location(rel.replace("/", "_")[:-3], ROOT / rel)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def test_training_example(capsys):
    l1, l2 = load("examples/interop_training.py").main(["--epochs", "2"])
    assert l1 == l2 and l1[-1][1] < l1[0][1] * 1.5
    assert "ops recorded for one forward of the transpiled model: 1" in capsys.readouterr().out


def test_physics_example(capsys):
    params = load("examples/interop_physics.py").main(["--steps", "300"])
    assert abs(float(params[0].numpy()) - 0.8) < 0.01
    assert "ops recorded for one energy evaluation: 1" in capsys.readouterr().out


def test_benchmark_runs():
    ratios = load("benchmarks/interop.py").main(["--ops", "100", "--repeat", "3", "--sizes", "scalar,16"])
    assert set(ratios) == {"scalar", "16"} and all(r > 0 for r in ratios.values())
