import tensorflow as tf

w = tf.Variable([1.0, 2.0])
b = tf.Variable(0.5)
with tf.GradientTape() as tape:
    y = tf.reduce_sum(w * w) + b * b
g = tape.gradient(y, [(w, b), [b]])
print(g)
