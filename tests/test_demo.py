"""The README's main command (``python -m inductor_ce.demo``): its corpus and tokenizer
(deterministic, cached), its batches, the training run both ways (the curves agree), the
confident-token metric against float64, the summary's verdicts, the missing-dependency
message and the PNG; and the code-reading helper ``inductor_ce.codegen`` uses."""
import hashlib
import importlib.util
import json
import math
import shutil
import sys

import pytest
import torch
import torch.nn.functional as F

from inductor_ce.codegen import reading as _codegen
from inductor_ce.demo import corpus
from inductor_ce.demo import job as demo
from inductor_ce.demo import gpt

HAVE_TOKENIZERS = importlib.util.find_spec("tokenizers") is not None
HAVE_MPL = importlib.util.find_spec("matplotlib") is not None
needs_tokenizers = pytest.mark.skipif(not HAVE_TOKENIZERS, reason="tokenizers not installed")
needs_mpl = pytest.mark.skipif(not HAVE_MPL, reason="matplotlib not installed")


# --- part 1 -----------------------------------------------------------------------------------

def test_part1_reference_is_float64_cross_entropy_where_that_does_not_collapse():
    logits, target = demo.confident_batch(margins=(0.0, 5.0), vocab=1000)
    loss, grad_t = demo.reference64(logits, target)
    x = logits.double().requires_grad_()
    ref = F.cross_entropy(x, target, reduction="none")
    ref.sum().backward()
    torch.testing.assert_close(loss, ref.detach(), rtol=1e-12, atol=0)
    torch.testing.assert_close(grad_t, x.grad[torch.arange(2), target], rtol=1e-12, atol=0)


def test_part1_ours_matches_float64_at_every_margin_and_stock_collapses():
    lines = []
    _, _, ref_loss, ref_grad, ours, stock = demo.part1(out=lines.append)
    assert len(lines) == 2 + len(demo.MARGINS)
    torch.testing.assert_close(ours[0].double(), ref_loss, rtol=1e-5, atol=0)
    torch.testing.assert_close(ours[1].double(), ref_grad, rtol=1e-5, atol=0)
    big = torch.tensor(demo.MARGINS) >= 30
    assert (stock[0][big] == 0).all() and (stock[1][big] == 0).all()   # what the demo shows
    assert (ref_loss[big] > 0).all()
    assert not any("-0.0000" in line for line in lines)     # stock's 0 printed as 0


def test_parameter_count_without_building_the_model():
    for name in ("tiny", "cpu"):
        cfg = demo.model_config(demo.PRESETS[name])
        assert gpt.n_params(cfg) == sum(p.numel() for p in gpt.GPT(cfg).parameters())
    assert round(gpt.n_params(demo.model_config(demo.PRESETS["cuda"])) / 1e6) == 136


# --- the confident-token metric ---------------------------------------------------------------

def _direct64(z, t):
    """float64 loss log(1 + S) and target gradient -S / (1 + S), S = sum_{j!=t} e^{z_j - z_t},
    written out row by row (independent of demo.reference64)."""
    losses, grads = [], []
    for row, k in zip(z.double(), t.tolist()):
        e = torch.exp(row - row[k])
        s = float(e.sum() - e[k])
        losses.append(math.log1p(s))
        grads.append(-s / (1 + s))
    return torch.tensor(losses, dtype=torch.float64), torch.tensor(grads, dtype=torch.float64)


