"""The README's examples run as pasted and print what the README shows."""
from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

README = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "README.md")


def _text() -> str:
    with open(README) as f:
        return f.read()


def _run(code: str) -> str:
    run = subprocess.run([sys.executable, "-"], input=code, capture_output=True, text=True,
                         timeout=600)
    assert run.returncode == 0, run.stderr[-3000:]
    return run.stdout


@pytest.mark.parametrize("index", [0, 1])
def test_python_blocks_run_as_pasted(index):
    blocks = re.findall(r"```python\n(.*?)```", _text(), re.S)
    # the quickstart and the enable() example; the API block is signatures, not a program
    assert len(blocks) == 3 and blocks[2].lstrip().startswith("inductor_ce.cross_entropy(")
    _run(blocks[index])


def test_console_example_prints_what_the_readme_shows():
    console = re.search(r"```console\n\$ python - <<'EOF'\n(.*?)\nEOF\n(.*?)```", _text(), re.S)
    code, shown = console[1], console[2]
    assert _run(code).split() == shown.split()


def test_api_block_names_resolve_after_import():
    """Every name the README's API block spells out (``inductor_ce.parallel.vocab_...``,
    ``inductor_ce.transformers.apply``, ...) is reachable after a plain ``import
    inductor_ce``, in a fresh process (no other test's imports helping)."""
    api = re.findall(r"```python\n(.*?)```", _text(), re.S)[2]
    names = sorted(set(re.findall(r"^(inductor_ce(?:\.\w+)+)\(", api, re.M)))
    assert "inductor_ce.parallel.vocab_parallel_cross_entropy" in names, names
    code = "import functools, inductor_ce\n" + "".join(
        f"functools.reduce(getattr, {n.split('.')[1:]!r}, inductor_ce)\n" for n in names)
    _run(code)
