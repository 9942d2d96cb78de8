import tensorflow as tf

a = tf.Variable([[1.0, 0.0]])
b = tf.Variable(0.5)
opt = tf.keras.optimizers.Adam(learning_rate=0.1)
for _ in range(2):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(a * a) + b * b * 4.0
    grads = tape.gradient(loss, [a, b])
    opt.apply_gradients(zip(grads, [a, b]))
print(a.numpy(), b.numpy())
print(int(opt.iterations))
