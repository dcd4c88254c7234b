import os
import time

import pytest
import torch
from hypothesis import settings

# Property tests: few examples (each runs forward + backward twice) and no deadline (the first
# call of an op pays one-off dispatch costs). "ci" (the default) is derandomized, so a CI run
# is reproducible; HYPOTHESIS_PROFILE=explore searches with fresh random seeds.
settings.register_profile("ci", max_examples=30, deadline=None, derandomize=True,
                          print_blob=True)
settings.register_profile("explore", max_examples=300, deadline=None)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))


# The files CI also runs on its pinned torch (the README's second test line, `-m pinned`): those
# whose outcome depends most on torch's version: the generated code and its snapshots, the
# lowering, the op's contract against float64, the codegen command line.
PINNED = ("test_codegen_snapshots.py", "test_core.py", "test_lowering.py", "test_codegen_cli.py")


# The slowest cases (marked `slow`: the main job, runs of several processes) run last, and
# only while the session is within its time budget: on a loaded CI machine the run stays
# bounded, and a case left out says why (`-ra` lists it). INDUCTOR_CE_SLOW_AFTER_S=inf runs
# them whatever the time; `-m slow` runs them alone.
_START = time.monotonic()
SLOW_AFTER_S = float(os.environ.get("INDUCTOR_CE_SLOW_AFTER_S", "1500"))


def pytest_collection_modifyitems(config, items):
    for item in items:
        if item.path.name in PINNED:
            item.add_marker(pytest.mark.pinned)
    items.sort(key=lambda item: "slow" in item.keywords)   # (stable: slow ones last)
    if torch.cuda.is_available() or os.environ.get("INDUCTOR_CE_GPU_DEVICE") == "cpu":
        return  # (the CPU dry run of tests/test_gpu.py, see there)
    skip = pytest.mark.skip(reason="needs a CUDA GPU")
    for item in items:
        if "gpu" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def _seeded(request):
    """Each test's unseeded draws (torch's global generator) are the same in every run and
    order, so a CI run is reproducible like the property tests; the seed differs per test."""
    import zlib
    torch.manual_seed(zlib.crc32(request.node.nodeid.encode()))


def pytest_runtest_setup(item):
    if "slow" in item.keywords:
        spent = time.monotonic() - _START
        if spent > SLOW_AFTER_S:
            pytest.skip(f"slow, and this run has taken {spent:.0f} s, over its "
                        f"{SLOW_AFTER_S:.0f} s for slow cases (INDUCTOR_CE_SLOW_AFTER_S)")
