"""transpiler.distributed on a real LocalCluster with two worker processes.

Every result is compared with the single-process gradient of the same loss on the same rows
(to 1e-10 relative), and the plain sum once with central finite differences as well.
"""


import importlib.util
import os

import numpy as np
import pytest

dask = pytest.importorskip("dask")      # the [distributed] extra (CI installs every extra: nothing skips there)
pytest.importorskip("distributed")

import dask.array as da  # noqa: E402
from distributed import Client, LocalCluster  # noqa: E402

from tests.distributed import losses  # noqa: E402
from tests.fd import numeric_grad  # noqa: E402
from transpiler import differentiate, distributed, value_and_grad  # noqa: E402

ADJOIN = ("transpiler", "runtime", "astor")


@pytest.fixture(scope="module")
def client():
    cluster = LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=None)
    c = Client(cluster)
    yield c
    c.close()
    cluster.close()


def rows(n=1003, d=4, seed=0):
    rng = np.random.default_rng(seed)
    X = rng.normal(size=(n, d))
    y = (rng.uniform(size=n) < 0.5).astype(np.float64)
    return X, y


def assert_same(got, want, what="gradient"):
    """Same structure, every leaf equal to 1e-10 relative."""
    assert type(got) is type(want) or not isinstance(want, (dict, list, tuple)), f"{what}: {type(got)}"
    if isinstance(want, dict):
        assert list(got) == list(want), what
        for k in want:
            assert_same(got[k], want[k], f"{what}[{k!r}]")
    elif isinstance(want, (list, tuple)):
        assert len(got) == len(want), what
        for i, (g, w) in enumerate(zip(got, want)):
            assert_same(g, w, f"{what}[{i}]")
    else:
        assert np.shape(got) == np.shape(want), what
        np.testing.assert_allclose(got, want, rtol=1e-10, atol=1e-300, err_msg=what)


def test_sum_matches_single_process_and_finite_differences(client):
    X, y = rows()
    w, b = np.array([0.3, -0.2, 0.1, 0.5]), 0.25
    value, g = distributed.value_and_grad(losses.squared_error)(
        w, b, da.from_array(X, chunks=(250, 4)), da.from_array(y, chunks=250))
    want_value, want_g = value_and_grad(losses.squared_error)(w, b, X, y)
    assert_same(value, want_value, "value")
    assert_same(g, want_g)
    np.testing.assert_allclose(g, numeric_grad(lambda v: losses.squared_error(v, b, X, y), w), rtol=1e-6)


def test_mean_with_uneven_last_block_and_two_parameters(client):
    X, y = rows(1003)                     # blocks of 200, the last one has 3 rows
    w, b = np.array([0.3, -0.2, 0.1, 0.5]), 0.25
    f = distributed.value_and_grad(losses.cross_entropy, wrt=(0, 1), reduction="mean")
    Xd, yd = da.from_array(X, chunks=(200, 4)), da.from_array(y, chunks=200)
    assert Xd.chunks[0][-1] == 3
    value, (gw, gb) = f(w, b, Xd, yd)
    want_value, (want_w, want_b) = value_and_grad(losses.cross_entropy, wrt=(0, 1))(w, b, X, y)
    assert_same(value, want_value, "value")
    assert_same(gw, want_w, "dw")
    assert_same(gb, want_b, "db")


def test_dict_parameters(client):
    X, y = rows(901, 3)
    rng = np.random.default_rng(1)
    params = {"W1": rng.normal(size=(3, 5)), "b1": rng.normal(size=5), "w2": rng.normal(size=5), "b2": 0.1}
    value, g = distributed.value_and_grad(losses.dict_loss, reduction="mean")(
        params, da.from_array(X, chunks=(300, 3)), da.from_array(y, chunks=300))
    want_value, want_g = value_and_grad(losses.dict_loss)(params, X, y)
    assert_same(value, want_value, "value")
    assert_same(g, want_g)


@pytest.mark.parametrize("container", [list, tuple])
def test_list_and_tuple_parameters(client, container):
    X, y = rows(640, 3)
    rng = np.random.default_rng(2)
    layers = container([rng.normal(size=(3, 4)), rng.normal(size=(4, 4)), rng.normal(size=4)])
    g = distributed.grad(losses.list_loss)(layers, da.from_array(X, chunks=(100, 3)),
                                           da.from_array(y, chunks=100))
    assert_same(g, value_and_grad(losses.list_loss)(layers, X, y)[1])


def test_loop_with_a_callee(client):
    X, y = rows(555, 3)
    W = np.random.default_rng(3).normal(size=(3, 3)) * 0.3
    value, g = distributed.value_and_grad(losses.loop_loss)(W, da.from_array(X, chunks=(100, 3)),
                                                          da.from_array(y, chunks=100), steps=4)
    want_value, want_g = value_and_grad(losses.loop_loss)(W, X, y, steps=4)
    assert_same(value, want_value, "value")
    assert_same(g, want_g)


def test_numpy_data_one_block_and_mixed_with_dask(client):
    X, y = rows(400)
    w, b = np.array([0.3, -0.2, 0.1, 0.5]), 0.25
    f = distributed.value_and_grad(losses.cross_entropy, reduction="mean")
    want_value, want_g = value_and_grad(losses.cross_entropy)(w, b, X, y)
    for X_in, y_in in [(X, y), (da.from_array(X, chunks=(150, 4)), y)]:
        value, g = f(w, b, X_in, y_in)
        assert_same(value, want_value, "value")
        assert_same(g, want_g)


