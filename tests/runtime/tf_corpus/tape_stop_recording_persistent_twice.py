import tensorflow as tf

x = tf.constant(2.0)
with tf.GradientTape(persistent=True) as tape:
    tape.watch(x)
    with tape.stop_recording():
        a = x * x
    b = x * 3.0
    with tape.stop_recording():
        c = b * b
    d = a + b + c
print(tape.gradient(d, x))
print(tape.gradient(b, x))
print(tape.gradient(c, x))
