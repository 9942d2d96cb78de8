import tensorflow as tf

model = tf.keras.Sequential([tf.keras.layers.Dense(3), tf.keras.layers.Dense(1)])
model.build((None, 2))
print([w.path for w in model.weights])
print([w.name for w in model.trainable_variables])
print([l.name for l in model.layers])
