import tensorflow as tf

y_true = tf.constant([[0.0, 1.0], [1.0, 0.0]])
y_pred = tf.constant([[0.2, 0.8], [0.6, 0.4]])
print(tf.keras.losses.MeanSquaredError()(y_true, y_pred))
print(tf.keras.losses.mse(y_true, y_pred))
print(tf.keras.losses.MeanAbsoluteError()(y_true, y_pred))
print(tf.keras.losses.BinaryCrossentropy()(y_true, y_pred))
print(tf.keras.losses.CategoricalCrossentropy()(y_true, y_pred))
