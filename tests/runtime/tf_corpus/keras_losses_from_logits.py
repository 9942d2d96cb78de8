import tensorflow as tf

logits = tf.constant([[0.0, 0.0], [2.0, -1.0]])
print(tf.keras.losses.BinaryCrossentropy(from_logits=True)(tf.constant([[1.0, 0.0], [1.0, 1.0]]), logits))
print(tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)(tf.constant([0, 1]), logits))
print(tf.keras.losses.CategoricalCrossentropy(from_logits=True)(tf.constant([[0.0, 1.0], [1.0, 0.0]]), logits))
