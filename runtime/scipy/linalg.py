"""``runtime.scipy.linalg``: scipy.linalg's functions on tensors (helper odelinalg fills this module)."""
