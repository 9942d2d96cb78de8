import tensorflow as tf

w = tf.Variable(2.0)
b = tf.Variable(1.0)
with tf.GradientTape() as tape:
    y = w * 3.0 + b
grads = tape.gradient(y, {"w": w, "b": b})
print(sorted(grads))
print(grads["w"], grads["b"])
