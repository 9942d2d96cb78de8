import tensorflow as tf

print(tf.round(tf.constant([0.5, 1.5, 2.5, -0.5, -1.5, 2.4])))
print(tf.math.rint(tf.constant([0.5, 1.5])))
