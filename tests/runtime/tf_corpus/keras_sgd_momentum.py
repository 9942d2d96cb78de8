import tensorflow as tf

w = tf.Variable([1.0, -1.0])
opt = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.9)
for _ in range(3):
    opt.apply_gradients([(tf.constant([1.0, 0.5]), w)])
    print(w.numpy())