def test_confident_tokens_against_float64_on_a_constructed_batch():
    margins = (0.0, 10.0, 16.0, 17.0, 20.0, 30.0, 50.0)
    z, t = demo.confident_batch(margins=margins, vocab=2000, seed=3)
    r = demo.confident_tokens(z, t)
    conf = torch.tensor([m > demo.COLLAPSE_MARGIN for m in margins])
    assert r["tokens"] == len(t) and r["confident"] == int(conf.sum()) == 4
    zc, tc = z[conf], t[conf]
    loss64, grad64 = _direct64(zc, tc)
    assert r["loss_f64"] == pytest.approx(float(loss64.sum()), rel=1e-12)
    assert r["grad_f64"] == pytest.approx(float(grad64.sum()), rel=1e-12)
    assert r["loss_ours"] == pytest.approx(r["loss_f64"], rel=1e-5)
    assert r["grad_ours"] == pytest.approx(r["grad_f64"], rel=1e-5)
    assert 0 < r["ours_loss_rel_err"] <= 1e-5 and r["ours_grad_rel_err"] <= 1e-5
    # stock in float32, row by row. Where between 16.6 and ~20 it starts returning 0 depends
    # on its summation order; from margin 30 on the whole non-target mass (< 2000 e^-30 e^8,
    # logits ~ 2 N(0, 1)) is far below 2^-24, so 0 in any order.
    stock = F.cross_entropy(zc, tc, reduction="none")
    grad = demo.loss_and_target_grad(F.cross_entropy, zc, tc)[1]
    assert r["stock_loss_zero"] == int((stock == 0).sum()) >= 2
    assert r["stock_grad_zero"] == int((grad == 0).sum()) >= 2
    assert (stock[-2:] == 0).all() and (grad[-2:] == 0).all()
    assert r["loss_stock"] == pytest.approx(float(stock.double().sum()), rel=1e-6)
    assert r["max_margin"] == pytest.approx(50.0, abs=1e-4)
    none = demo.confident_tokens(z[:3], t[:3])                    # nothing above: zeros
    assert none["confident"] == 0 and none["loss_f64"] == none["loss_stock"] == 0


def test_collapse_margin_is_where_one_competitor_rounds_away_in_float32():
    m = demo.COLLAPSE_MARGIN
    one = torch.tensor(1.0)
    assert one + torch.exp(torch.tensor(-(m + 1e-3))) == one
    assert one + torch.exp(torch.tensor(-(m - 0.05))) > one


# --- the summary ------------------------------------------------------------------------------

def test_agreement_verdicts():
    a = [5.0 - 0.01 * i + 0.1 * math.sin(i) for i in range(100)]
    same = demo.agreement(a, [x * (1 + 1e-7) for x in a], "Training loss", "step")
    assert same["same"] and "no difference" in same["text"] and "float32" in same["text"]
    # drift of 1e-3 relative per point with no mean offset: no difference beyond noise
    noisy = demo.agreement(a, [x + 0.004 * (-1) ** i for i, x in enumerate(a)], "T", "step")
    assert noisy["same"] and noisy["max_rel_diff"] > demo.SAME_FP32
    # a systematic 1% offset: a difference, said plainly
    worse = demo.agreement(a, [x * 1.01 + 0.001 * (-1) ** i for i, x in enumerate(a)], "T",
                           "step")
    assert not worse["same"] and "higher" in worse["text"]


def test_learning_rate_schedule():
    assert gpt.lr_at(0, 100, 1.0, 10) == pytest.approx(0.1)
    assert gpt.lr_at(9, 100, 1.0, 10) == pytest.approx(1.0)
    assert gpt.lr_at(99, 100, 1.0, 10) == pytest.approx(0.1, abs=1e-3)


# --- batches and evaluation -------------------------------------------------------------------

def test_windows_pad_after_the_first_end_of_file():
    eot, n, block = 7, 40, 6
    tokens = torch.arange(100, 100 + n, dtype=torch.int32)      # unique: a row shows its start
    tokens[[3, 9, 10, 30]] = eot
    idx, labels = gpt.windows(tokens, eot, batch_size=64, block_size=block, seed=1)
    assert idx.shape == labels.shape == (64, block) and idx.dtype == torch.long
    starts = set()
    for row_i, row_l in zip(idx.tolist(), labels.tolist()):
        p = next((p for p, v in enumerate(row_i) if v != eot), None)
        start = row_i[p] - 100 - p if p is not None else tokens.tolist().index(eot)
        if p is None:     # a row starting on an end of file: the rest is padding
            assert start in (3, 9, 10, 30)
        window = tokens[start:start + block].tolist()
        end = window.index(eot) + 1 if eot in window else block
        assert row_i[:end] == window[:end] == row_l[:end]
        assert row_i[end:] == [eot] * (block - end) and row_l[end:] == [-100] * (block - end)
        starts.add(start)
    assert len(starts) > 10 and max(starts) <= n - block
    again = gpt.windows(tokens, eot, 64, block, seed=1)
    assert torch.equal(again[0], idx) and torch.equal(again[1], labels)
    assert not torch.equal(gpt.windows(tokens, eot, 64, block, seed=2)[0], idx)
    assert (labels == -100).any() and (labels == eot).any()