def test_keyword_data_a_decorated_loss_and_wrt_by_name(client):
    X, y = rows(300)
    w, b = np.array([0.3, -0.2, 0.1, 0.5]), 0.25
    decorated = differentiate(losses.squared_error, wrt="b")
    f = distributed.grad(decorated, wrt="b")
    Xd, yd = da.from_array(X, chunks=(100, 4)), da.from_array(y, chunks=100)
    with pytest.raises(ValueError, match=r"`X` has 300 .*`w` has 4; to send `w` whole to every block "
                                         r"instead, name the data arguments: data=\('X', 'y'\)"):
        f(w, b, y=yd, X=Xd)                # w, not differentiated, is taken for data by default
    g = distributed.grad(decorated, wrt="b", data=("X", 3))(w, b, y=yd, X=Xd)
    assert_same(g, decorated.grad(w, b, X, y))
    with pytest.raises(ValueError, match="no data argument"):
        distributed.grad(losses.squared_error)(w, b, [1.0], 2.0)


def test_without_a_client_dask_local_scheduler(client):
    X, y = rows(300)
    w, b = np.array([0.3, -0.2, 0.1, 0.5]), 0.25
    with dask.config.set(scheduler="threads"):
        value, g = distributed.value_and_grad(losses.squared_error)(
            w, b, da.from_array(X, chunks=(100, 4)), da.from_array(y, chunks=100))
    want_value, want_g = value_and_grad(losses.squared_error)(w, b, X, y)
    assert_same(value, want_value, "value")
    assert_same(g, want_g)


# Evaluated on each worker by the builtin eval: a probe function defined here would be pickled by
# reference, and unpickling it would import this test module, and adjoin with it, on the worker.
MODULES = ("sorted(m for m in __import__('sys').modules if m.split('.')[0] in "
           "('transpiler', 'runtime', 'astor') or m.startswith('adjoin_generated_'))")


def test_workers_never_import_adjoin(client):
    """The gradient reaches the workers as standalone source: they import numpy, not adjoin."""
    f = distributed.grad(losses.squared_error, wrt=(0, 1))     # a gradient no other test runs
    name = f.module()[0]
    before = client.run(eval, MODULES)
    assert len(before) == 2
    for worker, mods in before.items():
        assert not [m for m in mods if m.split(".")[0] in ADJOIN or m == name], (worker, mods)
    X, y = rows(800)
    Xd, yd = dask.persist(da.from_array(X, chunks=(100, 4)), da.from_array(y, chunks=100))
    f(np.zeros(4), 0.5, Xd, yd)
    after = client.run(eval, MODULES)
    for worker, mods in after.items():
        assert not [m for m in mods if m.split(".")[0] in ADJOIN], (worker, mods)
        assert name in mods, (worker, mods)     # both workers ran blocks (each holds some of the 8)


def test_different_row_chunks_are_refused(client):
    X, y = rows(400)
    f = distributed.grad(losses.squared_error)
    with pytest.raises(ValueError, match=r"`X` \(100, 100, 100, 100\).*`y` \(200, 200\)"):
        f(np.zeros(4), 0.0, da.from_array(X, chunks=(100, 4)), da.from_array(y, chunks=200))


def test_chunks_along_another_axis_are_refused(client):
    X, y = rows(400)
    with pytest.raises(ValueError, match=r"`X` is chunked along axis 1.*rechunk"):
        distributed.grad(losses.squared_error)(np.zeros(4), 0.0, da.from_array(X, chunks=(100, 2)),
                                               da.from_array(y, chunks=100))


def test_numpy_data_of_another_length_is_refused(client):
    X, y = rows(400)
    with pytest.raises(ValueError, match=r"`X` has 400 .*`y` has 399"):
        distributed.grad(losses.squared_error)(np.zeros(4), 0.0, da.from_array(X, chunks=(100, 4)), y[:-1])
    with pytest.raises(ValueError, match=r"`X` has 400 .*`y` has 399"):
        distributed.grad(losses.squared_error)(np.zeros(4), 0.0, X, y[:-1])


def test_bad_parameters_and_reduction_are_refused(client):
    X, y = rows(100)
    with pytest.raises(ValueError, match="reduction='max'"):
        distributed.grad(losses.squared_error, reduction="max")
    with pytest.raises(TypeError, match="`w` is a dask array"):
        distributed.grad(losses.squared_error)(da.zeros(4), 0.0, X, y)


def test_a_worker_error_keeps_its_type_and_names_the_block(client):
    X = np.abs(rows(500)[0])
    X[333] = -1.0                          # row 333 is in block 3 of 5 (rows 300..399)
    with pytest.raises(AssertionError, match=r"negative rows \[in block 3 of 5\]"):
        distributed.grad(losses.checked_loss)(np.ones(4), da.from_array(X, chunks=(100, 4)))


def test_the_training_example_runs(client, capsys):
    """examples/distributed_training.py on fewer rows: the loss starts at log 2 (zero weights) and falls."""
    path = os.path.join(os.path.dirname(__file__), "..", "..", "examples", "distributed_training.py")
    spec = importlib.util.spec_from_file_location("distributed_training_example", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    losses_seen = example.train(client, rows=40_000, steps=4, blocks=5)
    assert abs(losses_seen[0] - np.log(2.0)) < 1e-12
    assert all(b < a for a, b in zip(losses_seen, losses_seen[1:])), losses_seen
    assert "adjoin modules imported on the workers: none" in capsys.readouterr().out
