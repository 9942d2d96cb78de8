import tensorflow as tf

data = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
print(tf.math.segment_sum(data, [0, 0, 1]))
print(tf.math.unsorted_segment_sum(data, [1, 0, 1], num_segments=3))
print(tf.math.segment_mean(data, [0, 1, 1]))
print(tf.math.unsorted_segment_max(tf.constant([1.0, 5.0, 3.0]), [0, 0, 1], 2))
