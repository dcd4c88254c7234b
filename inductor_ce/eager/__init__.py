"""Eager calls at compiled speed: ``kernels`` (the ops' eager implementation, the compile
cache, the whole-loss Function and its repeat path), ``graphs`` (CUDA graphs at few rows)."""
