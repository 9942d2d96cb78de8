# tf.nn.depthwise_conv2d and separable_conv2d: values and gradients wrt input and filters
# (small integer values, so float32 sums are exact whatever the order)
import tensorflow as tf

x = tf.reshape(tf.range(2 * 4 * 5 * 2, dtype=tf.float32) % 7 - 3, (2, 4, 5, 2))
w = tf.reshape(tf.range(3 * 2 * 2 * 2, dtype=tf.float32) % 5 - 2, (3, 2, 2, 2))
pw = tf.reshape(tf.range(4 * 3, dtype=tf.float32) % 3 - 1, (1, 1, 4, 3))
for strides, padding, dilations in [([1, 1, 1, 1], "SAME", None), ([1, 2, 2, 1], "VALID", None),
                                    ([1, 1, 2, 1], "SAME", None), ([1, 1, 1, 1], "SAME", [2, 1]),
                                    ([1, 1, 1, 1], [[0, 0], [1, 0], [0, 2], [0, 0]], None)]:
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, w, pw])
        y = tf.nn.depthwise_conv2d(x, w, strides, padding, dilations=dilations)
        z = tf.nn.separable_conv2d(x, w, pw, strides, padding, dilations=dilations)
        weights = tf.reshape(tf.range(tf.size(y)) % 4 - 1, tf.shape(y))
        loss = tf.reduce_sum(y * tf.cast(weights, tf.float32))
        loss2 = tf.reduce_sum(z * z)
    print(strides, padding, dilations, y.shape)
    print(y[0, :, :, 1])
    print(tape.gradient(loss, x)[1, :, :, 0])
    print(tape.gradient(loss, w)[:, :, 1, :])
    print(z.shape, tf.reduce_sum(z))
    print(tape.gradient(loss2, pw)[0, 0])
