"""``runtime.scipy.integrate``: odeint and solve_ivp on tensors (helper odelinalg fills this module)."""
