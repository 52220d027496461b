"""The digest of the search code: which code wrote a file of proofs, so that only the same code's are believed.

A long search leaves claims behind in files (sets refuted within some
guesses, proven values of sets, finished parts of a build). Their own
digests say a file is intact, not that its claims are true: a claim is a
proof only for the code that made it. So each such file carries
`search_code()`, and a build believes a file's claims only when it
matches; a file of other code, or with none, may still steer a search
(which guess to try first) but proves nothing.

What it covers: every module of `bactree/search/`, `bactree/game/` and
`bactree/pipeline/` (`COVERED`), each read as Python, its docstrings
removed, each import of the package's own modules reduced to the names it
imports and binds (so a module moved, or imported by another path, keeps
it; a name taken from another of its modules does not count), printed
back by `ast.unparse` (so comments, blank lines and layout do not count),
the modules' digests sorted (so file names do not count either). Any other
change to a statement, an expression, a constant or an external import
changes it. Not covered: the versions of Python, NumPy and numba, and the
rest of the package (the tree file's reader, the command line).
"""

from __future__ import annotations

import ast
import hashlib
import json
import os
from functools import cache
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent
# The package's folders whose modules decide what a search proves.
COVERED = ("search", "game", "pipeline")


def normalised_source(source: str) -> str:
    """`source` as Python with docstrings and comments gone, the package's own imports reduced to the names they
    bind, and its layout `ast.unparse`'s: what `search_code` digests of one module."""
    tree = ast.parse(source)
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if (isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and body
                and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant)
                and isinstance(body[0].value.value, str)):
            node.body = body[1:] or [ast.Pass()]
    tree = _OwnImports().visit(tree)
    return ast.unparse(ast.fix_missing_locations(tree))


class _OwnImports(ast.NodeTransformer):
    """Each `from .x import a, b as c` (or `from bactree.x import ...`) as `import a, b as c`: the names it imports and
    binds, not the module's path."""

    def visit_ImportFrom(self, node: ast.ImportFrom) -> ast.AST:
        if node.level == 0 and (node.module or "").split(".")[0] != PACKAGE.name:
            return node
        return ast.Import(names=[ast.alias(name=alias.name, asname=alias.asname) for alias in node.names])


def code_digest(sources: list[str]) -> str:
    """A digest of the modules `sources` (their text) as `normalised_source` prints them, in any order."""
    digests = sorted(hashlib.sha256(normalised_source(text).encode()).hexdigest() for text in sources)
    return hashlib.sha256("\n".join(digests).encode()).hexdigest()[:32]


# Where `search_code` keeps its last result, by the raw sources' digest (beside numba's cache of this folder's kernels):
# parsing and printing every covered module back takes about 2 s of CPU (a tenth of an exact Wordle proof), reading
# and hashing them a few milliseconds.
CACHE_FILE = Path(__file__).resolve().parent / "__pycache__" / "search-code.json"


@cache
def search_code() -> str:
    """The digest of this installation's search code (`COVERED`): what files of claims record and are checked against.

    Taken from `CACHE_FILE` when the covered modules' text is byte for byte
    what it was computed from (so never stale), else computed and kept
    there if the folder is writable.
    """
    paths = sorted(path for folder in COVERED for path in (PACKAGE / folder).rglob("*.py"))
    sources = [path.read_text() for path in paths]
    raw = hashlib.sha256("\0".join(sources).encode()).hexdigest()
    try:
        kept = json.loads(CACHE_FILE.read_text())
        if kept.get("sources") == raw and isinstance(kept.get("code"), str):
            return kept["code"]
    except (OSError, ValueError, AttributeError):
        pass
    code = code_digest(sources)
    try:
        CACHE_FILE.parent.mkdir(exist_ok=True)
        partial = CACHE_FILE.with_name(f"{CACHE_FILE.name}.{os.getpid()}")
        partial.write_text(json.dumps({"sources": raw, "code": code}))
        partial.replace(CACHE_FILE)
    except OSError:
        pass
    return code
