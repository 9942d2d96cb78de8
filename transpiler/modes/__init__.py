"""The modes: how derivative code is generated from the core IR (reverse, forward, the split
pair, stacks, calls to user functions, generated code transformed again)."""
