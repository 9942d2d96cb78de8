import tensorflow as tf

class Lazy(tf.Module):
    def __init__(self):
        super().__init__(name="lazy")
        self.w = None

    @tf.Module.with_name_scope
    def __call__(self, x):
        if self.w is None:
            self.w = tf.Variable(tf.ones([x.shape[-1], 1]), name="w")
        return tf.matmul(x, self.w)

m = Lazy()
print(m(tf.constant([[1.0, 2.0]])))
print(m.w.name)
print(len(m.trainable_variables))
