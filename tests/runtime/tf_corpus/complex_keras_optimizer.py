import tensorflow as tf
from tensorflow import keras

# a Keras optimizer step on a complex variable: descends along TF's gradient
for make in [lambda: keras.optimizers.SGD(learning_rate=0.1), lambda: keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)]:
    z = tf.Variable([1 + 2j, 0.5 - 1j])
    opt = make()
    for step in range(2):
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(tf.math.imag(z) * 3 + tf.math.real(z) * 2)
        g = tape.gradient(loss, z)
        opt.apply_gradients([(g, z)])
        print(type(opt).__name__, step, z.numpy().round(6))

# minimising |z - c|^2 moves z toward c
c = tf.constant([2 - 1j, -1 + 1j], dtype=tf.complex128)
z = tf.Variable([0j, 0j])
opt = keras.optimizers.SGD(learning_rate=0.25)
for step in range(3):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.abs(z - c) ** 2)
    opt.apply_gradients([(tape.gradient(loss, z), z)])
print("towards c", z.numpy().round(6))
