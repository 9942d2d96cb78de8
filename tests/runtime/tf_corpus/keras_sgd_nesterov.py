import tensorflow as tf

w = tf.Variable([1.0, 2.0])
opt = tf.keras.optimizers.SGD(learning_rate=0.1, momentum=0.5, nesterov=True)
for _ in range(3):
    opt.apply_gradients([(tf.constant([1.0, -2.0]), w)])
    print(w.numpy())
