import tensorflow as tf

t = tf.constant([1.0, 2.0])
try:
    {t: 1}
except Exception as e:
    print(type(e).__name__)
try:
    bool(t)
except Exception as e:
    print(type(e).__name__)
print(bool(tf.constant(0.0)), bool(tf.constant([3])))
d = {t.ref(): "x"}
print(d[t.ref()])
