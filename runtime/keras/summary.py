"""``model.summary()``: the Keras 3 table (box-drawing borders, ``Total params: 151 (604.00 B)``)."""

import numpy as np

_WIDTHS = (33, 24, 15)


def _readable_size(nbytes):
    size = float(nbytes)
    for unit in ("B", "KB", "MB", "GB", "TB"):
        if size < 1024 or unit == "TB":
            return f"{size:.2f} {unit}"
        size /= 1024


def _count(variables):
    n = int(sum(np.size(v._value) for v in variables))
    nbytes = int(sum(np.size(v._value) * v._value.dtype.itemsize for v in variables))
    return n, nbytes


def _wrap(text, width):
    """Split ``name (Type)`` over lines when it is wider than the column."""
    if len(text) <= width:
        return [text]
    if " (" in text:
        name, kind = text.split(" (", 1)
        return _wrap(name, width) + _wrap("(" + kind, width)
    return [text[i:i + width] for i in range(0, len(text), width)]


def _shape_text(layer):
    shape = getattr(layer, "_output_shape", None)
    if shape is None:
        return "?"
    return str(tuple(shape))


def format_summary(model, line_length=None):
    w1, w2, w3 = _WIDTHS
    if line_length and line_length > sum(_WIDTHS) + 4:
        extra = line_length - (sum(_WIDTHS) + 4)
        w1 += extra // 2
        w2 += extra - extra // 2
    lines = [f'Model: "{model.name}"']
    lines.append("┏" + "━" * w1 + "┳" + "━" * w2 + "┳" + "━" * w3 + "┓")
    lines.append("┃ " + "Layer (type)".ljust(w1 - 2) + " ┃ " + "Output Shape".ljust(w2 - 2) + " ┃ "
                 + "Param #".rjust(w3 - 2) + " ┃")
    lines.append("┡" + "━" * w1 + "╇" + "━" * w2 + "╇" + "━" * w3 + "┩")
    rows = []
    built = model.built
    for layer in model._summary_layers():
        label = f"{layer.name} ({type(layer).__name__})"
        params = f"{layer.count_params():,}" if layer.built else "0 (unbuilt)"
        rows.append((_wrap(label, w1 - 2), _shape_text(layer), params))
    for i, (label, shape, params) in enumerate(rows):
        for j, part in enumerate(label):
            lines.append("│ " + part.ljust(w1 - 2) + " │ " + (shape if j == 0 else "").ljust(w2 - 2) + " │ "
                         + (params if j == 0 else "").rjust(w3 - 2) + " │")
        if i < len(rows) - 1:
            lines.append("├" + "─" * w1 + "┼" + "─" * w2 + "┼" + "─" * w3 + "┤")
    lines.append("└" + "─" * w1 + "┴" + "─" * w2 + "┴" + "─" * w3 + "┘")
    total, total_b = _count(model.weights)
    train, train_b = _count(model.trainable_weights)
    non, non_b = _count(model.non_trainable_weights)
    if not built and total == 0:
        lines.append(" Total params: 0 (unbuilt)")
        lines.append(" Trainable params: 0 (unbuilt)")
        lines.append(" Non-trainable params: 0 (unbuilt)")
        return "\n".join(lines)
    optimizer = getattr(model, "optimizer", None)
    opt_vars = optimizer.variables if optimizer is not None and optimizer._tracked else []
    opt, opt_b = _count(opt_vars)
    lines.append(f" Total params: {total + opt:,} ({_readable_size(total_b + opt_b)})")
    lines.append(f" Trainable params: {train:,} ({_readable_size(train_b)})")
    lines.append(f" Non-trainable params: {non:,} ({_readable_size(non_b)})")
    if opt_vars:
        lines.append(f" Optimizer params: {opt:,} ({_readable_size(opt_b)})")
    return "\n".join(lines)
