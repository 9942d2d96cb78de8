import tensorflow as tf

# Without experimental_enable_numpy_behavior() a tensor has none of the ndarray methods, and operators
# refuse to mix dtypes.
t = tf.constant([[1.0, 2.0], [3.0, 4.0]])
for name in ["reshape", "ravel", "flatten", "transpose", "astype", "clip", "max", "min", "mean", "size",
             "data", "tolist", "sum", "dot", "squeeze", "prod", "item"]:
    print(name, hasattr(t, name))
try:
    print(t + tf.constant([[1, 2], [3, 4]]))
except Exception as e:
    print("float32 + int32:", type(e).__name__)
