import tensorflow as tf

x = tf.Variable([[1.0, 1.0, 3.0], [0.0, 0.0, 0.0]])
with tf.GradientTape(persistent=True) as tape:
    m0 = tf.reduce_min(x, axis=1)
    m1 = tf.reduce_max(x)
    m2 = tf.reduce_max(x, axis=0, keepdims=True)
print(tape.gradient(m0, x))
print(tape.gradient(m1, x))
print(tape.gradient(m2, x))
print(m2)
