"""The ``Name``, ``Call`` and ``BinOp`` nodes under a node, found by one walk per statement and kept.

The clean-up passes (peephole.tidy, copy propagation, local copy propagation, dead code
elimination) each ask every statement which names it reads and binds; a fresh walk per
question made them the transformation's dearest passes.  The lists stay right while those
passes run: they rename names in place (the same Name nodes), delete whole statements, and
replace the blocks of compound statements -- whose lists are therefore never kept but made
from their header and their statements' lists each time.  A pass that moves an expression
from one statement into another calls ``forget``.
"""

import ast

__all__ = ["NodeIndex"]

_BLOCKS = ("body", "orelse", "finalbody", "handlers")
_BLOCK_ITEMS = (ast.stmt, ast.excepthandler)


class NodeIndex:
    def __init__(self):
        self._memo = {}

    def forget(self):
        self._memo.clear()

    def _parts(self, node, _AST=ast.AST, _list=list, _Name=ast.Name, _Call=ast.Call, _BinOp=ast.BinOp):
        got = self._memo.get(id(node))
        if got is not None:
            return got
        names, calls, binops = [], [], []
        compound = False
        todo = [node]
        for n in todo:
            cls = n.__class__
            if cls is _Name:
                names.append(n)
                continue
            if cls is _Call:
                calls.append(n)
            elif cls is _BinOp:
                binops.append(n)
            for field in cls._fields:
                v = getattr(n, field, None)
                if v.__class__ is _list:
                    if field in _BLOCKS and v and isinstance(v[0], _BLOCK_ITEMS):
                        compound = True
                        for x in v:
                            more = self._parts(x)
                            names.extend(more[1])
                            calls.extend(more[2])
                            binops.extend(more[3])
                        continue
                    todo.extend([x for x in v if isinstance(x, _AST) and x._fields])
                elif isinstance(v, _AST) and v._fields:
                    todo.append(v)
        got = (node, names, calls, binops)
        if not compound:                  # the node itself keeps its id alive while memoized
            self._memo[id(node)] = got
        return got

    def names(self, node):
        return self._parts(node)[1]

    def calls(self, node):
        return self._parts(node)[2]

    def binops(self, node):
        return self._parts(node)[3]

    def reads(self, node):
        return {n.id for n in self._parts(node)[1] if isinstance(n.ctx, ast.Load)}
