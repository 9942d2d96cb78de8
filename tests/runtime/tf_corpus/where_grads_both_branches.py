import tensorflow as tf

x = tf.Variable([-1.0, 0.0, 2.0])
y = tf.Variable([5.0, 6.0, 7.0])
with tf.GradientTape(persistent=True) as tape:
    w = tf.where(x > 0.0, x * y, y - x)
    s = tf.where([True, False, True], x, 0.0)
print(w, s)
print(tape.gradient(w, [x, y]))
print(tape.gradient(s, x))
print(tf.where(tf.constant([[True, False], [False, True]])))
