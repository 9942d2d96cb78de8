import tensorflow as tf

x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = x ** 3
print(tape.gradient(y, x))
try:
    tape.gradient(y, x)
except Exception as e:
    print(type(e).__name__)
