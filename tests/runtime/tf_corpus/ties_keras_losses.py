import tensorflow as tf
from tensorflow import keras

# every keras loss at its tie points: the loss and its gradient with respect to y_pred
def show(name, loss, y_true, y_pred):
    y_pred = tf.constant(y_pred)
    with tf.GradientTape() as tape:
        tape.watch(y_pred)
        value = loss(tf.constant(y_true), y_pred)
    g = tape.gradient(value, y_pred)
    print(name, round(float(value), 6), None if g is None else (g.numpy().round(6) + 0.0).tolist())

# y_pred equal to y_true (abs / log at 0 error)
same_t, same_p = [[0.0, 1.0], [1.0, 0.5]], [[0.0, 1.0], [1.0, 0.5]]
show("MeanAbsoluteError", keras.losses.MeanAbsoluteError(), same_t, same_p)
show("MeanSquaredError", keras.losses.MeanSquaredError(), same_t, same_p)

# Huber at |error| == delta and at 0
show("Huber", keras.losses.Huber(delta=1.0), [[0.0, 0.0, 0.0]], [[1.0, -1.0, 0.0]])
show("Huber delta 0.5", keras.losses.Huber(delta=0.5), [[1.0, 1.0]], [[1.5, 0.5]])

# cross-entropies at logit exactly 0 (a zero-initialised output layer) and probabilities at 0 and 1
show("BinaryCrossentropy logits 0", keras.losses.BinaryCrossentropy(from_logits=True), [[1.0], [0.0]], [[0.0], [0.0]])
show("BinaryCrossentropy logits mixed", keras.losses.BinaryCrossentropy(from_logits=True), [[1.0, 0.0]], [[0.0, 2.0]])
show("BinaryCrossentropy logits smoothing", keras.losses.BinaryCrossentropy(from_logits=True, label_smoothing=0.2), [[1.0], [0.0]], [[0.0], [0.0]])
show("BinaryCrossentropy probs", keras.losses.BinaryCrossentropy(), [[1.0, 0.0, 1.0]], [[0.5, 0.5, 1.0]])
show("BinaryCrossentropy probs at 0 and 1", keras.losses.BinaryCrossentropy(), [[1.0, 0.0]], [[0.0, 1.0]])
show("CategoricalCrossentropy logits 0", keras.losses.CategoricalCrossentropy(from_logits=True), [[0.0, 1.0, 0.0]], [[0.0, 0.0, 0.0]])
show("CategoricalCrossentropy probs", keras.losses.CategoricalCrossentropy(), [[0.0, 1.0, 0.0]], [[0.25, 0.5, 0.25]])
show("CategoricalCrossentropy probs at 0", keras.losses.CategoricalCrossentropy(), [[0.0, 1.0]], [[1.0, 0.0]])
show("SparseCategoricalCrossentropy logits 0", keras.losses.SparseCategoricalCrossentropy(from_logits=True), [1, 0], [[0.0, 0.0], [0.0, 0.0]])

# the function forms
show("binary_crossentropy fn", lambda t, p: tf.reduce_mean(keras.losses.binary_crossentropy(t, p, from_logits=True)), [[1.0], [0.0]], [[0.0], [0.0]])
show("huber fn", lambda t, p: tf.reduce_mean(keras.losses.huber(t, p, delta=1.0)), [[0.0, 0.0]], [[1.0, -1.0]])
