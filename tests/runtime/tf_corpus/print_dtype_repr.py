import tensorflow as tf

print(repr(tf.float32), repr(tf.int64), repr(tf.bool), repr(tf.string))
print(str(tf.float32), str(tf.float16))
print(tf.float32)
print([tf.float32, tf.int32])
print(tf.float32.name, tf.float64.is_floating, tf.int32.is_integer)
print(tf.constant(1.0).dtype == tf.float32)
