"""The checks of the loss's scalar options, which need no torch: the codegen command line
runs them before it imports torch; ``checks.check_options`` is this one for tensors.
"""
from __future__ import annotations

import operator

# The kernels take the softcap and the temperature in float32 and divide by them: each must be
# a finite float32 whose reciprocal is finite too (a normal number: FLOAT32_TINY to
# FLOAT32_MAX, written as literals in the checks), else a cap of 1e39 would be inf there and
# every loss nan.
FLOAT32_MAX = 3.4028234663852886e38
FLOAT32_TINY = 1.1754943508222875e-38

# Under torch.compile Dynamo re-checks, on every call, each module global and builtin that the
# traced path reads, and a step of few rows is bound by the host. So the checks below compare
# literals with the values, not module-level tuples.


def check_options(ignore_index, reduction, label_smoothing, z_loss, softcap,
                  return_lse=False, tensor_type=()):
    """TypeError / ValueError naming the option, as F.cross_entropy where it has one. (Type
    tests are literal ones where they can be: ``x is True`` reads no builtin, ``bool`` would
    be one more guard.) ``tensor_type``: the tensor class that ``label_smoothing`` and
    ``z_loss`` may also be (``checks`` passes torch.Tensor, and checks such a tensor's shape
    and value itself; this module imports no torch). Returns (ignore_index, reduction,
    label_smoothing, z_loss, softcap) as the loss uses them: a numpy scalar (which
    F.cross_entropy's argument parser takes) becomes the Python number of its value, and
    torch's deprecated reduction "elementwise_mean" becomes "mean", with torch's warning."""
    # (First: F.cross_entropy's positional order puts its size_average here.) bool is an int to
    # Python; F.cross_entropy refuses it as an ignore_index.
    if ignore_index is True or ignore_index is False or not isinstance(ignore_index, int):
        number = _integer(ignore_index)
        if number is None:
            raise TypeError(f"ignore_index must be an int, got {type(ignore_index).__name__}"
                            + _POSITIONAL * (ignore_index is None or ignore_index is True
                                             or ignore_index is False))
        ignore_index = number
    if reduction not in ("none", "mean", "sum"):
        if reduction != "elementwise_mean":
            raise ValueError(
                f"reduction must be one of ('none', 'mean', 'sum'), got {reduction!r}")
        import warnings
        warnings.warn("reduction='elementwise_mean' is deprecated. Please use "
                      "reduction='mean' instead.", stacklevel=4)
        reduction = "mean"
    if not -2**63 <= ignore_index < 2**63:
        raise ValueError(f"ignore_index must fit in int64, got {ignore_index}")
    # F.cross_entropy takes a float, an int, a bool or a one-element tensor here.
    if not isinstance(label_smoothing, (int, float)):
        label_smoothing = _real(label_smoothing)
    if not isinstance(label_smoothing, (int, float)):
        if not isinstance(label_smoothing, tensor_type):
            raise TypeError(f"label_smoothing must be a float or a one-element tensor, got "
                            f"{type(label_smoothing).__name__}")
    elif not (0.0 <= label_smoothing <= 1.0):  # (also nan, which F.cross_entropy ignores)
        raise ValueError(f"label_smoothing must be in [0, 1], got {label_smoothing}")
    # Comparisons, not math.isfinite(float(v)): under torch.compile(dynamic=True) Python floats
    # become symbolic and math.isfinite on them is a graph break. False for nan.
    inf = float("inf")
    if z_loss is not True and z_loss is not False and not isinstance(z_loss, (int, float)):
        z_loss = _real(z_loss)
    if z_loss is True or z_loss is False or not isinstance(z_loss, (int, float)):
        if not isinstance(z_loss, tensor_type):
            raise TypeError(f"z_loss must be a float or a one-element floating-point tensor, "
                            f"got {type(z_loss).__name__}")
    elif not (-inf < z_loss < inf and z_loss >= 0.0):
        raise ValueError(f"z_loss must be a finite number >= 0, got {z_loss}")
    if softcap is not None and (softcap is True or softcap is False
                                or not isinstance(softcap, (int, float))):
        softcap = _real(softcap)
        if softcap is True or softcap is False or not isinstance(softcap, (int, float)):
            raise TypeError(f"softcap must be None or a float, got {type(softcap).__name__}")
    if softcap is not None and not (1.1754943508222875e-38 <= softcap <= 3.4028234663852886e38):
        raise ValueError(f"softcap must be None or a number in [{FLOAT32_TINY:.4g}, "
                         f"{FLOAT32_MAX:.4g}] (finite and > 0 in float32), got {softcap}")
    if return_lse is not True and return_lse is not False:
        raise TypeError(f"return_lse must be a bool, got {type(return_lse).__name__}")
    return ignore_index, reduction, label_smoothing, z_loss, softcap


