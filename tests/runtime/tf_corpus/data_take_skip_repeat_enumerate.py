import tensorflow as tf

ds = tf.data.Dataset.range(5)
print(list(ds.skip(2).take(2).as_numpy_iterator()))
print(list(ds.repeat(2).take(7).as_numpy_iterator()))
print(ds.repeat().cardinality().numpy(), ds.repeat(3).cardinality().numpy(), ds.filter(lambda v: v > 1).cardinality().numpy())
for i, v in ds.enumerate(start=10).take(2):
    print(i, v)
print(list(ds.concatenate(tf.data.Dataset.range(2)).as_numpy_iterator()))
print(ds.reduce(tf.constant(0, tf.int64), lambda s, v: s + v * v))
print(list(tf.data.Dataset.from_tensors([1, 2]).repeat(2).unbatch().as_numpy_iterator()))
