import tensorflow as tf

data = tf.constant([1.0, 2.0, 3.0, 4.0])
with tf.GradientTape() as tape:
    tape.watch(data)
    s = tf.math.unsorted_segment_sum(data, [1, 0, 1, 1], num_segments=2)
    y = tf.reduce_sum(s * tf.constant([10.0, 100.0]))
print(s)
print(tape.gradient(y, data))
