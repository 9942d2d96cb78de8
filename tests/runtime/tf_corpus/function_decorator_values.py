import tensorflow as tf

@tf.function
def f(x):
    return x * x + 1.0

print(f(tf.constant(2.0)))
x = tf.Variable(3.0)
with tf.GradientTape() as tape:
    y = f(x)
print(tape.gradient(y, x))
print(tf.executing_eagerly())
