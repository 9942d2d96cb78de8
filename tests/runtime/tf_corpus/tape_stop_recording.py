import tensorflow as tf

x = tf.Variable(2.0)
with tf.GradientTape() as tape:
    y = x * x
    with tape.stop_recording():
        z = x * x * x
    w = y + z
print(tape.gradient(w, x))
