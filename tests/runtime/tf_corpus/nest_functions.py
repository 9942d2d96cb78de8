import tensorflow as tf

s = {"b": [1, 2], "a": (3, {"c": 4})}
print(tf.nest.flatten(s))
print(tf.nest.map_structure(lambda v: v * 10, s))
print(tf.nest.pack_sequence_as(s, [9, 8, 7, 6]))
print(tf.nest.is_nested([1]), tf.nest.is_nested(1))
