"""The parts of TF's framework a program touches besides ops: ``tf.Module`` and ``tf.name_scope``,
``tf.function`` (eager), ``tf.TensorSpec``, ``tf.config``, ``tf.print`` and ``tf.get_logger``."""
