import tensorflow as tf

class Inner(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([1.0, 2.0], name="w")

class Outer(tf.Module):
    def __init__(self):
        super().__init__()
        self.inner = Inner()
        self.b = tf.Variable(0.0, name="b")

o = Outer()
print([v.name for v in o.trainable_variables])
print(len(o.submodules))
print(o.inner.name, o.name)
