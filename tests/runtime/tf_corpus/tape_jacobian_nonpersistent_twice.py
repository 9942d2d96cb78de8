import tensorflow as tf

x = tf.constant([1.0, 2.0])
with tf.GradientTape() as tape:
    tape.watch(x)
    y = x * x
print(tape.jacobian(y, x))
try:
    tape.jacobian(y, x)
except Exception as e:
    print(type(e).__name__)
