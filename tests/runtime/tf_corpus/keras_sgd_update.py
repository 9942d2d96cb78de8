import tensorflow as tf

w = tf.Variable([1.0, 2.0])
opt = tf.keras.optimizers.SGD(learning_rate=0.1)
for _ in range(3):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(w * w)
    opt.apply_gradients([(tape.gradient(loss, w), w)])
    print(w.numpy())
print(int(opt.iterations))
