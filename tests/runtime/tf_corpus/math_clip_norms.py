import tensorflow as tf

t = tf.constant([3.0, 4.0])
print(tf.clip_by_norm(t, 1.0))
print(tf.clip_by_norm(t, 10.0))
clipped, norm = tf.clip_by_global_norm([t, tf.constant([0.0, 12.0])], 6.5)
print(clipped, norm)
print(tf.linalg.global_norm([t]))
