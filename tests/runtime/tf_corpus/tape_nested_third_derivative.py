import tensorflow as tf

x = tf.constant(0.5)
with tf.GradientTape() as t3:
    t3.watch(x)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = tf.sin(x) * x
        g1 = t1.gradient(y, x)
    g2 = t2.gradient(g1, x)
g3 = t3.gradient(g2, x)
print(g1.numpy(), g2.numpy(), g3.numpy())
