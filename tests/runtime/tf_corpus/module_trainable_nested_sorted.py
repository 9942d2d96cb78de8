import tensorflow as tf


class Inner(tf.Module):
    def __init__(self):
        super().__init__()
        self.zeta = tf.Variable(1.0, name="zeta")
        self.alpha = tf.Variable(2.0, name="alpha", trainable=False)


class Outer(tf.Module):
    def __init__(self):
        super().__init__(name="outer")
        self.m = Inner()
        self.b = tf.Variable([1.0, 2.0], name="b")
        self.a_list = [tf.Variable(3.0, name="l0"), tf.Variable(4.0, name="l1")]
        self.d = {"y": tf.Variable(5.0, name="dy"), "x": tf.Variable(6.0, name="dx")}


o = Outer()
print([v.name for v in o.trainable_variables])
print([v.name for v in o.variables])
print([type(s).__name__ for s in o.submodules])
print(o.name, o.name_scope.name)
