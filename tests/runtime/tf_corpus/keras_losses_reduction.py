import tensorflow as tf

y_true = tf.constant([[1.0], [0.0], [1.0]])
y_pred = tf.constant([[0.5], [0.5], [1.0]])
print(tf.keras.losses.MeanSquaredError(reduction="sum")(y_true, y_pred))
print(tf.keras.losses.MeanSquaredError(reduction=None)(y_true, y_pred))
print(tf.keras.losses.MeanAbsoluteError()(y_true, y_pred))
