"""Eager calls at compiled speed: ``kernels`` (the ops' eager implementation: the lowering's
kernels compiled once per signature, their cache), ``loss`` (the whole loss as two compiled
graphs, calls seen before), ``soft`` (probability targets' entry), ``graphs`` (CUDA graphs
at few rows)."""
