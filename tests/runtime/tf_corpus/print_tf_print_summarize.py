import sys
import tensorflow as tf

x = tf.range(20)
tf.print(x, summarize=2, output_stream=sys.stdout)
tf.print(x, summarize=-1, output_stream=sys.stdout)
tf.print(tf.reshape(tf.range(36.0), [6, 6]), output_stream=sys.stdout)
tf.print({"a": tf.constant(1.5)}, [tf.constant(True)], output_stream=sys.stdout)
tf.print("a", "b", sep="-", end="!\n", output_stream=sys.stdout)
