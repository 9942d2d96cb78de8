import tensorflow as tf


def add(state, element):
    return state + element


def to_float(state, element):
    return tf.cast(element, tf.float32)


def helper(a, b):
    c = a + 1.0
    return c * b


@tf.function
def scale(a, b):
    return helper(a, b)


ds = tf.data.Dataset.range(3)
for fn in (add, to_float):
    try:
        ds.reduce(tf.constant(0), fn)
    except Exception as e:
        print(type(e).__name__, str(e).replace(__file__, "PROGRAM"))
try:
    list(ds.map(lambda e: e * tf.constant(2)))
except Exception as e:
    print(type(e).__name__, str(e).replace(__file__, "PROGRAM"))
try:
    scale(tf.constant(1.0), tf.constant(2.0, tf.float64))
except Exception as e:
    print(type(e).__name__, str(e).replace(__file__, "PROGRAM"))
try:
    tf.constant(1.0) * tf.constant(2.0, tf.float64)
except Exception as e:
    print(type(e).__name__)
print(ds.reduce(tf.constant(0, tf.int64), add))