def test_evaluate_is_float64_cross_entropy_of_the_logits():
    cfg = gpt.GPTConfig(vocab_size=64, block_size=8, n_layer=1, n_head=2, n_embd=16)
    torch.manual_seed(0)
    model = gpt.GPT(cfg)
    tokens = torch.randint(0, 63, (200,), dtype=torch.int32)
    tokens[::13] = 63
    batch = gpt.windows(tokens, 63, 4, 8, seed=0)
    r = demo.evaluate(model, [batch, batch], amp=False)
    idx, labels = batch
    with torch.no_grad():
        logits = model(idx).double()
    ref = F.cross_entropy(logits[:, :-1].reshape(-1, 64), labels[:, 1:].reshape(-1))
    assert r["loss"] == pytest.approx(ref.item(), rel=1e-12)
    assert r["tokens"] == 2 * int((labels[:, 1:] != -100).sum())


# --- corpus and tokenizer ---------------------------------------------------------------------

def test_stdlib_selection_is_deterministic_and_skips_generated_dirs():
    files = corpus.list_files()
    paths = [f.path for f in files]
    assert paths == sorted(paths) and "json/decoder.py" in paths
    assert not any(set(p.split("/")[:-1]) & corpus.EXCLUDED_DIRS for p in paths)
    assert not any(p.split("/")[-1].startswith("_sysconfigdata") for p in paths)
    for f in files[:50]:
        h = int(hashlib.sha256(f.path.encode()).hexdigest(), 16)
        assert f.heldout == (h % corpus.HELDOUT_MODULUS == 0)
    train, held = corpus.select(files, 1_000_000)
    assert train and held and not {f.path for f in train} & {f.path for f in held}
    assert all(f.heldout for f in held) and not any(f.heldout for f in train)
    assert sum(f.size for f in train[:-1]) < 900_000 and sum(f.size for f in held[:-1]) < 100_000
    assert [f.digest for f in train] == sorted(f.digest for f in train)
    assert corpus.select(list(reversed(files)), 1_000_000) == (train, held)
    every = corpus.select(files, None)
    assert len(every[0]) + len(every[1]) == len(files)


@pytest.fixture
def fake_stdlib(tmp_path):
    """24 modules of real stdlib text under names whose split is known (pkg0/mod00.py and
    pkg2/mod17.py are held out), and files the selection must skip."""
    root = tmp_path / "lib"
    sources = [f for f in corpus.list_files() if 3000 < f.size < 12000][:24]
    for i, f in enumerate(sources):
        dst = root / f"pkg{i % 3}" / f"mod{i:02d}.py"
        dst.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(corpus.stdlib_dir() / f.path, dst)
    for skipped in ("encodings/cp1.py", "pydoc_data/topics.py", "site-packages/x/y.py",
                    "__pycache__/z.py", "_sysconfigdata_x.py", "pkg0/notes.txt"):
        (root / skipped).parent.mkdir(parents=True, exist_ok=True)
        (root / skipped).write_text("x = 1\n")
    return root


def test_list_files_of_a_tree(fake_stdlib):
    files = corpus.list_files(fake_stdlib)
    assert [f.path for f in files] == sorted(f"pkg{i % 3}/mod{i:02d}.py" for i in range(24))
    assert [f.path for f in files if f.heldout] == ["pkg0/mod00.py", "pkg2/mod17.py"]


