"""Analyses: facts about the core IR that the modes read (activity, scalars)."""
