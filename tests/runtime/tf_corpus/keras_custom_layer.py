import tensorflow as tf

class Scale(tf.keras.layers.Layer):
    def build(self, input_shape):
        self.s = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="s")

    def call(self, x):
        return x * self.s

layer = Scale()
x = tf.constant([[1.0, 2.0]])
with tf.GradientTape() as tape:
    y = tf.reduce_sum(layer(x) ** 2)
print(tape.gradient(y, layer.s))
print(layer.name, layer.s.name)
