"""The front end: Python source -> the core IR (core/ir.py), grouped by construct.

normalize.py runs the pass; emitter.py holds the state every construct shares; desugar.py writes
everyday Python as the forms the constructs lower; statements.py and expressions.py lower those.

    source/      a function's source and scope: parsing, lines, pickled source, *args fixed to a call
    control/     loops, break/continue/return, match, with/try blocks
    calls/       call sites, nested functions and lambdas, call arguments, helpers generated code calls
    containers/  writes into arrays, lists and dicts; list edits; literals; + and * of sequences
    objects/     instances of the user's classes; namedtuples and dataclasses used as records
    effects/     effects adjoin cannot model (refused or checked), and the checks a whole function
                 shows to be unnecessary

The front end imports only core/ (and runtime.rules); tf.* calls are rewritten by the bridge.
"""
