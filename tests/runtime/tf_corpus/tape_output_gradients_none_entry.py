import tensorflow as tf

x = tf.constant(3.0)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    a = x * 2.0
    b = x * x
try:
    tape.gradient([a, b], x, output_gradients=[None, tf.constant(0.5)])
except Exception as e:
    print(type(e).__name__)
print(tape.gradient([a, b], x, output_gradients=[tf.ones_like(a), tf.constant(0.5)]))
