import tensorflow as tf

# cross-entropies at logit exactly 0 and at tied logits
logits = tf.constant([[0.0, 0.0, 0.0], [0.0, 1.0, -1.0]])
labels = tf.constant([[0.0, 1.0, 0.0], [0.5, 0.5, 0.0]])
with tf.GradientTape(persistent=True) as tape:
    tape.watch(logits)
    sig = tf.nn.sigmoid_cross_entropy_with_logits(labels=labels, logits=logits)
    soft = tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits)
    sparse = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=tf.constant([1, 0]), logits=logits)
    weighted = tf.nn.weighted_cross_entropy_with_logits(labels=labels, logits=logits, pos_weight=2.0)
    lsm = tf.nn.log_softmax(logits)
for name, y in [("sigmoid_xent", sig), ("softmax_xent", soft), ("sparse_softmax_xent", sparse),
                ("weighted_xent", weighted), ("log_softmax", lsm)]:
    print(name, y.numpy().round(6).tolist(), (tape.gradient(y, logits).numpy().round(6) + 0.0).tolist())

# a zero-initialised output layer: every logit 0
z = tf.Variable(tf.zeros([4, 1]))
y_true = tf.constant([[1.0], [0.0], [1.0], [1.0]])
with tf.GradientTape() as tape:
    loss = tf.reduce_mean(tf.nn.sigmoid_cross_entropy_with_logits(labels=y_true, logits=z))
print("zero logits", loss.numpy().round(6), tape.gradient(loss, z).numpy().round(6).tolist())
