import tensorflow as tf

ws = [tf.Variable(float(i + 1), name=f"w{i}") for i in range(3)]
with tf.GradientTape() as tape:
    y = ws[0] * ws[1] + ws[2] ** 2
print([g.numpy() for g in tape.gradient(y, ws)])
print([v.name for v in tape.watched_variables()])
