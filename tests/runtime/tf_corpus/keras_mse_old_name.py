import tensorflow as tf

y_true = tf.constant([1.0, 2.0])
y_pred = tf.constant([1.5, 1.0])
print(tf.keras.losses.MSE(y_true, y_pred))
print(tf.keras.losses.MeanSquaredError(reduction="sum")(y_true, y_pred))
