import tensorflow as tf

init = tf.keras.initializers.GlorotUniform(seed=1)
w = init(shape=(3, 4))
print(w.shape, w.dtype)
limit = (6.0 / (3 + 4)) ** 0.5
print(bool(tf.reduce_all(tf.abs(w) <= limit)))
