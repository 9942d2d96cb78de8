import tensorflow as tf

w = tf.Variable([1.0, 2.0])
opt = tf.keras.optimizers.Adam(learning_rate=0.01)
for _ in range(3):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum((w - 3.0) ** 2)
    grads = tape.gradient(loss, [w])
    opt.apply_gradients(zip(grads, [w]))
    print(w.numpy())
