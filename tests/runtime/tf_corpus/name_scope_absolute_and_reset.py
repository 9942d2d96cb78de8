import tensorflow as tf

with tf.name_scope("a"):
    with tf.name_scope("b/"):
        x = tf.Variable(1.0, name="x")
    with tf.name_scope("c") as scope:
        y = tf.Variable(1.0)
        print(scope)
print(x.name, y.name)
