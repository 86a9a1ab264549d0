"""The layering rules of DESIGN.md, checked on the source text (AST, nothing imported).

- no import cycle among ``wargrid.*`` modules, counting imports inside functions;
- no private name (``_x``) used outside the package that holds it, except the
  shared infrastructure at the top of the library;
- capability packages never import ``wargrid.map`` (``io`` sits above the map: its readers build maps);
- only ``grids/`` decodes the tile shape: elsewhere ``parity_mode`` may be
  handed to a kernel, never compared or computed with, and no code takes
  ``x & 1`` of a cell coordinate.
"""

from __future__ import annotations

import ast
import functools
from dataclasses import dataclass, field
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"

# Private modules at the top of the library that every package may use.
SHARED_PRIVATE = {"wargrid._display", "wargrid._deprecation", "wargrid._scratch", "wargrid._validate", "wargrid._files", "wargrid._budget", "wargrid._xml", "wargrid._extras", "wargrid._progress", "wargrid._kernels", "wargrid._kernels._jit"}

CAPABILITIES = ("movement", "sight", "territory", "rts", "tactics", "grids", "render")


COORD_NAMES = {"x", "y", "xs", "ys", "xi", "yi", "col", "row", "cols", "rows", "nx", "ny"}


@dataclass
class Module:
    name: str
    is_pkg: bool
    tree: ast.Module
    imports: list[tuple[str, str | None, int]] = field(default_factory=list)  # (module, name or None, line)

    @property
    def package(self) -> str:
        return self.name if self.is_pkg else self.name.rpartition(".")[0]


