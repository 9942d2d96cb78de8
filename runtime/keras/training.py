"""``compile`` / ``fit`` / ``evaluate`` / ``predict``, built on ``GradientTape``.

One training step is exactly the custom loop users write::

    with tf.GradientTape() as tape:
        y_pred = model(x, training=True)
        loss = loss_fn(y, y_pred) (+ sum(model.losses))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))

so a hand-written loop over the same batches gives the same weights.  The per-epoch log line
is Keras 3's (``32/32 ━━━━━━━━━━━━━━━━━━━━ 0s 2ms/step - loss: 0.1234``); the loss shown is the
batch-size-weighted mean over the epoch.
"""

import math
import sys
import time
import warnings

import numpy as np

from . import backend, losses as losses_mod, metrics as metrics_mod, optimizers as optimizers_mod
from ..engine.tape import GradientTape
from ..engine.tensor import _TensorBase


class History:
    """What ``fit`` returns: ``history.history['loss']`` is the per-epoch loss."""

    def __init__(self):
        self.history = {}
        self.epoch = []
        self.params = {}
        self.model = None


# --- data ------------------------------------------------------------------------------

def _as_arrays(x):
    if x is None:
        return None
    if isinstance(x, (list, tuple)) and x and all(
            isinstance(e, (np.ndarray, _TensorBase)) and np.ndim(e) >= 1 for e in x):
        return [np.asarray(backend.to_numpy(e)) for e in x]  # several inputs
    if isinstance(x, dict):
        raise TypeError("dict inputs are not supported by this Keras subset with arrays; pass arrays, "
                        "or a tf.data.Dataset whose elements are (dict, y) tuples.")
    return np.asarray(backend.to_numpy(x))


def _is_dataset(x):
    """Whether ``x`` is a ``tf.data.Dataset`` (without importing tf.data when it was never used)."""
    data = sys.modules.get(__name__.rsplit(".", 2)[0] + ".data")
    return data is not None and isinstance(x, data.Dataset)


def _unpack(element):
    """A dataset element as Keras 3 reads it: ``(x,)``, ``(x, y)``, ``(x, y, sample_weight)``, or ``x``."""
    if isinstance(element, tuple) and not hasattr(element, "_fields"):
        if not 1 <= len(element) <= 3:
            raise ValueError("Data is expected to be in format `x`, `(x,)`, `(x, y)`, or "
                             f"`(x, y, sample_weight)`, found a tuple of {len(element)} elements.")
        return tuple(element) + (None,) * (3 - len(element))
    return element, None, None


class _DatasetBatches:
    """The batches of one epoch after another from a dataset, as Keras 3's ``EpochIterator``: with
    ``steps_per_epoch`` the iterator carries over between epochs (restarting once exhausted)."""

    def __init__(self, dataset, steps_per_epoch=None, what="fit"):
        known = int(dataset.cardinality())
        if known == -1 and not steps_per_epoch:  # tf.data.INFINITE_CARDINALITY
            raise ValueError(f"The dataset is infinite (it repeats forever): pass `steps_per_epoch` "
                             f"(`steps` for evaluate/predict) to `{what}()`, or call `.take(n)` on it.")
        self.dataset, self.steps_per_epoch, self.iterator = dataset, steps_per_epoch, None
        self.steps = steps_per_epoch or (known if known >= 0 else None)

    def epoch(self):
        if self.iterator is None or not self.steps_per_epoch:
            self.iterator = iter(self.dataset)
        step = 0
        while self.steps is None or step < self.steps:
            try:
                element = next(self.iterator)
            except StopIteration:
                self.iterator = None
                if self.steps_per_epoch:
                    warnings.warn("Your input ran out of data; interrupting training. Make sure that your "
                                  "dataset or generator can generate at least `steps_per_epoch * epochs` "
                                  "batches. You may need to use the `.repeat()` function when building "
                                  "your dataset.", stacklevel=3)
                return
            step += 1
            yield _unpack(element)


