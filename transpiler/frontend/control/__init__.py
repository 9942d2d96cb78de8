"""Control flow: loops, break/continue/return as structure, match, with/try blocks."""
