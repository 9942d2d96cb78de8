"""The core IR and what every pass shares: the IR contract (ir.py), the per-transformation
context (fresh names, outside references), errors."""
