import tensorflow as tf

w = tf.Variable([0.0, 0.0])
opt = tf.keras.optimizers.SGD(learning_rate=1.0, clipnorm=1.0)
opt.apply_gradients([(tf.constant([3.0, 4.0]), w)])
print(w.numpy())
