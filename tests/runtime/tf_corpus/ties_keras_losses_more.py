import tensorflow as tf
from tensorflow import keras

# the other keras losses at their kinks and clipped bounds: the loss and its gradient w.r.t. y_pred
def show(name, loss, y_true, y_pred):
    y_pred = tf.constant(y_pred)
    with tf.GradientTape() as tape:
        tape.watch(y_pred)
        value = loss(tf.constant(y_true), y_pred)
    g = tape.gradient(value, y_pred)
    print(name, round(float(value), 5), None if g is None else (g.numpy().round(5) + 0.0).tolist())

L = keras.losses
# hinges exactly at the margin (1 - y * p == 0), and with 0/1 labels converted to -1/1
show("Hinge at margin", L.Hinge(), [[1.0, -1.0, 1.0]], [[1.0, -1.0, 0.5]])
show("Hinge 0/1 labels", L.Hinge(), [[1.0, 0.0]], [[1.0, 0.0]])
show("SquaredHinge at margin", L.SquaredHinge(), [[1.0, -1.0, 1.0]], [[1.0, -1.0, 0.0]])
show("CategoricalHinge tie", L.CategoricalHinge(), [[0.0, 1.0, 0.0]], [[0.5, 1.5, 0.5]])
show("CategoricalHinge margin", L.CategoricalHinge(), [[0.0, 1.0, 0.0]], [[1.0, 2.0, 0.0]])
# percentage and log errors at zero error, zero labels and zero predictions
show("MAPE", L.MeanAbsolutePercentageError(), [[1.0, 2.0, 0.0]], [[1.0, 1.5, 0.5]])
show("MSLE", L.MeanSquaredLogarithmicError(), [[0.0, 1.0, 2.0]], [[0.0, 1.0, 1.0]])
show("LogCosh", L.LogCosh(), [[0.0, 1.0, 2.0]], [[0.0, 1.5, -1.0]])
# clipped probabilities at 0 and 1
show("KLDivergence", L.KLDivergence(), [[0.0, 0.5, 0.5]], [[0.2, 0.5, 0.3]])
show("KLDivergence at 0 and 1", L.KLDivergence(), [[1.0, 0.0]], [[1.0, 0.0]])
show("Poisson", L.Poisson(), [[1.0, 0.0, 2.0]], [[1.0, 0.5, 2.0]])
show("CosineSimilarity", L.CosineSimilarity(), [[1.0, 0.0], [0.0, 2.0]], [[1.0, 1.0], [0.0, 3.0]])
show("CosineSimilarity axis 0", L.CosineSimilarity(axis=0), [[1.0, 0.0], [0.5, 2.0]], [[1.0, 1.0], [0.0, 3.0]])
# focal losses at logit 0 and probabilities at the clip bounds
show("BinaryFocalCrossentropy logits 0", L.BinaryFocalCrossentropy(from_logits=True), [[1.0], [0.0]], [[0.0], [0.0]])
show("BinaryFocalCrossentropy probs", L.BinaryFocalCrossentropy(gamma=1.5), [[1.0, 0.0, 1.0]], [[0.5, 0.25, 1.0]])
show("BinaryFocalCrossentropy balanced", L.BinaryFocalCrossentropy(apply_class_balancing=True, alpha=0.3, label_smoothing=0.1), [[1.0, 0.0]], [[0.7, 0.2]])
show("CategoricalFocalCrossentropy logits 0", L.CategoricalFocalCrossentropy(from_logits=True), [[0.0, 1.0, 0.0]], [[0.0, 0.0, 0.0]])
show("CategoricalFocalCrossentropy probs", L.CategoricalFocalCrossentropy(alpha=0.5, gamma=1.0, label_smoothing=0.2), [[0.0, 1.0]], [[0.25, 0.75]])
# the function forms and names
show("mape fn", lambda t, p: tf.reduce_mean(keras.losses.mape(t, p)), [[2.0, 4.0]], [[1.0, 4.0]])
show("msle fn", lambda t, p: tf.reduce_mean(keras.losses.msle(t, p)), [[2.0, 4.0]], [[1.0, 4.0]])
show("kld fn", lambda t, p: tf.reduce_mean(keras.losses.kld(t, p)), [[0.5, 0.5]], [[0.25, 0.75]])
show("get('poisson')", lambda t, p: tf.reduce_mean(keras.losses.get("poisson")(t, p)), [[1.0]], [[2.0]])
