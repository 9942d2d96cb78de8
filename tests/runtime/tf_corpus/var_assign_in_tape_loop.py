import tensorflow as tf

w = tf.Variable([0.5, -0.5])
for step in range(3):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum((w - tf.constant([1.0, 1.0])) ** 2)
    g = tape.gradient(loss, w)
    w.assign_sub(0.25 * g)
    print(step, loss.numpy(), w.numpy())
