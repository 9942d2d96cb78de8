import threading
import tensorflow as tf

x = tf.Variable(3.0)
results = {}


def worker():
    # a tape recording in the main thread does not see this thread's ops
    results["y"] = x * x


with tf.GradientTape(persistent=True) as tape:
    t = threading.Thread(target=worker)
    t.start()
    t.join()
    z = x * 2.0
print(tape.gradient(results["y"], x), tape.gradient(z, x))


def own_tape():
    with tf.GradientTape() as inner:
        y = x * x * x
    results["g"] = inner.gradient(y, x)


t = threading.Thread(target=own_tape)
t.start()
t.join()
print(results["g"])
