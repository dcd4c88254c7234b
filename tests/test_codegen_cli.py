"""python -m inductor_ce.codegen: code generation only, on a machine without a GPU."""
from __future__ import annotations

import logging
import re
import subprocess
import sys

import pytest
import torch

from inductor_ce.codegen import cli as ce_inspect
from inductor_ce import lowering


def _table(out: str) -> dict[str, list[str]]:
    table = out[out.rindex("forward"):]
    return {m[1].strip(): m[2].split() for m in re.finditer(r"^(\D+?) {2,}(\S+ +\S+)$", table,
                                                            re.M)}


@pytest.mark.parametrize("backend, fwd_loads", [("triton", "1"), ("cpp", "2")])
def test_inspect_prints_kernels_and_table(capsys, backend, fwd_loads):
    ce_inspect.main(["--rows", "64", "--vocab", "5000", "--dtype", "bfloat16", "--softcap", "30",
                     "--label-smoothing", "0.1", "--backend", backend, "--device", "cpu"])
    out = capsys.readouterr().out
    assert "ce_fwd" in out and "ce_bwd" in out  # both graphs printed
    assert ("def triton_unk_fused_ce_fwd" if backend == "triton" else "cpp_fused_ce_fwd") in out
    table = _table(out)
    assert table["loads of the logits"] == [fwd_loads, "1"]
    assert table["stores of a (rows, V) tensor"] == ["0", "1"]
    # bf16: 2 bytes per element; backward reads the logits and writes the gradient once each.
    assert table["minimum bytes per token"] == ["10,000", "20,000"]
    assert table["x minimum"] == [f"{int(fwd_loads):.2f}", "1.00"]
    assert "primals_1: bf16[64, 5000]" in out  # the bf16 logits are what the forward saves


def test_lowering_logs_strategy_and_fused_producers(caplog):
    """The ``inductor_ce`` logger (``TORCH_LOGS=+inductor_ce``): one line per lowering."""
    import torch
    import inductor_ce
    from inductor_ce._inductor import capture

    x = torch.empty(8, 5000, dtype=torch.bfloat16, requires_grad=True)
    t = torch.zeros(8, dtype=torch.long)
    fn = torch.compile(lambda x, t: inductor_ce.cross_entropy(x.float() / 0.7, t, softcap=30.0),
                       fullgraph=True)
    with caplog.at_level(logging.INFO, logger="inductor_ce"):
        capture.codegen_only(fn, x, t, triton_on_cpu_tensors=True)
    lines = [r.getMessage() for r in caplog.records if r.name == "inductor_ce"]
    fwd, bwd = ([m for m in lines if m.startswith(op)] for op in ("ce_fwd", "ce_bwd"))
    assert len(fwd) == 1 and len(bwd) == 1, lines
    assert "logits float32[8, 5000] on cpu" in fwd[0] and "softcap=True" in fwd[0]
    assert f"two-level split, {-(-5000 // lowering.CHUNK)} chunks of {lowering.CHUNK}" in fwd[0]
    # The cast and the temperature are inlined into the loads, in forward and backward.
    for line in (fwd[0], bwd[0]):
        assert line.endswith("fused into the logits load: convert_element_type, div"), line


class _Traced(Exception):
    """Raised in place of code generation: the arguments got past the checks."""


@pytest.fixture
def no_codegen(monkeypatch):
    def generate(*args, **kwargs):
        raise _Traced
    monkeypatch.setattr(ce_inspect, "generate", generate)


def _error_line(capsys, argv) -> str:
    """main(argv) must exit with status 2 and ONE line on stderr (no usage, no traceback),
    before anything is traced."""
    with pytest.raises(SystemExit) as exc:
        ce_inspect.main(argv)
    assert exc.value.code == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    lines = captured.err.splitlines()
    assert len(lines) == 1, captured.err
    assert lines[0].startswith("python -m inductor_ce.codegen: error: "), lines[0]
    return lines[0]


_CAP = ("--softcap: softcap must be None or a number in [1.175e-38, 3.403e+38] (finite and > 0 "
        "in float32), got ")


@pytest.mark.parametrize("argv, message", [
    (["--softcap", "-1"], _CAP + "-1.0"),
    (["--softcap", "0"], _CAP + "0.0"),
    (["--softcap", "nan"], _CAP + "nan"),
    (["--softcap", "inf"], _CAP + "inf"),
    (["--label-smoothing", "2"], "--label-smoothing: label_smoothing must be in [0, 1], got 2.0"),
    (["--label-smoothing", "-0.1"],
     "--label-smoothing: label_smoothing must be in [0, 1], got -0.1"),
    (["--label-smoothing", "nan"],
     "--label-smoothing: label_smoothing must be in [0, 1], got nan"),
    (["--z-loss", "-1"], "--z-loss: z_loss must be a finite number >= 0, got -1.0"),
    (["--z-loss", "inf"], "--z-loss: z_loss must be a finite number >= 0, got inf"),
    (["--z-loss", "nan"], "--z-loss: z_loss must be a finite number >= 0, got nan"),
    (["--vocab", "0"], "--vocab 0: must be at least 1"),
    (["--rows", "-5"], "--rows -5: must be at least 1"),
    (["--rows", "0"], "--rows 0: must be at least 1 (nothing to inspect)"),
    (["--vocab", str(2**31)], f"--vocab {2**31}: must be below 2^31"),
    (["--rows", "99999999999999999999"], "--rows 99999999999999999999: must be below 2^31"),
    (["--rows", str(2**30), "--vocab", str(2**30)],
     f"--rows {2**30} --vocab {2**30}: the bfloat16 logits do not fit on cpu"),
])
def test_bad_arguments_are_one_line_and_exit_2(capsys, no_codegen, argv, message):
    assert message in _error_line(capsys, argv + ["--device", "cpu"])


