import tensorflow as tf

a = tf.keras.layers.Dense(1)
b = tf.keras.layers.Dense(1)
c = tf.keras.layers.Dense(1, name="head")
print(a.name, b.name, c.name)
a.build((None, 3))
print([w.name for w in a.weights])
print([w.shape for w in a.weights])
