"""The op's specification, at the bottom of the package: the two custom ops and their
autograd (``ce``), the reference ATen decomposition (``decomposition``), the per-row finish
and reduction (``finish``), probability targets (``soft``), the input checks (``checks``;
``options``, torch-free). Imports
nothing of ours above it: backends register themselves on ``ce.BACKENDS``.

(Imports nothing here either, so that ``op.options`` loads without torch.)
"""
