"""Integrations with the host stacks: ``routing`` (``inductor_ce.enable()``: torch.compile
routes any model's cross-entropy through ours), ``transformers`` (Hugging Face causal LMs'
loss by the fused head; imported as ``inductor_ce.transformers``)."""
