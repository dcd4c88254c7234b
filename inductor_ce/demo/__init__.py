"""The main job (``python -m inductor_ce.demo``, in ``job``): a GPT (``gpt``) trained on the
standard library's own source (``corpus``), stock torch.compile against inductor_ce."""
