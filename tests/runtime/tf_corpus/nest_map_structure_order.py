import tensorflow as tf

s = {"b": [1, 2], "a": (3, {"d": 4, "c": 5})}
print(tf.nest.flatten(s))
print(tf.nest.map_structure(lambda v: v * 10, s))
print(tf.nest.pack_sequence_as({"y": 0, "x": [0, 0]}, [1, 2, 3]))
try:
    tf.nest.assert_same_structure([1, 2], [1, [2]])
except Exception as e:
    print(type(e).__name__)
