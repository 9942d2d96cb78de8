import tensorflow as tf

y_true = tf.constant([[0.0, 1.0], [2.0, 3.0]])
y_pred = tf.constant([[0.5, 1.0], [0.0, 5.0]])
print(tf.keras.losses.Huber(delta=1.0)(y_true, y_pred))
print(tf.keras.losses.Huber(reduction="none")(y_true, y_pred))
print(tf.keras.losses.MeanAbsoluteError(reduction="sum")(y_true, y_pred))
print(tf.keras.losses.MeanSquaredError(reduction="none")(y_true, y_pred))
print(tf.keras.losses.MeanSquaredError()(y_true, y_pred, sample_weight=tf.constant([1.0, 0.0])))
