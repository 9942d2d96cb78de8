import tensorflow as tf

init = tf.constant_initializer([[1.0, 2.0], [3.0, 4.0]])
print(init(shape=(2, 2)))
print(tf.constant_initializer(3.0)(shape=(3,)))
print(tf.keras.initializers.Constant(2.0)(shape=(2,)))
print(tf.keras.initializers.Zeros()(shape=(2, 1)))
print(tf.keras.initializers.Ones()(shape=(1, 2)))
print(tf.zeros_initializer()(shape=(2,)))
print(tf.ones_initializer()(shape=(2,)))
