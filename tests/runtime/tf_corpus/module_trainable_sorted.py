import tensorflow as tf

class M(tf.Module):
    def __init__(self):
        super().__init__()
        self.zeta = tf.Variable(1.0, name="zeta")
        self.alpha = tf.Variable(2.0, name="alpha")
        self.frozen = tf.Variable(3.0, trainable=False, name="frozen")

m = M()
print([v.name for v in m.trainable_variables])
print([v.name for v in m.variables])
print(m.name)
