"""The package's architecture, read from its sources with ``ast``: dependencies point down
(no import cycle between its modules) and every private torch name is used from
``_inductor/`` only. Neither test imports the package."""
from __future__ import annotations

import ast
import os

import pytest

ROOT = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "inductor_ce")


def _modules() -> dict:
    """dotted module name -> (path, whether it is a package's __init__)."""
    found = {}
    for folder, dirs, files in os.walk(ROOT):
        dirs[:] = [d for d in dirs if d != "__pycache__"]
        for name in files:
            if name.endswith(".py"):
                path = os.path.join(folder, name)
                rel = os.path.relpath(path, os.path.dirname(ROOT))[:-3].split(os.sep)
                init = rel[-1] == "__init__"
                found[".".join(rel[:-1] if init else rel)] = (path, init)
    return found


MODULES = _modules()


def _imports(name: str) -> set:
    """The package's modules that ``name`` imports anywhere in its source (a lazy import in a
    function counts: it is the same dependency, only deferred)."""
    path, init = MODULES[name]
    package = name if init else name.rpartition(".")[0]
    out = set()
    for node in ast.walk(ast.parse(open(path).read(), path)):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")
                base = base[:len(base) - node.level + 1]
                base = ".".join(base + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            for a in node.names:
                out.add(f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base)
    # (An import of a.b.c also runs a and a.b's __init__: not counted, or every module would
    # sit in a cycle with the package's __init__, which imports the layers.)
    return {m for m in out if m in MODULES and m != name}


def _cycle(graph: dict):
    """One cycle of ``graph`` as a list of nodes, or None (depth-first search)."""
    state, stack = {}, []

    def visit(n):
        state[n] = "open"
        stack.append(n)
        for m in sorted(graph[n]):
            if state.get(m) == "open":
                return stack[stack.index(m):] + [m]
            if m not in state and (found := visit(m)):
                return found
        stack.pop()
        state[n] = "done"
        return None

    for n in sorted(graph):
        if n not in state and (found := visit(n)):
            return found
    return None


def test_no_import_cycle():
    graph = {name: _imports(name) for name in MODULES}
    assert graph["inductor_ce"], "the graph builder found no imports: it is broken"
    cycle = _cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle)


def test_the_op_imports_nothing_above_it():
    """op/ is the bottom layer: it may use the private-API shims (``_inductor``), nothing
    else of ours; the backends register themselves on it."""
    for name in MODULES:
        if name.startswith("inductor_ce.op"):
            above = {m for m in _imports(name)
                     if not m.startswith(("inductor_ce.op", "inductor_ce._inductor"))}
            assert not above, f"{name} imports {sorted(above)}"


# The layers of docs/architecture.md, bottom-up; a module may import its own layer and those
# below. Beside them: _version and _salt (no layer), _log (over _inductor), lowering_soft
# (beside lowering), and on top codegen, demo and the transformers alias, which import the
# package as a user does.
LAYERS = ["_inductor", "op", "lowering", "eager", "linear", "parallel", "functional",
          "integrations", "codegen"]
RANKS = {"_version": -1, "_salt": -1, "_log": 0, "lowering_soft": 2, "demo": 8,
         "transformers": 8}


def _rank(module: str) -> int:
    parts = module.split(".")
    if len(parts) == 1:
        return len(LAYERS)          # the package's __init__, above every layer
    top = parts[1]
    assert top in RANKS or top in LAYERS, f"{module}: in no layer of this test (add it)"
    return RANKS.get(top, LAYERS.index(top) if top in LAYERS else None)


def test_dependencies_point_down():
    for name in MODULES:
        for m in _imports(name):
            if m == "inductor_ce" and _rank(name) == len(LAYERS) - 1:
                continue            # codegen, demo: the package's public names
            assert _rank(m) <= _rank(name), f"{name} imports {m}, a layer above it"


def test_cycle_finder_finds_a_cycle():
    assert _cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _cycle({"a": {"b"}, "b": set()}) is None


def _private_torch_names(source: str, path: str = "<test>") -> list:
    """Every use of a private torch name in ``source``: an import of a module or name with
    a component that starts with one underscore (``torch._C``, ``torch.distributed.
    _functional_collectives``, ``from torch import _C``), and an attribute chain rooted at a
    name bound to torch or one of its modules that has such a component
    (``torch._C._nn.linear``, ``forward_ad._current_level``). Dunders are public."""
    private = lambda part: part.startswith("_") and not part.startswith("__")  # noqa: E731
    found, torch_names = [], set()
    tree = ast.parse(source, path)
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                if a.name.split(".")[0] == "torch":
                    if any(map(private, a.name.split("."))):
                        found.append(f"{path}:{node.lineno}: import {a.name}")
                    torch_names.add(a.asname or "torch")
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module and \
                node.module.split(".")[0] == "torch":
            for a in node.names:
                if any(map(private, node.module.split("."))) or private(a.name):
                    found.append(f"{path}:{node.lineno}: from {node.module} import {a.name}")
                torch_names.add(a.asname or a.name)
    inner_ones = {id(n.value) for n in ast.walk(tree) if isinstance(n, ast.Attribute)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and id(node) not in inner_ones:   # whole chains
            chain, inner = [], node
            while isinstance(inner, ast.Attribute):
                chain.append(inner.attr)
                inner = inner.value
            if isinstance(inner, ast.Name) and inner.id in torch_names and \
                    any(map(private, chain)):
                found.append(f"{path}:{node.lineno}: {inner.id}.{'.'.join(reversed(chain))}")
    return sorted(set(found))


def test_private_torch_api_only_in_the_boundary():
    boundary = os.path.join(ROOT, "_inductor") + os.sep
    found = []
    for name, (path, _) in MODULES.items():
        if not path.startswith(boundary):
            found += _private_torch_names(open(path).read(), os.path.relpath(path, ROOT))
    assert not found, "private torch API outside _inductor/:\n" + "\n".join(found)


@pytest.mark.parametrize("source, hits", [
    ("import torch\nx = torch._C._nn.linear", 1),
    ("import torch.distributed._functional_collectives as funcol", 1),
    ("from torch._C import _len_torch_dispatch_stack", 1),
    ("from torch.autograd import forward_ad\nforward_ad._current_level", 1),
    ("from torch import _assert_async", 1),
    ("import torch\nx = torch.ops.aten.linear.default\ny = torch.__version__", 0),
    ("import torch.nn.functional as F\nF.cross_entropy", 0),
    ("x = object()\nx._private", 0),
])
def test_private_name_finder(source, hits):
    assert len(_private_torch_names(source)) == hits, _private_torch_names(source)


def test_lines_fit_in_100_columns():
    """The package's sources keep to 100 columns, so that they read side by side with their
    docs and generated code."""
    long = [f"{os.path.relpath(path, os.path.dirname(ROOT))}:{n}"
            for path, _ in MODULES.values()
            for n, line in enumerate(open(path).read().split("\n"), 1) if len(line) > 100]
    assert not long, long
