"""Rules for scipy.integrate: ``odeint`` (and ``solve_ivp`` on the tape), differentiated with respect
to the initial state, the times and the parameters passed in ``args``.

Reverse mode is the continuous adjoint (``paths``: a backward solve of the augmented system per
interval between output times, as autograd's odeint and torchdiffeq do), forward mode the forward
sensitivity equations; both solve with the user's solver and tolerances (``solvers``).  The
right-hand side is the user's function, differentiated by the half that runs (``callees``: the
transpiler's own VJP/JVP of it, or a nested tape).  Modules: ``leaves`` (args as one vector),
``solvers``, ``dynamics`` (the adjoint and sensitivity systems), ``paths`` (the ``ode_path``
primitive and its rules), ``calls`` (scipy.integrate.odeint's rules, the refusals).
"""

from .paths import *  # noqa: F401,F403
from .calls import *  # noqa: F401,F403
