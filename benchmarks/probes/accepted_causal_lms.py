"""How many of the causal LMs transformers' AutoModelForCausalLM maps pass the source check
of ``inductor_ce.transformers.apply`` (the loss computed as the model's forward would: see
docs/transformers.md); the refused ones with the reason. No model is built: ``apply`` also
checks the built model's head (a plain ``nn.Linear`` of ``vocab_size`` outputs).

    python benchmarks/probes/accepted_causal_lms.py [--refused]
"""
from __future__ import annotations

import argparse
import importlib
import os
import sys
import warnings

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--refused", action="store_true", help="list the refused classes")
    args = p.parse_args()
    warnings.filterwarnings("ignore")
    import transformers
    from transformers.models.auto.modeling_auto import MODEL_FOR_CAUSAL_LM_MAPPING_NAMES

    from inductor_ce.integrations.transformers import _forward_spec
    names = sorted(set(MODEL_FOR_CAUSAL_LM_MAPPING_NAMES.values()))
    accepted, refused, missing = [], {}, []
    for name in names:
        cls = getattr(transformers, name, None)
        if cls is None:
            try:
                cls = getattr(importlib.import_module("transformers"), name)
            except Exception:   # noqa: BLE001  (a class its install cannot import)
                missing.append(name)
                continue
        try:
            _forward_spec(cls)
            accepted.append(name)
        except ValueError as e:
            refused[name] = str(e).split(": ", 1)[-1].split(". Supported")[0]
    print(f"transformers {transformers.__version__}: {len(accepted)} of {len(names)} classes "
          f"of AutoModelForCausalLM accepted, {len(refused)} refused, {len(missing)} not "
          "importable")
    if args.refused:
        for name, why in refused.items():
            print(f"  {name}: {why}")


if __name__ == "__main__":
    main()
