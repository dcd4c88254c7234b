"""The README's main command (``python -m inductor_ce.demo``) and the code-reading helper it
uses to count reads of the logits."""
import importlib.util
import re

import pytest
import torch
import torch.nn.functional as F

from inductor_ce import _codegen, demo, gpt


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


def _lowering_and_triton() -> bool:
    return all(importlib.util.find_spec(m) for m in ("inductor_ce.lowering", "triton"))


@pytest.mark.slow
def test_demo_runs_and_its_curves_agree(monkeypatch, capsys, tmp_path):
    """The whole demo on a tiny GPT (the real sizes take ~2 minutes)."""
    tiny = dict(cfg=gpt.GPTConfig(vocab_size=320, block_size=16, n_layer=1, n_head=2,
                                  n_embd=32), batch=4, steps=3, amp=False)
    monkeypatch.setitem(demo.SIZES, "cpu", tiny)
    assert demo.main(["--png", str(tmp_path / "curves.png")]) == 0
    out = capsys.readouterr().out
    worst = float(re.search(r"largest relative difference of the two loss curves: (\S+)",
                            out)[1])
    assert worst <= 1e-5
    if _lowering_and_triton():
        # (stock's Triton code at this size is one online-softmax pass too: two exponentials
        # per element, which is where it loses on a GPU, not in bytes)
        assert re.search(r"Triton code .*: stock \d+ pass(es)? \+ 1 per-row gather, "
                         r"inductor_ce 1 pass \+ 1 per-row gather\n", out), out
    have_mpl = importlib.util.find_spec("matplotlib") is not None
    assert (tmp_path / "curves.png").exists() == have_mpl
