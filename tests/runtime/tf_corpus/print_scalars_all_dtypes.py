import tensorflow as tf

for dt in [tf.float16, tf.float32, tf.float64, tf.int8, tf.int16, tf.int32, tf.int64, tf.uint8, tf.bool]:
    t = tf.cast(tf.constant(1.0), dt)
    print(t)
    print(repr(t))
