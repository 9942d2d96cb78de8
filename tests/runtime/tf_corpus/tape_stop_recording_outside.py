import tensorflow as tf

tape = tf.GradientTape()
try:
    with tape.stop_recording():
        pass
except Exception as e:
    print(type(e).__name__)
