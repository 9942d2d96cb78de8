"""The front end: Python source -> the core IR (parsing, desugaring, structures, closures,
``tf.*`` calls)."""
