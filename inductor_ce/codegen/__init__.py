"""Reading what Inductor generates for our ops: ``reading`` (how many times a graph's
kernels read each buffer; the structure and normalized text the snapshots keep) and the
command line ``python -m inductor_ce.codegen`` (``cli``: prints the kernels of a loss call
and what they move)."""
