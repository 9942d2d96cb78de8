import tensorflow as tf

a = tf.Variable([1.0, 2.0])
b = tf.Variable([1.0, 2.0])
rms = tf.keras.optimizers.RMSprop(learning_rate=0.01)
ada = tf.keras.optimizers.Adagrad(learning_rate=0.1)
for _ in range(2):
    rms.apply_gradients([(tf.constant([0.5, -1.0]), a)])
    ada.apply_gradients([(tf.constant([0.5, -1.0]), b)])
print(a.numpy())
print(b.numpy())
