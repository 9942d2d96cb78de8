"""The back end: rule templates inlined into generated code, the clean-up pass, and printing /
compiling the generated functions."""
