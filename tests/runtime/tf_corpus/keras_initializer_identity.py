import tensorflow as tf

print(tf.keras.initializers.Identity()(shape=(2, 3)))
print(tf.keras.initializers.get("zeros")(shape=(2,)))
print(type(tf.keras.initializers.get("ones")).__name__)
