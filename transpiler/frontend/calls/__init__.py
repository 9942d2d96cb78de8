"""Calls: call sites, nested functions and lambdas inlined, call arguments, helpers generated code calls."""
