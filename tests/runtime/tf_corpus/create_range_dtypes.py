import tensorflow as tf

for args in [(5,), (8.0,), (1, 4), (0, 5, 0.5), (0.0, 1.0, 0.25), (10, 0, -3)]:
    r = tf.range(*args)
    print(args, r.dtype, r.numpy())
