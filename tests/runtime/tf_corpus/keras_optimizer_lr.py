import tensorflow as tf

opt = tf.keras.optimizers.SGD(learning_rate=0.5)
print(float(opt.learning_rate))
opt.learning_rate = 0.25
print(float(opt.learning_rate))
w = tf.Variable(1.0)
opt.apply_gradients([(tf.constant(2.0), w)])
print(w.numpy())
