"""Ahead-of-time source-to-source automatic differentiation (work in progress)."""
