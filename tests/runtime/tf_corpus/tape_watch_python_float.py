import tensorflow as tf

with tf.GradientTape() as tape:
    try:
        tape.watch(3.0)
    except Exception as e:
        print(type(e).__name__)
