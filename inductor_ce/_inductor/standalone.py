"""Compile a small traced function with Inductor, without Dynamo, rows symbolic.

What ``eager/kernels.py`` builds on: ``make_fx`` of a closure that calls our ops, given to
Inductor's ``compile_fx_inner`` (what compile_fx hands each graph to after AOTAutograd) with
fake example inputs whose row dimensions are symbols of a ShapeEnv of our own. No frame is
evaluated by Dynamo, so nothing here touches Dynamo's caches, its recompile limit or
``error_on_recompile``, and ``torch.compiler.reset()`` does not drop what was compiled.
What Dynamo's guards would check, the ShapeEnv's own guards (e.g. "rows x V < 2^31", under
which Inductor indexes in int32) and the logits' static sizes, strides and storage offset (a
stride of 0 or 1 is a constant of the code, as V is) are turned into one Python expression,
evaluated on every call (``Compiled.accepts``). Tensors of fixed shape (a class weight) are
traced, and passed, contiguous.
"""
from __future__ import annotations

import contextlib
import warnings
from typing import Callable, Sequence

import torch
from torch._subclasses.fake_tensor import FakeTensorMode
from torch.fx.experimental.symbolic_shapes import DimDynamic, ShapeEnv, StatelessSymbolicContext
from torch.fx.experimental.symbolic_shapes import SYMPY_INTERP  # noqa: F401  (guard eval)

from . import observe
from .cache import SaltPass


class Compiled:
    """A compiled function and the shape guards under which it is valid."""

    def __init__(self, fn: Callable, guard_code: str | None):
        self.fn = fn
        self.guard_code = guard_code
        # L["t0"] is the first argument, as ShapeEnv.produce_guards_expression names them.
        self._guard = None if guard_code is None else eval(  # noqa: S307 - our own guards
            "lambda t0: " + guard_code.replace("L['t0']", "t0"), SYMPY_INTERP)

    def accepts(self, first) -> bool:
        return self._guard is None or bool(self._guard(first))

    def __call__(self, *args):
        return self.fn(list(args))


@contextlib.contextmanager
def _own_config(salt: tuple, device_type: str):
    """Inductor settings of our compiles, whatever the user set globally: no CUDA graphs (an
    eager call must own its outputs), no freezing, no autotuning, no custom passes of the
    user's (they are for their graphs), our salt in the cache key; autocast off while
    tracing (the graph's dtypes are the call's); saved-tensor hooks of our own over the
    caller's (the trace differentiates fake tensors: torch.utils.checkpoint's hooks would
    count and keep them, and fail the call's backward)."""
    from torch._inductor import config as inductor_config

    patch = {"triton.cudagraphs": False, "freezing": False, "max_autotune": False,
             # (The generated code's size asserts also bind the row symbols it reads: torch
             # 2.14's code without them fails with a NameError.)
             "size_asserts": True,
             "max_autotune_pointwise": False, "coordinate_descent_tuning": False,
             "cpp_wrapper": False, "pre_grad_custom_pass": None,
             "joint_custom_pre_pass": None, "joint_custom_post_pass": None,
             "post_grad_custom_pre_pass": None,
             "post_grad_custom_post_pass": SaltPass(salt[0], variant=salt[1])}
    patch = {k: v for k, v in patch.items() if _has(inductor_config, k)}
    with inductor_config.patch(patch), torch.autocast(device_type, enabled=False), \
            torch.autograd.graph.saved_tensors_hooks(_same, _same):
        yield


def _same(x):
    return x


def _has(config, dotted: str) -> bool:
    obj = config
    for part in dotted.split("."):
        if not hasattr(obj, part):
            return False
        obj = getattr(obj, part)
    return True


