import numpy as np
import tensorflow as tf

x = np.linspace(-1.0, 1.0, 8, dtype=np.float32).reshape(8, 1)
y = 3.0 * x - 0.5
w = tf.Variable([[0.5]])
b = tf.Variable([0.0])
ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(3)
for epoch in range(3):
    for xb, yb in ds:
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(xb, w) + b - yb))
        gw, gb = tape.gradient(loss, [w, b])
        w.assign_sub(0.1 * gw)
        b.assign_sub(0.1 * gb)
    print(epoch, w.numpy(), b.numpy(), loss.numpy())