def legacy_reduction(size_average, reduce, warn: bool = True) -> str:
    """The reduction of torch's deprecated ``size_average`` / ``reduce`` arguments (None:
    True), with torch's deprecation warning if ``warn`` (which Dynamo cannot trace):
    torch.nn._reduction.legacy_get_string's rule, written here (Dynamo, tracing a call of
    torch's from our code, would put it in the graph, where a string cannot be; fullgraph=True
    then fails)."""
    if size_average is None:
        size_average = True
    if reduce is None:
        reduce = True
    reduction = "mean" if size_average and reduce else "sum" if reduce else "none"
    if warn:
        import warnings
        warnings.warn(f"size_average and reduce args will be deprecated, please use "
                      f"reduction='{reduction}' instead.", stacklevel=3)
    return reduction


# A None or bool where ignore_index stands: likely F.cross_entropy's positional order.
_POSITIONAL = (" (the positional order is (input, target, weight, ignore_index, reduction, "
               "label_smoothing), F.cross_entropy's without its deprecated size_average and "
               "reduce, which are keyword-only here)")


def _numpy_scalar(value) -> bool:
    # (numpy is not imported: a numpy scalar's class says where it comes from.)
    return type(value).__module__ == "numpy" and hasattr(value, "dtype") and \
        getattr(value, "shape", None) == ()


def _integer(value):
    """An integer-like value that F.cross_entropy's argument parser takes (a numpy integer,
    a one-element integer tensor: their ``__index__``) as an int; None for anything else (a
    bool, a float, a floating-point tensor)."""
    if value is None or value is True or value is False or isinstance(value, float) or \
            not hasattr(type(value), "__index__") or type(value).__name__ in ("bool", "bool_"):
        return None
    try:
        return operator.index(value)
    except (TypeError, RuntimeError, ValueError):
        return None


def _real(value):
    """A numpy integer or floating-point scalar (not a bool) as a float; anything else as it
    is (for the checks to name)."""
    if not _numpy_scalar(value) or value.dtype.kind not in "iuf":
        return value
    return float(value)


def asks_full_form(temperature, return_entropy, return_accuracy) -> bool:
    """Whether a call takes the full form (a temperature, the entropy or the accuracy). (A
    temperature of True is a bool, 1 to Python, and one that is no number, a tensor say,
    takes the full form too: its checks refuse them, by name.)"""
    if not isinstance(temperature, (int, float)):
        temperature = _real(temperature)
        if not isinstance(temperature, (int, float)):
            return True
    return (temperature != 1.0 or temperature is True or return_entropy is not False
            or return_accuracy is not False)


def check_full_options(temperature, return_entropy, return_accuracy):
    """The options of the full form: a temperature (a number > 0, finite) and the two flags.
    Returns the temperature as a Python number (a numpy scalar's value)."""
    if temperature is not True and temperature is not False and \
            not isinstance(temperature, (int, float)):
        temperature = _real(temperature)
    if temperature is True or temperature is False or not isinstance(temperature, (int, float)):
        raise TypeError(f"temperature must be a float, got {type(temperature).__name__}")
    if not (1.1754943508222875e-38 <= temperature <= 3.4028234663852886e38):
        raise ValueError(f"temperature must be a number in [{FLOAT32_TINY:.4g}, "
                         f"{FLOAT32_MAX:.4g}] (finite and > 0 in float32), got {temperature}")
    for name, flag in (("return_entropy", return_entropy), ("return_accuracy", return_accuracy)):
        if flag is not True and flag is not False:
            raise TypeError(f"{name} must be a bool, got {type(flag).__name__}")
    return temperature
