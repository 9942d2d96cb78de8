import tensorflow as tf

t = tf.constant([[1, 2], [3, 4]])
print(len(t), [r for r in t])
print(bool(tf.constant(True)), bool(tf.constant([5])))
try:
    bool(tf.constant([1, 2]))
except Exception as e:
    print(type(e).__name__)
print(int(tf.constant(7)), float(tf.constant(2.5)), tf.constant(3).__index__())
print(list(range(10))[tf.constant(2):tf.constant(5)])
print(t.shape, t.shape[0], t.shape.as_list(), t.shape.rank, t.ndim)
print(tf.TensorShape([None, 3]), tf.TensorShape([2, 3]).num_elements(), tf.TensorShape([None, 3]).is_fully_defined())
