import tensorflow as tf

a = tf.Variable(1.0, name="w")
b = tf.Variable(2.0, name="w")
with tf.name_scope("layer"):
    c = tf.Variable(3.0, name="w")
    with tf.name_scope("inner"):
        d = tf.Variable(4.0)
with tf.name_scope("layer"):
    e = tf.Variable(5.0, name="w")
print([v.name for v in (a, b, c, d, e)])
