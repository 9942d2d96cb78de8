import tensorflow as tf

a = tf.constant([[1.0, 2.0], [3.0, 4.0]])
b = tf.constant([[0.5], [1.0]])
print(tf.matmul(a, b))
print(a @ a)
print(tf.matmul(a, a, transpose_b=True))
print(tf.linalg.matmul(tf.constant([[1, 2]]), tf.constant([[3], [4]])))
print(tf.tensordot(a, a, axes=1))
print(tf.einsum("ij,j->i", a, tf.constant([1.0, -1.0])))