@needs_tokenizers
def test_tokenizer_training_is_deterministic_and_lossless(fake_stdlib):
    texts = [(fake_stdlib / f.path).read_text() for f in corpus.list_files(fake_stdlib)]
    a, b = corpus.train_tokenizer(texts, 400), corpus.train_tokenizer(texts, 400)
    assert a.get_vocab_size() == 400
    assert a.to_str() == b.to_str()       # the same vocabulary and merges, in the same order
    ids = a.encode(texts[0]).ids
    assert a.decode(ids) == texts[0] and len(ids) < len(texts[0])   # merges were learned


@needs_tokenizers
def test_corpus_is_cached_and_keyed_on_its_content(fake_stdlib, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    first = corpus.load(300, root=fake_stdlib)
    assert not first.info["cache_hit"] and first.info["heldout_files"] == 2
    cached = sorted(p.name for p in (tmp_path / "xdg" / "inductor_ce" / "corpus").iterdir())
    assert cached == [f"tokenizer-{first.key}.json", f"tokens-{first.key}.pt"]
    second = corpus.load(300, root=fake_stdlib)
    assert second.info["cache_hit"] and second.key == first.key
    assert torch.equal(second.train, first.train) and torch.equal(second.heldout, first.heldout)
    # every file ends with <|endoftext|>
    assert int((first.train == first.eot).sum()) == 22 and first.train[-1] == first.eot
    assert int((first.heldout == first.eot).sum()) == 2
    # what decides the content is in the key: the text of a file, the vocabulary, the cap
    (fake_stdlib / "pkg1" / "mod01.py").write_text("changed = True\n" * 50)
    assert corpus.load(300, root=fake_stdlib).key != first.key
    explicit = corpus.load(280, root=fake_stdlib, cache_dir=tmp_path / "mine")
    assert not explicit.info["cache_hit"] and (tmp_path / "mine").is_dir()
    assert corpus.load(280, 60_000, root=fake_stdlib, cache_dir=tmp_path / "mine").key \
        != explicit.key


# --- the main command -------------------------------------------------------------------------

@pytest.mark.parametrize("missing", ["tokenizers", "matplotlib"])
def test_missing_package_is_one_line_and_exit_2(missing, monkeypatch, capsys, tmp_path):
    monkeypatch.setitem(sys.modules, missing, None)        # import raises ImportError
    assert demo.main(["--preset", "tiny", "--out", str(tmp_path)]) == 2
    out, err = capsys.readouterr()
    assert out == "" and err.count("\n") == 1 and "Traceback" not in err
    assert missing in err and 'pip install "inductor-ce[demo]"' in err
    assert not list(tmp_path.iterdir())                   # nothing done


@pytest.mark.parametrize("argv, message", [
    (["--vocab", "10"], "--vocab 10: must be an integer in [257, 2^31)"),
    (["--vocab", "99999999999999999999"], "--vocab 99999999999999999999: must be"),
    (["--steps", "1"], "--steps 1: must be an integer in [2, 2^31)"),
    (["--batch", "0"], "--batch 0: must be"),
    (["--eval-every", "0"], "--eval-every 0: must be"),
    (["--eval-batches", "0"], "--eval-batches 0: must be"),
    (["--memorize", "-1"], "--memorize -1: must be"),
    (["--lr", "nan"], "--lr nan: must be a finite number > 0"),
    (["--lr", "inf"], "--lr inf: must be a finite number > 0"),
    (["--memorize-lr", "-1"], "--memorize-lr -1.0: must be a finite number > 0"),
    (["--corpus-mb", "-1"], "--corpus-mb -1.0: must be a finite number >= 0"),
    (["--seed", "-1"], "--seed -1: must be an integer in [0, 2^63)"),
    (["--seed", str(2**63)], f"--seed {2**63}: must be"),
    (["--out", "/proc/none/x"], "--out /proc/none/x: cannot create or write"),
    (["--cache-dir", "/proc/none"], "--cache-dir /proc/none: cannot create or write"),
])
def test_bad_arguments_are_one_line_and_exit_2(argv, message, capsys, tmp_path):
    """Each bad value is named in one line before any work (not a traceback from the
    tokenizer, the optimizer or the last write of a finished run)."""
    with pytest.raises(SystemExit) as e:
        demo.parse_args(["--preset", "tiny", "--out", str(tmp_path)] + argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err, err


@pytest.mark.slow
@needs_tokenizers
@needs_mpl
def test_main_job_runs_both_ways_and_the_curves_agree(capsys, tmp_path):
    """The whole demo with the tiny preset (6 steps, 1-layer GPT): the two runs start from
    the same weights and see the same batches, so their curves agree to float32 rounding."""
    argv = ["--preset", "tiny", "--out", str(tmp_path), "--cache-dir", str(tmp_path / "c")]
    assert demo.main(argv) == 0
    out = capsys.readouterr().out
    assert "Python 3." in out and "corpus: Python" in out
    report = json.loads((tmp_path / "inductor_ce_demo_cpu.json").read_text())
    stock, ours = report["runs"].values()
    steps = demo.PRESETS["tiny"].steps
    assert len(stock["losses"]) == len(ours["losses"]) == steps
    torch.testing.assert_close(torch.tensor(ours["losses"]), torch.tensor(stock["losses"]),
                               rtol=1e-5, atol=0)
    assert stock["losses"][-1] < stock["losses"][0]              # it trains
    assert [e["step"] for e in ours["evals"]] == [0, 3, 6]
    held = [(a["loss"], b["loss"]) for a, b in zip(stock["evals"], ours["evals"])]
    assert held[0][0] == held[0][1]                                # same initial weights
    assert all(abs(a - b) <= 1e-5 * a for a, b in held)
    assert report["summary"][0].startswith("Training loss: no difference")
    assert all(s in out for s in report["summary"])
    # The second phase, on one window repeated: targets pass the collapse margin; there
    # stock's loss and target gradient are exactly 0, ours is float64's.
    memorize = demo.PRESETS["tiny"].memorize
    for name, r in report["runs"].items():
        assert len(r["slice_losses"]) == memorize and r["slice_evals"][-1]["step"] == \
            steps + memorize
        assert r["slice_losses"][-1] < 1e-3 * r["slice_losses"][0], name
        e = r["slice_evals"][-1]
        assert e["confident"] > 0 and e["max_margin"] > demo.COLLAPSE_MARGIN, (name, e)
        assert e["stock_loss_zero"] > 0 and e["stock_grad_zero"] > 0, (name, e)
        assert e["loss_stock"] < e["loss_f64"] and e["loss_ours"] == pytest.approx(
            e["loss_f64"], rel=1e-5) and e["grad_ours"] == pytest.approx(e["grad_f64"], rel=1e-5)
        assert e["ours_loss_rel_err"] <= 1e-5 and e["ours_grad_rel_err"] <= 1e-5
        # Summed over the classes the gradient is 0 in exact math; stock's is the non-target
        # mass it drops from the target: about -(float64 target gradient).
        assert abs(e["gsum_ours"]) < 1e-3 * abs(e["grad_f64"]) and abs(e["gsum_f64"]) < \
            1e-6 * abs(e["grad_f64"])
        assert e["gsum_stock"] > 0.5 * abs(e["grad_f64"]), (name, e)
    e = ours["slice_evals"][-1]
    assert e["stock_loss_zero"] == e["stock_grad_zero"] == e["confident"] and \
        e["loss_stock"] == e["grad_stock"] == 0, e
    assert any(s.startswith("Memorized slice (inductor_ce.enable() model") and
               "float32 margin > 16.64" in s for s in report["summary"])
    png = (tmp_path / "inductor_ce_demo_cpu.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 50_000


def _synthetic_report(device: str, again: bool = False) -> dict:
    """A report shaped like main()'s, with confident tokens and CUDA memory numbers (what
    the GPU run produces), for the picture; ``again``: with the GPU's second stock run."""
    def run(scale, drift=0.0):
        evals = [dict(step=s, loss=6.0 - s / 100, tokens=1000, confident=s // 10,
                      max_margin=10 + s / 5, stock_loss_zero=s // 10, stock_grad_zero=s // 10,
                      loss_f64=1e-8 * s, loss_ours=1e-8 * s * (1 + 1e-7), loss_stock=0.0,
                      grad_f64=-1e-8 * s, grad_ours=-1e-8 * s, grad_stock=0.0,
                      ours_loss_rel_err=1e-7, ours_grad_rel_err=1e-7) for s in range(0, 101, 20)]
        slice_evals = [dict(e, step=100 + e["step"], loss=10.0 ** -(e["step"] / 10),
                            tokens=63, confident=e["step"] // 4, max_margin=10 + e["step"] / 8,
                            gsum_f64=1e-20, gsum_ours=1e-14, gsum_stock=1e-8 * e["step"])
                       for e in evals]
        return dict(losses=[6 - i / 50 + drift * (-1) ** i for i in range(100)],
                    step_s=[30.0] + [0.04 * scale] * 99, first_step_s=30.0,
                    median_step_s=0.04 * scale, peak_bytes=int(9e9 * scale),
                    resident_bytes=int(2e9), evals=evals, slice_evals=slice_evals,
                    slice_losses=[10.0 ** -(i / 10) for i in range(1, 101)],
                    slice_step_s=[0.04] * 100)
    runs = {"stock torch.compile": run(1.0), "inductor_ce.enable()": run(0.8)}
    if again:
        runs["stock torch.compile, again"] = run(1.0, drift=1e-3)
    return dict(title="synthetic", device=device, runs=runs,
                summary=demo.summarize(runs, device))


@needs_mpl
def test_picture_with_confident_tokens_and_memory(tmp_path):
    """The panels a CPU run leaves empty (memory, tokens above the margin) drawn from numbers
    shaped like a GPU run's; the CPU run's picture is made by the test above."""
    report = _synthetic_report("cuda")
    assert any(s.startswith("Peak memory") for s in report["summary"])
    assert any("loss exactly 0 on 10 and target gradient exactly 0 on 10" in s
               for s in report["summary"])
    assert not any(s.startswith("Peak memory") for s in _synthetic_report("cpu")["summary"])
    assert sum(s.startswith("Memorized slice") and "exactly 0 on 10 of 25" in s
               for s in report["summary"]) == 2
    path = demo.plot(report, str(tmp_path / "p.png"))
    assert open(path, "rb").read(8) == b"\x89PNG\r\n\x1a\n"


@needs_mpl
def test_second_stock_run_is_the_yardstick(tmp_path):
    """On a GPU the demo trains stock twice: the summary puts the run-to-run drift beside
    the stock-vs-ours one, and the picture draws it."""
    report = _synthetic_report("cuda", again=True)
    summary = report["summary"]
    assert summary[0].startswith("Training loss: no difference: the two curves agree")
    assert summary[2].startswith("Run to run (a second stock run") and \
        "stock's second run differs from stock" in summary[2], summary[2]
    assert sum(s.startswith("Confident tokens") for s in summary) == 2
    assert demo.plot(report, str(tmp_path / "p.png"))


@pytest.mark.gpu
@needs_tokenizers
def test_main_job_on_cuda_tiny(tmp_path):
    argv = ["--device", "cuda", "--preset", "tiny", "--out", str(tmp_path),
            "--cache-dir", str(tmp_path / "c")] + ([] if HAVE_MPL else ["--no-png"])
    assert demo.main(argv) == 0
    report = json.loads((tmp_path / "inductor_ce_demo_cuda.json").read_text())
    for r in report["runs"].values():
        assert r["peak_bytes"] > r["resident_bytes"] > 0


# --- the code-reading helper ------------------------------------------------------------------

TRITON = '''
triton_red_fused_0 = async_compile.triton('triton_red_fused_0', \'\'\'
@triton.jit
def triton_red_fused_0(in_ptr0, in_ptr1, out_ptr0, xnumel, r0_numel, XBLOCK, R0_BLOCK):
    for r0_offset in range(0, r0_numel, R0_BLOCK):
        tmp0 = tl.load(in_ptr0 + (r0_1 + 100*x0), rmask, other=0.0)
    for r0_offset in range(0, r0_numel, R0_BLOCK):
        tmp3 = tl.load(in_ptr0 + (r0_1 + 100*x0), rmask, other=0.0)
        tmp4 = tl.load(in_ptr1 + (x0), xmask)
    tl.store(out_ptr0 + (x0), tmp3, xmask)
\'\'\', device_str='cuda')

def call(args):
        buf9 = empty_strided_cuda((32, 100), (1, 32), torch.bfloat16)
        triton_poi_fused_1.run(primals_2, buf9, 3200, stream=stream0)
        buf0 = empty_strided_cuda((8, 100), (100, 1), torch.bfloat16)
        extern_kernels.mm(primals_1, buf9, out=buf0)
        buf1 = empty_strided_cuda((8, ), (1, ), torch.float32)
        triton_red_fused_0.run(buf0, primals_3, buf1, 8, 100, stream=stream0)
        buf2 = torch.ops.inductor_ce.ce_fwd.default(reinterpret_tensor(buf0, (2, 4, 100), (400, 100, 1), 0), primals_3)
'''

CPP = '''
cpp_fused_0 = async_compile.cpp_pybinding(['const float*', 'float*'], r\'\'\'
extern "C"  void  kernel(const float* in_ptr0,
                       float* out_ptr0)
{
    for(int64_t x0=static_cast<int64_t>(0L); x0<static_cast<int64_t>(8L); x0+=static_cast<int64_t>(1L))
    {
        for(int64_t x1=static_cast<int64_t>(0L); x1<static_cast<int64_t>(100L); x1+=static_cast<int64_t>(16L))
        {
            if(C10_LIKELY(x1 >= static_cast<int64_t>(0) && x1 < static_cast<int64_t>(96L)))
            {
                auto tmp0 = at::vec::Vectorized<float>::loadu(in_ptr0 + static_cast<int64_t>(x1 + 100L*x0), static_cast<int64_t>(16));
            }
            if(C10_UNLIKELY(x1 >= static_cast<int64_t>(96L) && x1 < static_cast<int64_t>(100L)))
            {
                auto tmp0 = at::vec::Vectorized<float>::loadu(in_ptr0 + static_cast<int64_t>(x1 + 100L*x0), static_cast<int64_t>(4L));
            }
        }
        auto tmp5 = in_ptr0[static_cast<int64_t>(tmp4 + 100L*x0)];
        out_ptr0[static_cast<int64_t>(x0)] = tmp5;
    }
}
\'\'\')

def call(args):
        assert_size_stride(arg0_1, (8, 100), (100, 1), 'input')
        buf0 = empty_strided_cpu((8, ), (1, ), torch.float32)
        cpp_fused_0(arg0_1, buf0)
'''


def test_read_counter_on_triton_and_cpp_code():
    reads = _codegen.logits_reads(TRITON, 100)
    assert reads.loads == 2 and reads.kernels == {"triton_red_fused_0": 2}
    # the mm writes buf0 (out=) and reads buf9, a transposed (d, V) weight: neither counts
    assert reads.extern == ["torch.ops.inductor_ce.ce_fwd.default"]
    assert reads.passes == {"triton_red_fused_0": 2} and not reads.gathers
    # C++: the vectorized body and the scalar gather count; the masked tail does not
    reads = _codegen.logits_reads(CPP, 100)
    assert (reads.loads, reads.extern) == (2, [])
    assert reads.gathers == {"cpp_fused_0": 1} and str(reads) == "1 pass + 1 per-row gather"
    assert _codegen.logits_reads(CPP, 99).loads == 0
