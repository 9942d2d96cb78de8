"""transpiler.bridge.tf_twins"""
