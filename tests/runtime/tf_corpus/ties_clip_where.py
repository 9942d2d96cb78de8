import tensorflow as tf

# clip_by_value exactly at its bounds, and the gradient to the bounds
x = tf.constant([-1.0, 0.0, 0.5, 1.0, 2.0])
lo = tf.constant(0.0)
hi = tf.constant(1.0)
with tf.GradientTape(persistent=True) as tape:
    tape.watch([x, lo, hi])
    y = tf.clip_by_value(x, lo, hi)
print("clip", y.numpy().tolist())
print("clip dx", tape.gradient(y, x).numpy().tolist())
print("clip dlo dhi", tape.gradient(y, [lo, hi]))

# tensor bounds, elementwise
lo_v = tf.constant([0.0, 0.0, 0.5, 0.0, 0.5])
with tf.GradientTape(persistent=True) as tape:
    tape.watch([x, lo_v])
    y = tf.clip_by_value(x, lo_v, 1.0)
print("clip tensor bounds dx", tape.gradient(y, x).numpy().tolist())
print("clip tensor bounds dlo", tape.gradient(y, lo_v))

# tf.where: gradient to each branch, condition from a tie
a = tf.constant([1.0, 2.0, 3.0])
b = tf.constant([2.0, 2.0, 2.0])
with tf.GradientTape(persistent=True) as tape:
    tape.watch([a, b])
    y = tf.where(a >= b, a * 3.0, b * 5.0)
    z = tf.where(a > b, a * 3.0, b * 5.0)
print("where >=", tape.gradient(y, [a, b]))
print("where >", tape.gradient(z, [a, b]))
