import tensorflow as tf

x = tf.Variable(1.0)
with tf.GradientTape() as tape:
    y = x * 2.0
try:
    tape.gradient(None, x)
except Exception as e:
    print(type(e).__name__)