def _array_batches(x, y, sw, batch_size, shuffle, steps):
    n = _num_samples(x)
    order = backend.rng().permutation(n) if shuffle else None
    for step, idx in enumerate(_batches(n, batch_size, order)):
        if steps is not None and step >= steps:
            break
        yield _take(x, idx), _take(y, idx), None if sw is None else sw[idx]


def _num_samples(x):
    return len(x[0]) if isinstance(x, list) else len(x)


def _batch_size_of(x):
    """The number of samples in one batch of inputs (arrays, tensors, a list or dict of them)."""
    if isinstance(x, dict):
        x = next(iter(x.values()))
    if isinstance(x, (list, tuple)):
        x = x[0]
    return int(x.shape[0])


def _take(x, idx):
    if x is None:
        return None
    if isinstance(x, list):
        return [e[idx] for e in x]
    return x[idx]


def _batches(n, batch_size, order):
    for start in range(0, n, batch_size):
        yield order[start:start + batch_size] if order is not None else slice(start, start + batch_size)


# --- progress --------------------------------------------------------------------------

def _format_value(v):
    return f"{v:.4f}" if abs(v) > 1e-3 else f"{v:.4e}"


def _format_time(seconds_per_step):
    if seconds_per_step >= 1 or seconds_per_step == 0:
        return f"{seconds_per_step:.0f}s/step"
    if seconds_per_step >= 1e-3:
        return f"{seconds_per_step * 1e3:.0f}ms/step"
    return f"{seconds_per_step * 1e6:.0f}us/step"


def progress_line(steps, elapsed, logs, verbose=1):
    """The line Keras 3 prints when an epoch (or evaluate / predict) finishes."""
    per_step = elapsed / max(steps, 1)
    values = "".join(f" - {k}: {_format_value(float(v))}" for k, v in sorted(logs.items()))
    if verbose == 2:
        return f"{steps}/{steps} - {elapsed:.0f}s - {_format_time(per_step)}{values}"
    return f"{steps}/{steps} " + "━" * 20 + f" {elapsed:.0f}s {_format_time(per_step)}{values}"


def _verbosity(verbose):
    return 1 if verbose == "auto" else int(verbose)


# --- the mixin -------------------------------------------------------------------------

