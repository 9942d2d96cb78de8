import tensorflow as tf

data = tf.constant([1.0, 2.0, 3.0, 4.0])
ids = tf.constant([0, 2, 2, 0])
print(tf.math.unsorted_segment_sum(data, ids, 4))
print(tf.math.unsorted_segment_max(data, ids, 4))
print(tf.math.unsorted_segment_min(data, ids, 4))
print(tf.math.unsorted_segment_mean(data, ids, 4))
print(tf.math.segment_max(tf.constant([1, 5, 2]), tf.constant([0, 0, 2])))
