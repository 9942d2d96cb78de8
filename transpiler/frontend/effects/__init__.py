"""Effects adjoin cannot model: refused, or checked when the code runs (checks.py), and the checks a
look at the whole function makes unnecessary (pruning.py)."""