class TrainingMixin:
    def _init_training(self):
        d = self.__dict__
        d["optimizer"] = None
        d["_compiled"] = False
        d["_compiled_loss"] = None
        d["_compiled_metrics"] = []
        d["_keras_loss_tracker"] = metrics_mod.Mean(name="loss")
        d["history"] = None
        d["stop_training"] = False

    def compile(self, optimizer="rmsprop", loss=None, loss_weights=None, metrics=None,
                weighted_metrics=None, run_eagerly=False, steps_per_execution=1, jit_compile="auto",
                auto_scale_loss=True):
        d = self.__dict__
        d["optimizer"] = optimizers_mod.get(optimizer)
        loss_fn = losses_mod.get(loss)
        if loss_fn is not None and not isinstance(loss_fn, losses_mod.Loss):
            loss_fn = losses_mod.LossFunctionWrapper(loss_fn, name=getattr(loss_fn, "__name__", "loss"))
        d["_compiled_loss"] = loss_fn
        out_shape = getattr(self, "_output_shape", None)
        d["_compiled_metrics"] = [metrics_mod.get(m, loss=loss if loss is not None else loss_fn,
                                                  output_shape=out_shape) for m in (metrics or [])]
        d["_compiled"] = True

    @property
    def metrics(self):
        return [self._keras_loss_tracker] + list(self._compiled_metrics) if self._compiled else []

    def reset_metrics(self):
        for m in self.metrics:
            m.reset_state()

    def _check_compiled(self, what):
        if not self._compiled:
            raise RuntimeError(f"You must call `compile()` before using the model ({what}).")

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        """The compiled loss plus every loss added by layers (weight regularizers, add_loss)."""
        total = None
        if self._compiled_loss is not None:
            total = self._compiled_loss(y, y_pred, sample_weight=sample_weight)
        extra = self.losses
        if extra:
            reg = extra[0]
            for e in extra[1:]:
                reg = reg + e
            total = reg if total is None else total + reg
        if total is None:
            raise ValueError("No loss to compute. Provide a `loss` argument in `compile()`.")
        return total

    # --- steps -------------------------------------------------------------------------
    def train_step(self, x, y, sample_weight=None):
        with GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(x, y, y_pred, sample_weight)
        variables = self.trainable_variables
        grads = tape.gradient(loss, variables)
        self.optimizer.apply_gradients(zip(grads, variables))
        self._update_metrics(loss, x, y, y_pred, sample_weight)

    def test_step(self, x, y, sample_weight=None):
        y_pred = self(x, training=False)
        loss = self.compute_loss(x, y, y_pred, sample_weight, training=False)
        self._update_metrics(loss, x, y, y_pred, sample_weight)

    def _update_metrics(self, loss, x, y, y_pred, sample_weight):
        n = _batch_size_of(x)
        self._keras_loss_tracker.update_state(loss, sample_weight=n)
        for m in self._compiled_metrics:
            m.update_state(y, y_pred, sample_weight=sample_weight)

    def _logs(self, prefix=""):
        return {prefix + m.name: float(m.result()._value) for m in self.metrics}

    # --- loops -------------------------------------------------------------------------
    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None,
            validation_split=0.0, validation_data=None, shuffle=True, class_weight=None,
            sample_weight=None, initial_epoch=0, steps_per_epoch=None, validation_steps=None,
            validation_batch_size=None, validation_freq=1):
        self._check_compiled("fit")
        verbose = _verbosity(verbose)
        if _is_dataset(x):
            if validation_split:
                raise ValueError("`validation_split` is only supported for Tensors or NumPy arrays, "
                                 "found a tf.data.Dataset: pass `validation_data` instead.")
            if shuffle:
                warnings.warn("`shuffle=True` was passed, but will be ignored since the data `x` was "
                              "provided as a tf.data.Dataset. The Dataset is expected to already be "
                              "shuffled (via `.shuffle(buffer_size)`).", stacklevel=2)
            source = _DatasetBatches(x, steps_per_epoch)
            steps, epoch_batches = source.steps, source.epoch
        else:
            x, y = _as_arrays(x), _as_arrays(y)
            sw = None if sample_weight is None else np.asarray(backend.to_numpy(sample_weight))
            if validation_data is None and validation_split:
                n = _num_samples(x)
                split = int(math.floor(n * (1.0 - validation_split)))
                validation_data = (_take(x, slice(split, None)), _take(y, slice(split, None)))
                x, y = _take(x, slice(0, split)), _take(y, slice(0, split))
                sw = None if sw is None else sw[:split]
            batch_size = batch_size or 32
            steps = math.ceil(_num_samples(x) / batch_size)
            if steps_per_epoch:
                steps = min(steps, steps_per_epoch)

            def epoch_batches():
                return _array_batches(x, y, sw, batch_size, shuffle, steps)
        history = History()
        history.params = {"verbose": verbose, "epochs": epochs, "steps": steps}
        history.model = self
        self.__dict__["stop_training"] = False
        for cb in callbacks or ():
            getattr(cb, "set_model", lambda m: None)(self)
            getattr(cb, "on_train_begin", lambda logs=None: None)()
        for epoch in range(initial_epoch, epochs):
            self.reset_metrics()
            if verbose:
                print(f"Epoch {epoch + 1}/{epochs}")
            start = time.perf_counter()
            done = 0
            for xb, yb, swb in epoch_batches():
                self.train_step(xb, yb, swb)
                done += 1
            logs = self._logs()
            if validation_data is not None and (epoch + 1) % validation_freq == 0:
                logs.update(self._validation_logs(validation_data, validation_batch_size or batch_size,
                                                  validation_steps))
            logs = dict(sorted(logs.items()))  # Keras 3 sorts the logs by name
            elapsed = time.perf_counter() - start
            if verbose:
                print(progress_line(steps or done, elapsed, logs, verbose))
                sys.stdout.flush()
            history.epoch.append(epoch)
            for k, v in logs.items():
                history.history.setdefault(k, []).append(v)
            for cb in callbacks or ():
                getattr(cb, "on_epoch_end", lambda e, logs=None: None)(epoch, logs)
            if self.stop_training:
                break
        for cb in callbacks or ():
            getattr(cb, "on_train_end", lambda logs=None: None)()
        self.__dict__["history"] = history
        return history

    def _validation_logs(self, data, batch_size, steps):
        if _is_dataset(data):
            return self._evaluate_logs(data, None, batch_size, steps=steps, prefix="val_")[0]
        vsw = data[2] if len(data) > 2 else None
        return self._evaluate_logs(data[0], data[1], batch_size, vsw, steps=steps, prefix="val_")[0]

    def _evaluate_logs(self, x, y, batch_size, sample_weight=None, steps=None, prefix=""):
        """Run ``test_step`` over the data; the logs and the number of steps run."""
        if _is_dataset(x):
            batches = _DatasetBatches(x, steps, "evaluate").epoch()
        else:
            x, y = _as_arrays(x), _as_arrays(y)
            sw = None if sample_weight is None else np.asarray(backend.to_numpy(sample_weight))
            batches = _array_batches(x, y, sw, batch_size or 32, False, steps)
        self.reset_metrics()
        done = 0
        for xb, yb, swb in batches:
            self.test_step(xb, yb, swb)
            done += 1
        return self._logs(prefix), done

    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None, steps=None,
                 callbacks=None, return_dict=False, **kwargs):
        self._check_compiled("evaluate")
        verbose = _verbosity(verbose)
        start = time.perf_counter()
        logs, done = self._evaluate_logs(x, y, batch_size, sample_weight, steps)
        if verbose:
            print(progress_line(done, time.perf_counter() - start, logs, verbose))
        if return_dict:
            return dict(sorted(logs.items()))  # Keras 3 sorts the logs by name
        values = [logs[m.name] for m in self.metrics]
        return values[0] if len(values) == 1 else values

    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        verbose = _verbosity(verbose)
        if _is_dataset(x):
            batches = (b[0] for b in _DatasetBatches(x, steps, "predict").epoch())
        else:
            batches = (b[0] for b in _array_batches(_as_arrays(x), None, None, batch_size or 32, False, steps))
        start = time.perf_counter()
        outs = [self(xb, training=False) for xb in batches]
        if verbose:
            print(progress_line(len(outs), time.perf_counter() - start, {}, verbose))
        if outs and isinstance(outs[0], (list, tuple)):
            return [np.concatenate([backend.to_numpy(o[i]) for o in outs]) for i in range(len(outs[0]))]
        return np.concatenate([backend.to_numpy(o) for o in outs]) if outs else np.zeros((0,))

    def train_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        self._check_compiled("train_on_batch")
        self.reset_metrics()
        self.train_step(_as_arrays(x), _as_arrays(y), sample_weight)
        logs = self._logs()
        return logs if return_dict else (logs["loss"] if len(logs) == 1 else list(logs.values()))

    def test_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        self._check_compiled("test_on_batch")
        self.reset_metrics()
        self.test_step(_as_arrays(x), _as_arrays(y), sample_weight)
        logs = self._logs()
        return logs if return_dict else (logs["loss"] if len(logs) == 1 else list(logs.values()))

    def predict_on_batch(self, x):
        return backend.to_numpy(self(_as_arrays(x), training=False))
