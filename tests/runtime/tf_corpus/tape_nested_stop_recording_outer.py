import tensorflow as tf

x = tf.Variable(1.5)
with tf.GradientTape() as outer:
    with tf.GradientTape() as inner:
        y = x * x
    with outer.stop_recording():
        g = inner.gradient(y, x)
print(g)
print(outer.gradient(g, x))
