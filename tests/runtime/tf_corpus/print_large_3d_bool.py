import tensorflow as tf

x = tf.reshape(tf.range(-1200, 1200), [20, 12, 10])
print(x)
b = tf.range(1500) % 3 == 0
print(b)