@pytest.mark.skipif(torch.cuda.is_available(), reason="a CUDA device is present")
def test_cuda_without_a_gpu_is_one_line(capsys, no_codegen):
    line = _error_line(capsys, ["--device", "cuda"])
    assert line.endswith("error: --device cuda: no CUDA device")


@pytest.mark.gpu
def test_cpp_backend_needs_the_cpu(capsys, no_codegen):
    assert _error_line(capsys, ["--device", "cuda", "--backend", "cpp"]).endswith(
        "error: --backend cpp needs --device cpu")


def test_triton_backend_without_triton_is_one_line(capsys, no_codegen, monkeypatch):
    monkeypatch.setattr(ce_inspect, "_have_triton", lambda: False)
    line = _error_line(capsys, ["--device", "cpu"])
    assert "--backend triton: triton is not installed" in line
    with pytest.raises(_Traced):  # the C++ backend needs no Triton
        ce_inspect.main(["--device", "cpu", "--backend", "cpp"])


@pytest.mark.parametrize("argv", [
    ["--rows", "1", "--vocab", "1"], ["--label-smoothing", "1"], ["--label-smoothing", "0"],
    ["--z-loss", "0"], ["--softcap", "1e-3"], ["--ignore-index", "0"]])
def test_boundary_values_are_accepted(no_codegen, argv):
    with pytest.raises(_Traced):
        ce_inspect.main(argv + ["--device", "cpu", "--backend", "cpp"])


@pytest.mark.parametrize("argv", [["--help"], ["--vocab", "0"], ["--rows", "-5"],
                                  ["--softcap", "-1"], ["--device", "cuda"]])
def test_help_and_bad_arguments_answer_before_torch_is_imported(argv):
    """`python -m inductor_ce.codegen` checks its arguments before it imports torch (seconds
    on a busy machine): -X importtime lists every module the process imported."""
    if argv == ["--device", "cuda"] and not ce_inspect._no_cuda_device():
        pytest.skip("a CUDA device may be present: the answer needs torch")
    run = subprocess.run([sys.executable, "-X", "importtime", "-m", "inductor_ce.codegen",
                          *argv], capture_output=True, text=True, timeout=120)
    assert run.returncode == (0 if argv == ["--help"] else 2), run.stderr
    imported = [line.split("|")[-1].strip() for line in run.stderr.splitlines()
                if line.startswith("import time:")]
    assert "inductor_ce" in imported and "argparse" in imported
    assert "torch" not in imported, [m for m in imported if m.startswith("torch")][:5]


def test_the_command_runs_as_a_program():
    """`python -m inductor_ce.codegen ...` as the README runs it, in a process of its own:
    the package's names load on first use there (its __getattr__), and loading them imports
    its submodules through that same __getattr__ without recursing."""
    run = subprocess.run([sys.executable, "-m", "inductor_ce.codegen", "--rows", "64",
                          "--vocab", "1000", "--summary-only", "--device", "cpu",
                          "--backend", "cpp"], capture_output=True, text=True, timeout=600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "x minimum" in run.stdout


def test_a_bad_eager_mode_variable_is_one_line():
    """A mistyped INDUCTOR_CE_EAGER (which the package checks as it loads) answers like a bad
    flag: one line naming the variable, exit 2, no traceback."""
    import os
    run = subprocess.run([sys.executable, "-m", "inductor_ce.codegen", "--rows", "4",
                          "--vocab", "64", "--summary-only"], capture_output=True, text=True,
                         timeout=300, env={**os.environ, "INDUCTOR_CE_EAGER": "compile"})
    assert run.returncode == 2, run.stderr[-2000:]
    assert "Traceback" not in run.stderr
    assert "INDUCTOR_CE_EAGER must be one of" in run.stderr.strip().splitlines()[-1]


def test_an_empty_eager_mode_variable_is_the_default():
    """INDUCTOR_CE_EAGER set but empty (``INDUCTOR_CE_EAGER= python train.py``) means the
    default, as if unset: the package loads."""
    import os
    run = subprocess.run([sys.executable, "-c", "import inductor_ce.eager.kernels as k; "
                          "print(k.MODE)"], capture_output=True, text=True, timeout=300,
                         env={**os.environ, "INDUCTOR_CE_EAGER": ""})
    assert run.returncode == 0, run.stderr[-2000:]
    assert run.stdout.split() == ["auto"]
