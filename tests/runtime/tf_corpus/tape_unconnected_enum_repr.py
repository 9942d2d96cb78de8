import tensorflow as tf

print(tf.UnconnectedGradients.ZERO)
print(tf.UnconnectedGradients.NONE)
print(tf.UnconnectedGradients("zero") is tf.UnconnectedGradients.ZERO)
