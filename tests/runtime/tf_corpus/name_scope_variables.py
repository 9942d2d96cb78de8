import tensorflow as tf

with tf.name_scope("outer"):
    a = tf.Variable(1.0, name="a")
    with tf.name_scope("inner"):
        b = tf.Variable(2.0, name="b")
c = tf.Variable(3.0, name="c")
print(a.name, b.name, c.name)
