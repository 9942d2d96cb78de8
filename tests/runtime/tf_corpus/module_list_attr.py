import tensorflow as tf

class M(tf.Module):
    def __init__(self):
        super().__init__()
        self.layers = [tf.Variable(float(i), name=f"v{i}") for i in range(3)]
        self.table = {"b": tf.Variable(5.0, name="tb"), "a": tf.Variable(6.0, name="ta")}

m = M()
print([v.name for v in m.trainable_variables])
