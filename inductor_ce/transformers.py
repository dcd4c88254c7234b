"""``import inductor_ce.transformers``: the Hugging Face integration, which lives in
``integrations/transformers.py``. This name is that module itself (not a copy of its
names), so that setting an attribute on one sets it on the other."""
import sys

from .integrations import transformers as _module

sys.modules[__name__] = _module
