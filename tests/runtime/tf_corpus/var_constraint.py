import tensorflow as tf

v = tf.Variable([1.0, -2.0], constraint=lambda x: tf.clip_by_value(x, 0.0, 1.0))
print(v.numpy())
print(v.constraint is not None)
v.assign([5.0, -5.0])
print(v.numpy())
