import tensorflow as tf

xs = tf.data.Dataset.from_tensor_slices({"a": [1.0, 2.0, 3.0], "b": [[1, 2], [3, 4], [5, 6]]})
ys = tf.data.Dataset.range(3)
z = tf.data.Dataset.zip((xs, ys)).map(lambda d, y: (d["a"] * 2.0, tf.reduce_sum(d["b"]), y))
print(z.element_spec)
for e in z:
    print(e)
print(z)
print(xs)
