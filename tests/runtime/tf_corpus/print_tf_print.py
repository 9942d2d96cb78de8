import tensorflow as tf
import sys

tf.print(tf.constant([1.0, 2.5]), output_stream=sys.stdout)
tf.print("x =", tf.constant(3), output_stream=sys.stdout)
tf.print(tf.range(10), output_stream=sys.stdout)
tf.print(tf.constant([[1, 2], [3, 4]]), output_stream=sys.stdout)
tf.print(tf.constant(1.0) / 3.0, output_stream=sys.stdout)
