"""A function's source and the scope its free names resolve in."""