def compile_rows_dynamic(fn: Callable, logits: torch.Tensor, rowwise: Sequence[torch.Tensor],
                         static: Sequence, salt: tuple, columns: bool = False,
                         outputs: int = 0) -> Compiled:
    """Compile ``fn(logits, *outs, *rowwise, *static)``: ``logits`` (rows..., V) with every
    row dimension symbolic (V, its last, static unless ``columns``; strides and storage
    offset symbolic where they do not follow from the sizes), ``outputs`` tensors ``outs`` of
    the logits' shape and dtype, contiguous (what ``fn`` writes, with ``copy_``), ``rowwise``
    tensors of shape rows, or of the logits' shape (a target of class probabilities; both
    contiguous, sharing the logits' row symbols), ``static`` tensors (or None) of fixed shape,
    except that with ``columns`` those of one dimension are of shape (V,) and share its
    symbol. The result is called with real tensors of the same kinds, in the same order; it
    computes no gradient, but ``fn`` may call ``torch.autograd.grad`` (of a part it makes
    differentiable itself): the graph is traced at the ATen level (``make_fx``), where a
    backward is ops like any other."""
    from torch._guards import TracingContext, tracing
    from torch._inductor.compile_fx import compile_fx_inner
    from torch._inductor.decomposition import select_decomp_table
    from torch.fx.experimental.proxy_tensor import make_fx

    shape_env = ShapeEnv(duck_shape=False)  # no two dims share a symbol because equal once
    fake_mode = FakeTensorMode(shape_env=shape_env)
    dims = [DimDynamic.DYNAMIC] * (logits.dim() - 1) + \
        [DimDynamic.DYNAMIC if columns else DimDynamic.STATIC]
    with torch.inference_mode(False), torch.no_grad():
        fake_x = fake_mode.from_tensor(logits.detach(), symbolic_context=StatelessSymbolicContext(
            dynamic_sizes=dims))
        with fake_mode:
            fake_outs = [torch.empty(fake_x.shape, dtype=fake_x.dtype, device=fake_x.device)
                         for _ in range(outputs)]
            fake_rows = [torch.empty(fake_x.shape if r.dim() == fake_x.dim() else
                                     fake_x.shape[:-1], dtype=r.dtype, device=r.device)
                         for r in rowwise]

        def as_fake(s):
            if s is None:
                return None
            if columns and s.dim() == 1:   # one per column (a 0-d one, a softcap, as it is)
                with fake_mode:
                    return torch.empty(fake_x.shape[-1:], dtype=s.dtype, device=s.device)
            return fake_mode.from_tensor(s.detach().contiguous(), static_shapes=True)
        fake_static = [as_fake(s) for s in static]
        args = [fake_x, *fake_outs, *fake_rows, *[s for s in fake_static if s is not None]]
        present = [s is not None for s in static]

        n = outputs + len(rowwise)

        def traced(*tensors):
            it = iter(tensors[1 + n:])
            return fn(tensors[0], *tensors[1:1 + n], *[next(it) if p else None for p in present])

        # The graph Inductor's own compile_fx would hand its inner compiler after
        # AOTAutograd: ATen ops, Inductor's decompositions applied, in-place updates of
        # inputs as copy_ (make_fx finds our fake mode, and with it our ShapeEnv, on the
        # inputs). Calling the compiled graph directly skips AOTAutograd's runtime wrappers
        # and Dynamo's "disable" frame: most of a small call's host time.
        with _own_config(salt, logits.device.type), observe.unobserved():
            gm = make_fx(traced, tracing_mode="fake", decomposition_table=select_decomp_table())(
                *args)
            with tracing(TracingContext(fake_mode)), warnings.catch_warnings():
                # (The C++ backend's notice on a kernel that reads bf16 and fp16, e.g. bf16
                # logits and fp16 class weights: about our generated code, not the user's.)
                warnings.filterwarnings("ignore", "bf16 and fp16 are mixed")
                compiled = compile_fx_inner(gm, args)
    # (ignore_static=False: also the sizes, strides and offset that are constants of the
    # code, which Dynamo's tensor guards would check: a row stride of 0, an expanded input,
    # compiles apart from a strided one.)
    guard_code = shape_env.produce_guards_expression([fake_x], ignore_static=False)
    return Compiled(lambda real: compiled(_present(real, present, n)), guard_code)


def _present(args, present, n_rowwise):
    """The call's arguments without the static ones that are None (not graph inputs), those
    contiguous (as traced: their strides are constants of the code)."""
    head, tail = args[:1 + n_rowwise], args[1 + n_rowwise:]
    return head + [a.contiguous() for a, p in zip(tail, present) if p]
