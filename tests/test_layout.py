"""The package's layout keeps its one-way rule: no import from a floor to one above it, no circle of files.

The floors are the ones the package's docstring lists (`bactree/__init__.py`),
read from it here, so the docs and the rule cannot drift apart. Every import
counts: at the top of a file, inside a function, under `if TYPE_CHECKING`.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import networkx as nx
import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "bactree"


def module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules(root: Path) -> dict[str, Path]:
    return {module_name(path, root): path for path in sorted(root.rglob("*.py"))}


def imports(name: str, path: Path, known: set[str]) -> set[str]:
    """The package's modules that `path` (module `name`) imports, anywhere in the file."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    top = name.split(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            if target.split(".")[0] != top:
                continue
            for alias in node.names:
                submodule = f"{target}.{alias.name}"
                found.add(submodule if submodule in known else target)
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names if alias.name.split(".")[0] == top)
    return found - {name}


def floors_of(docstring: str) -> list[list[str]]:
    """The floors the docstring lists, top first: each a list of the package's direct children."""
    block = docstring.split("from top to bottom", 1)[1]
    rows = re.findall(r"^    [a-z ]+?  +([a-z_, ]+)$", block, flags=re.M)
    return [[child.strip() for child in row.split(",")] for row in rows]


def layout_faults(root: Path, floors: list[list[str]]) -> list[str]:
    """Every import that runs up a floor, every module on no floor, and every circle of files."""
    known = modules(root)
    floor_of = {child: level for level, row in enumerate(floors) for child in row}
    top = root.name
    faults = []
    graph = nx.DiGraph()

    def floor(module: str) -> int | None:
        child = module.split(".")[1] if "." in module else None
        if child in (None, "__main__"):
            return 0  # the package's facade (`__version__`, lazy `analyse`) and `python -m`: the command line's
        return floor_of.get(child)

    for name, path in known.items():
        if name == top or name.startswith(f"{top}.trees"):
            continue
        if floor(name) is None:
            faults.append(f"{name} is on no floor")
            continue
        for target in imports(name, path, set(known)):
            graph.add_edge(name, target)
            if floor(target) is not None and floor(target) < floor(name):
                faults.append(f"{name} (floor {floor(name)}) imports {target} (floor {floor(target)}), a floor above")
    for component in nx.strongly_connected_components(graph):
        if len(component) > 1:
            faults.append("circle of files: " + ", ".join(sorted(component)))
    return sorted(faults)


def test_the_package_keeps_its_floors_and_has_no_circles() -> None:
    docstring = ast.get_docstring(ast.parse((PACKAGE / "__init__.py").read_text())) or ""
    floors = floors_of(docstring)
    assert [row[0] for row in floors] == ["cli", "pipeline", "coach", "search", "treefile"]
    children = {path.stem if path.is_file() else path.name for path in PACKAGE.iterdir()
                if (path.suffix == ".py" and path.stem not in ("__init__", "__main__")) or (path / "__init__.py").is_file()}
    assert children - {"trees"} <= {child for row in floors for child in row}
    assert layout_faults(PACKAGE, floors) == []


def write_package(root: Path, files: dict[str, str]) -> Path:
    for name, text in files.items():
        path = root / "pkg" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    return root / "pkg"


@pytest.mark.parametrize(
    ("files", "fault"),
    [
        ({"low.py": "from .high import x\n", "high.py": "x = 1\n"}, "pkg.low (floor 1) imports pkg.high (floor 0), a floor above"),
        ({"low.py": "def f():\n    from . import high\n", "high.py": ""}, "pkg.low (floor 1) imports pkg.high (floor 0), a floor above"),
        ({"low.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from pkg.high import x\n", "high.py": "x = 1\n"},
         "pkg.low (floor 1) imports pkg.high (floor 0), a floor above"),
        ({"high.py": "", "low.py": "", "side/__init__.py": "", "side/a.py": "from . import b\n", "side/b.py": "from .a import x\n"},
         "circle of files: pkg.side.a, pkg.side.b"),
        ({"high.py": "", "low.py": "", "stray.py": ""}, "pkg.stray is on no floor"),
    ],
)
def test_the_rule_sees_an_upward_import_a_circle_and_a_stray_module(tmp_path: Path, files: dict[str, str], fault: str) -> None:
    files = {"__init__.py": "", "high.py": "", "low.py": "", **files}
    root = write_package(tmp_path, files)
    floors = [["high"], ["low", "side"]]
    assert fault in layout_faults(root, floors)


def test_floors_are_read_from_the_docstring() -> None:
    text = "Floors, from top to bottom:\n\n    command line    cli\n    lower floor     a, b\n"
    assert floors_of(text) == [["cli"], ["a", "b"]]


def test_the_cost_search_is_what_its_helpers_take() -> None:
    """`CostSearch` has every member of the `SearchState` protocol its helpers are typed by, methods alike."""
    import inspect

    from bactree.game import make_game
    from bactree.search import TOTAL_GUESSES, CostSearch, Solver
    from bactree.search.cost.state import SearchState

    search = CostSearch(Solver(make_game(length=2, symbols="0123", repeats=False)), TOTAL_GUESSES)
    members = set(SearchState.__annotations__) | {
        name for name, value in vars(SearchState).items() if callable(value) or isinstance(value, property)
    } - set(vars(type("Empty", (), {})))
    members -= {name for name in members if name.startswith("_")}
    assert {"solver", "candidates", "kernel_max_set"} <= members
    for name in sorted(members):
        assert hasattr(search, name), name
        wanted = vars(SearchState).get(name)
        if callable(wanted):
            assert list(inspect.signature(getattr(search, name)).parameters) == list(inspect.signature(wanted).parameters)[1:], name
