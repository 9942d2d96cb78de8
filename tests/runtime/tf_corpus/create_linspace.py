import tensorflow as tf

print(tf.linspace(0.0, 1.0, 5))
print(tf.linspace(0, 10, 4))
print(tf.linspace(tf.constant(1.0, tf.float64), 2.0, 3))
print(tf.linspace(-1.0, 1.0, 1))
