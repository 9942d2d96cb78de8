import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(1, kernel_initializer="ones")])
x = tf.constant([[1.0, 2.0]])
with tf.GradientTape() as tape:
    loss = tf.reduce_sum(model(x) ** 2)
grads = tape.gradient(loss, model.trainable_variables)
print([g.numpy().tolist() for g in grads])
