import tensorflow as tf

ds = tf.data.Dataset.range(10).shuffle(4, seed=7).batch(3)
for epoch in range(2):
    print([b.numpy().tolist() for b in ds])
ds2 = tf.data.Dataset.range(10).shuffle(10, seed=1, reshuffle_each_iteration=False).batch(4, drop_remainder=True)
print([b.numpy().tolist() for b in ds2], [b.numpy().tolist() for b in ds2])
print(ds2.cardinality().numpy(), len(ds2))
