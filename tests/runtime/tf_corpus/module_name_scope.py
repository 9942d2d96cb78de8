import tensorflow as tf

class Scoped(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        with self.name_scope:
            self.k = tf.Variable(1.0, name="k")

s = Scoped(name="scoped")
print(s.k.name)
print(s.name)
print(s.name_scope.name)
