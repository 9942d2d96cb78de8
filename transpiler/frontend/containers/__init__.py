"""Containers: writes into arrays, lists and dicts as new versions; literals; + and * of sequences."""
