"""Snippets from TensorFlow's guides ("Introduction to gradients and automatic differentiation",
"Advanced automatic differentiation") run unchanged with ``import runtime as tf`` and print
what the guides show TensorFlow printing."""

import textwrap

import pytest

SNIPPETS = {
    "persistent_tape": (
        """
        x = tf.constant([1, 3.0])
        with tf.GradientTape(persistent=True) as tape:
          tape.watch(x)
          y = x * x
          z = y * y
        print(tape.gradient(z, x).numpy())
        print(tape.gradient(y, x).numpy())
        """,
        "[  4. 108.]\n[2. 6.]\n"),
    "what_is_watched": (
        """
        x0 = tf.Variable(3.0, name='x0')
        x1 = tf.Variable(3.0, name='x1', trainable=False)
        x2 = tf.Variable(2.0, name='x2') + 1.0
        x3 = tf.constant(3.0, name='x3')
        with tf.GradientTape() as tape:
          y = (x0**2) + (x1**2) + (x2**2)
        grad = tape.gradient(y, [x0, x1, x2, x3])
        for g in grad:
          print(g)
        print([var.name for var in tape.watched_variables()])
        """,
        "tf.Tensor(6.0, shape=(), dtype=float32)\nNone\nNone\nNone\n['x0:0']\n"),
    "control_flow": (
        """
        x = tf.constant(1.0)
        v0 = tf.Variable(2.0)
        v1 = tf.Variable(2.0)
        with tf.GradientTape(persistent=True) as tape:
          tape.watch(x)
          if x > 0.0:
            result = v0
          else:
            result = v1**2
        dv0, dv1 = tape.gradient(result, [v0, v1])
        print(dv0)
        print(dv1)
        print(tape.gradient(result, x))
        """,
        "tf.Tensor(1.0, shape=(), dtype=float32)\nNone\nNone\n"),
    "unconnected_zero": (
        """
        x = tf.Variable([2., 2.])
        y = tf.Variable(3.)
        with tf.GradientTape() as tape:
          z = y**2
        print(tape.gradient(z, x, unconnected_gradients=tf.UnconnectedGradients.ZERO))
        """,
        "tf.Tensor([0. 0.], shape=(2,), dtype=float32)\n"),
    "stop_recording_and_stop_gradient": (
        """
        x = tf.Variable(2.0)
        y = tf.Variable(3.0)
        with tf.GradientTape() as t:
          x_sq = x * x
          with t.stop_recording():
            y_sq = y * y
          z = x_sq + y_sq
        grad = t.gradient(z, {'x': x, 'y': y})
        print('dz/dx:', grad['x'])
        print('dz/dy:', grad['y'])
        with tf.GradientTape() as t:
          y_sq = y * y
          z = x * x + tf.stop_gradient(y_sq)
        grad = t.gradient(z, {'x': x, 'y': y})
        print('dz/dy:', grad['y'])
        """,
        "dz/dx: tf.Tensor(4.0, shape=(), dtype=float32)\ndz/dy: None\ndz/dy: None\n"),
    "custom_gradient_clip": (
        """
        @tf.custom_gradient
        def clip_gradients(y):
          def backward(dy):
            return tf.clip_by_norm(dy, 0.5)
          return y, backward
        v = tf.Variable(2.0)
        with tf.GradientTape() as t:
          output = clip_gradients(v * v)
        print(t.gradient(output, v))
        """,
        "tf.Tensor(2.0, shape=(), dtype=float32)\n"),
    "multiple_tapes": (
        """
        x0 = tf.constant(0.0)
        x1 = tf.constant(0.0)
        with tf.GradientTape() as tape0, tf.GradientTape() as tape1:
          tape0.watch(x0)
          tape1.watch(x1)
          y0 = tf.math.sin(x0)
          y1 = tf.nn.sigmoid(x1)
          y = y0 + y1
          ys = tf.reduce_sum(y)
        print(tape0.gradient(ys, x0).numpy())
        print(tape1.gradient(ys, x1).numpy())
        """,
        "1.0\n0.25\n"),
    "higher_order": (
        """
        x = tf.Variable(1.0)
        with tf.GradientTape() as t2:
          with tf.GradientTape() as t1:
            y = x * x * x
          dy_dx = t1.gradient(y, x)
        d2y_dx2 = t2.gradient(dy_dx, x)
        print('dy_dx:', dy_dx.numpy())
        print('d2y_dx2:', d2y_dx2.numpy())
        """,
        "dy_dx: 3.0\nd2y_dx2: 6.0\n"),
    "jacobian_scalar_source": (
        """
        x = tf.linspace(-10.0, 10.0, 200+1)
        delta = tf.Variable(0.0)
        with tf.GradientTape() as tape:
          y = tf.nn.sigmoid(x+delta)
        dy_dx = tape.jacobian(y, delta)
        print(y.shape)
        print(dy_dx.shape)
        """,
        "(201,)\n(201,)\n"),
    "jacobian_and_batch_jacobian_shapes": (
        """
        x = tf.random.normal([7, 5])
        w1 = tf.Variable(tf.random.normal([5, 8]))
        w2 = tf.Variable(tf.random.normal([8, 6]))
        with tf.GradientTape(persistent=True, watch_accessed_variables=False) as tape:
          tape.watch(x)
          y = tf.nn.elu(tf.matmul(tf.nn.elu(tf.matmul(x, w1)), w2))
        j = tape.jacobian(y, x)
        print(j.shape)
        j_sum = tf.reduce_sum(j, axis=2)
        j_select = tf.einsum('bxby->bxy', j)
        jb = tape.batch_jacobian(y, x)
        print(jb.shape, j_sum.shape, j_select.shape)
        print(bool(tf.reduce_max(abs(jb - j_sum)) < 1e-3))
        """,
        "(7, 6, 7, 5)\n(7, 6, 5) (7, 6, 5) (7, 6, 5)\nTrue\n"),
    "hessian_newton_step": (
        """
        x = tf.random.normal([7, 5])
        k = tf.Variable(tf.random.normal([5, 8]))
        with tf.GradientTape() as t2:
          with tf.GradientTape() as t1:
            loss = tf.reduce_mean(tf.nn.relu(tf.matmul(x, k))**2)
          g = t1.gradient(loss, k)
        h = t2.jacobian(g, k)
        print(f'layer.kernel.shape: {k.shape}')
        print(f'h.shape: {h.shape}')
        n_params = tf.reduce_prod(k.shape)
        g_vec = tf.reshape(g, [n_params, 1])
        h_mat = tf.reshape(h, [n_params, n_params])
        update = tf.linalg.solve(h_mat + tf.eye(h_mat.shape[0]) * 1e-3, g_vec)
        _ = k.assign_sub(tf.reshape(update, k.shape))
        print(update.shape)
        """,
        "layer.kernel.shape: (5, 8)\nh.shape: (5, 8, 5, 8)\n(40, 1)\n"),
}


@pytest.mark.parametrize("name", sorted(SNIPPETS))
def test_guide_snippet_prints_what_tensorflow_prints(name, capsys):
    code, expected = SNIPPETS[name]
    exec(compile("import runtime as tf\n" + textwrap.dedent(code), f"<guide:{name}>", "exec"), {})
    assert capsys.readouterr().out == expected