def _load(src: Path = SRC) -> dict[str, Module]:
    mods: dict[str, Module] = {}
    for path in sorted((src / "wargrid").rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        is_pkg = parts[-1] == "__init__"
        if is_pkg:
            parts = parts[:-1]
        name = ".".join(parts)
        mods[name] = Module(name, is_pkg, ast.parse(path.read_text(encoding="utf-8"), str(path)))
    for m in mods.values():
        for node in ast.walk(m.tree):
            if isinstance(node, ast.Import):
                m.imports += [(a.name, None, node.lineno) for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = m.name.split(".") if m.is_pkg else m.name.split(".")[:-1]
                base = base[: len(base) - node.level + 1] if node.level else []
                target = ".".join(base + ([node.module] if node.module else []))
                for a in node.names:
                    sub = f"{target}.{a.name}"
                    m.imports.append((sub, None, node.lineno) if sub in mods else (target, a.name, node.lineno))
    return mods


@functools.cache
def modules() -> dict[str, Module]:
    """The library's modules, parsed once in the process that runs these tests (not at collection, in every one)."""
    return _load()


def import_graph(mods: dict[str, Module]) -> dict[str, set[str]]:
    """Module -> the ``wargrid`` modules it imports anywhere in its text."""
    return {m.name: {t for t, _, _ in m.imports if t in mods} for m in mods.values()}


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components with more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    out: list[frozenset[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on_stack:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = set()
                while True:
                    w = stack.pop()
                    on_stack.discard(w)
                    comp.add(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(frozenset(comp))
    return out


def private_imports(mods: dict[str, Module]) -> list[str]:
    """``module:line -> target`` for every private part of an import used outside its package."""
    bad = []
    for m in mods.values():
        for target, name, line in m.imports:
            if not target.startswith("wargrid"):
                continue
            parts = target.split(".") + ([name] if name else [])
            for i, part in enumerate(parts):
                if not part.startswith("_") or part.startswith("__"):
                    continue
                prefix = ".".join(parts[: i + 1])
                owner = ".".join(parts[:i])
                if owner in mods and not mods[owner].is_pkg:
                    owner = owner.rpartition(".")[0]  # a private name in a module belongs to its package
                inside = m.name == prefix or m.name.startswith(prefix + ".")
                if m.package != owner and not inside and prefix not in SHARED_PRIVATE:
                    bad.append(f"{m.name}:{line} -> {'.'.join(parts)}")
    return bad


def private_attributes(mods: dict[str, Module]) -> list[str]:
    """``obj._x`` (``obj`` not ``self``/``cls``) where ``_x`` is defined only in other packages."""
    defined: dict[str, set[str]] = {}
    uses = []
    for m in mods.values():
        for n in ast.walk(m.tree):
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                defined.setdefault(n.name, set()).add(m.package)
            elif isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store):
                defined.setdefault(n.id, set()).add(m.package)
            elif isinstance(n, ast.Attribute) and n.attr.startswith("_") and not n.attr.startswith("__"):
                if isinstance(n.ctx, ast.Store):
                    defined.setdefault(n.attr, set()).add(m.package)
                elif not (isinstance(n.value, ast.Name) and n.value.id in ("self", "cls")):
                    uses.append((m, n))
    return [
        f"{m.name}:{n.lineno} -> {ast.unparse(n)}"
        for m, n in uses
        if n.attr in defined and m.package not in defined[n.attr]  # names defined nowhere here belong to other libraries
    ]


def map_imports(mods: dict[str, Module]) -> list[str]:
    return [
        f"{m.name}:{line}"
        for m in mods.values()
        if m.name.split(".")[1:2] and m.name.split(".")[1] in CAPABILITIES
        for target, _, line in m.imports
        if target == "wargrid.map" or target.startswith("wargrid.map.")
    ]


def _parents(tree: ast.AST) -> dict[ast.AST, ast.AST]:
    return {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}


def tile_shape_decoding(mods: dict[str, Module]) -> list[str]:
    """Reads of ``parity_mode`` other than handing it on to a kernel, and ``coordinate & 1``, outside ``grids/``."""
    bad = []
    for m in mods.values():
        if m.name.startswith(("wargrid.grids", "wargrid._kernels")):
            continue
        parents = _parents(m.tree)
        for n in ast.walk(m.tree):
            if isinstance(n, ast.Attribute) and n.attr == "parity_mode":
                up = parents.get(n)
                passed_on = isinstance(up, (ast.Call, ast.Tuple, ast.List, ast.keyword)) and not (
                    isinstance(up, ast.Call) and up.func is n
                )
                if not passed_on:
                    bad.append(f"{m.name}:{n.lineno} reads parity_mode: {ast.unparse(up) if up else ''}")
            elif isinstance(n, ast.BinOp) and isinstance(n.op, ast.BitAnd):
                sides = (n.left, n.right)
                one = any(isinstance(s, ast.Constant) and s.value == 1 for s in sides)
                coord = any(
                    (isinstance(s, ast.Name) and s.id in COORD_NAMES)
                    or (isinstance(s, ast.Subscript) and isinstance(s.value, ast.Name) and s.value.id == "cell")
                    for s in sides
                )
                if one and coord:
                    bad.append(f"{m.name}:{n.lineno} takes the parity of a coordinate: {ast.unparse(n)}")
    return bad


LAYERS: tuple[frozenset[str], ...] = tuple(frozenset(layer.split()) for layer in (
    "errors",
    "_validate _budget _progress _extras _files _xml _display _deprecation _scratch",
    "_kernels",
    "terrain",
    "grids",
    "costs",
    "movement sight territory",
    "rts",
    "tactics",
    "render",
    "map",
    "io generate scenarios",
    "warmup survey",
    "serve",
    "cli __main__",
))
"""The library's layers, lowest first: a package imports only from its own layer or lower ones.

This is DESIGN.md's stack (grids and kernels at the bottom, the command line and
playground at the top) with every top-level package and module placed once."""


def _package(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def package_graph(mods: dict[str, Module]) -> dict[str, set[str]]:
    """Top-level package -> the other top-level packages it imports, at module level or inside functions."""
    out: dict[str, set[str]] = {}
    for m in mods.values():
        src = _package(m.name)
        if not src:
            continue  # ``wargrid/__init__.py`` gathers the public names of every layer
        out.setdefault(src, set())
        for target, _, _ in m.imports:
            dst = _package(target)
            if target.startswith("wargrid.") and dst and dst != src:
                out[src].add(dst)
    return out


def layer_violations(mods: dict[str, Module]) -> list[str]:
    """``package -> package`` for every import from a higher layer (or of a package no layer names)."""
    rank = {name: i for i, layer in enumerate(LAYERS) for name in layer}
    bad = []
    for src, targets in sorted(package_graph(mods).items()):
        for dst in sorted(targets):
            if src not in rank or dst not in rank or rank[dst] > rank[src]:
                bad.append(f"{src} -> {dst}")
    return bad


BUNDLE_NAMES = {"upward", "qs", "ti", "tb", "info", "arrays", "kernel_args", "kernel_bundle", "topo_bundle", "topo_args",
                "bundle", "scratch", "state"}
"""Names the kernel argument bundles go by in Python (``Topology.kernel_bundle``, ``SearchState.arrays``, the
prepared structure's records, ...)."""


def bundle_index_reads(trees: dict[str, ast.AST]) -> list[str]:
    """``bundle[3]``-style reads (a literal index into a name the bundles go by), outside the kernels.

    A bundle crossing the Python/kernel line has named fields; Python and the tests read them by name."""
    bad = []
    for where, tree in trees.items():
        for n in ast.walk(tree):
            if not (isinstance(n, ast.Subscript) and isinstance(n.slice, ast.Constant) and isinstance(n.slice.value, int)):
                continue
            v = n.value
            name = v.id if isinstance(v, ast.Name) else v.attr if isinstance(v, ast.Attribute) else None
            if name in BUNDLE_NAMES:
                bad.append(f"{where}:{n.lineno}: {ast.unparse(n)}")
    return bad


def _python_outside_kernels() -> dict[str, ast.AST]:
    tests = Path(__file__).resolve().parent
    trees: dict[str, ast.AST] = {m.name: m.tree for m in modules().values() if not m.name.startswith("wargrid._kernels")}
    for path in sorted(tests.rglob("*.py")):
        trees[str(path.relative_to(tests.parent))] = ast.parse(path.read_text(encoding="utf-8"), str(path))
    return trees


# -- the rules ----------------------------------------------------------------------


def test_no_import_cycles() -> None:
    found = set(cycles(import_graph(modules())))
    assert found == set()


def test_no_import_cycles_between_packages() -> None:
    """Counting imports inside functions: a function-level import is a dependency all the same."""
    assert cycles(package_graph(modules())) == []


def test_every_package_imports_only_its_layer_or_lower_ones() -> None:
    assert layer_violations(modules()) == []


def test_kernel_bundles_are_read_by_name_outside_the_kernels() -> None:
    assert bundle_index_reads(_python_outside_kernels()) == []


def test_bundle_index_checker_finds_one() -> None:
    # the positional reads the checker must find, written in pieces so the project's source holds none itself
    upward, tb = "p.upward" + "[10]", "tb" + "[3]"
    tree = ast.parse(f"def f(p, t):\n    a = {upward}\n    b = t.kernel_bundle.step\n    return {tb}, xs[0]\n")
    assert bundle_index_reads({"m": tree}) == [f"m:2: {upward}", f"m:4: {tb}"]


def test_no_private_imports_across_packages() -> None:
    assert private_imports(modules()) == []


def test_no_private_attributes_across_packages() -> None:
    assert private_attributes(modules()) == []


def test_capabilities_never_import_the_map() -> None:
    assert map_imports(modules()) == []


def test_only_grids_decode_the_tile_shape() -> None:
    assert tile_shape_decoding(modules()) == []


# -- the checkers catch what they should ---------------------------------------------------


def _fake(tmp_path: Path, files: dict[str, str]) -> dict[str, Module]:
    for rel, text in files.items():
        p = tmp_path / "wargrid" / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text, encoding="utf-8")
    return _load(tmp_path)


def test_checkers_find_planted_faults(tmp_path: Path) -> None:
    mods = _fake(
        tmp_path,
        {
            "__init__.py": "",
            "map.py": "",
            "_validate.py": "def check(v): return v\n",
            "a/__init__.py": "",
            "a/one.py": "def f():\n    from .two import g\n    return g\n",
            "a/two.py": "from .one import f\n\ndef _hidden(): pass\n",
            "b/__init__.py": "",
            "b/_inner.py": "def helper(): pass\n",
            "render/__init__.py": "",
            "render/draw.py": (
                "from .._validate import check\nfrom ..b._inner import helper\nfrom ..a.two import _hidden\n"
                "from .. import map\n"
                "def par(t, xs, cell):\n"
                "    k(t.parity_mode)\n"
                "    return (xs & 1) if t.parity_mode == 1 else cell[1] & 1\n"
                "def peek(m):\n    return m._hidden\n"
            ),
        },
    )
    assert cycles(import_graph(mods)) == [frozenset({"wargrid.a.one", "wargrid.a.two"})]
    assert private_imports(mods) == ["wargrid.render.draw:2 -> wargrid.b._inner.helper", "wargrid.render.draw:3 -> wargrid.a.two._hidden"]
    assert private_attributes(mods) == ["wargrid.render.draw:9 -> m._hidden"]
    assert map_imports(mods) == ["wargrid.render.draw:4"]
    found = tile_shape_decoding(mods)
    assert len(found) == 3 and all(f.startswith("wargrid.render.draw:7") for f in found)


def test_package_checkers_see_imports_inside_functions(tmp_path: Path) -> None:
    mods = _fake(
        tmp_path,
        {
            "__init__.py": "",
            "rts/__init__.py": "",
            "rts/sim.py": "def f():\n    from ..tactics.turning import g\n    return g\n",
            "tactics/__init__.py": "",
            "tactics/turning.py": "from ..rts import sim\n\ndef g(): pass\n",
            "grids/__init__.py": "",
            "grids/a.py": "def h():\n    import wargrid.map\n",
            "map.py": "",
        },
    )
    assert cycles(package_graph(mods)) == [frozenset({"rts", "tactics"})]
    assert layer_violations(mods) == ["grids -> map", "rts -> tactics"]



BUILTIN_RAISES = {"ValueError", "TypeError", "IndexError", "KeyError", "RuntimeError", "Exception"}


def builtin_raises(modules: dict[str, Module]) -> list[str]:
    """``raise ValueError(...)`` and friends outside the kernels: errors raised on purpose must derive from WargridError."""
    bad = []
    for m in modules.values():
        if m.name.startswith("wargrid._kernels"):
            continue
        for node in ast.walk(m.tree):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call):
                f = node.exc.func
                if isinstance(f, ast.Name) and f.id in BUILTIN_RAISES:
                    bad.append(f"{m.name}:{node.lineno}: raise {f.id}")
    return bad


def test_errors_raised_on_purpose_derive_from_wargrid_error() -> None:
    assert builtin_raises(modules()) == []


def test_builtin_raise_checker_catches_one(tmp_path: Path) -> None:
    mods = _fake(tmp_path, {"__init__.py": "", "movement/__init__.py": "", "movement/x.py": "def f():\n    raise ValueError('no')\n"})
    assert builtin_raises(mods) == ["wargrid.movement.x:2: raise ValueError"]



PREPARED_PATH_CODE = ("wargrid/movement/prepared.py", "wargrid/movement/cch.py", "wargrid/_kernels/movement/cch/*.py")
PREPARED_PATH_LINES = 2000
"""Issue 33's bound on the prepared-path code, Python and kernels (docs/design/prepared.md, "Size of the prepared-path
code and its tuning constants"): what a change adds there, it takes away there or moves out."""


def test_the_prepared_path_code_stays_within_its_lines():
    files = sorted({f for pattern in PREPARED_PATH_CODE for f in SRC.glob(pattern)})
    assert len(files) >= 3
    counts = {str(f.relative_to(SRC)): f.read_bytes().count(b"\n") for f in files}
    assert sum(counts.values()) <= PREPARED_PATH_LINES, counts
