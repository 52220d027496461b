"""The data shipped with the package: the proven tree files and the JSON Schema of the format.

The checkout's top-level `trees/` folder is the source of truth; a wheel or
sdist carries every `*.json` of it as the package data `bactree/trees/`
(see pyproject.toml), found here with `importlib.resources`. Nothing lists
the files: every tree in the folder is offered, and the best one of a game
is chosen from the files' own headers.

Pure Python plus orjson, like the walker that uses it.
"""

from __future__ import annotations

import importlib.resources
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from .game import Game, InvalidGameError

__all__ = ["ShippedTree", "best_shipped_tree", "schema_path", "shipped_trees", "trees_dir"]

_PACKAGE = Path(__file__).resolve().parent
_HEADER_BYTES = 4096  # a written tree's header (everything before "root") fits in this


def trees_dir() -> Path:
    """The folder of shipped tree files: package data when installed, else the checkout's `trees/`."""
    installed = importlib.resources.files(__package__).joinpath("trees")
    if installed.is_dir():
        return Path(str(installed))
    return _PACKAGE.parent / "trees"


def schema_path() -> Path:
    """The JSON Schema (draft 2020-12) of tree format version 1."""
    return Path(str(importlib.resources.files(__package__).joinpath("tree-format-v1.schema.json")))


@dataclass(frozen=True)
class ShippedTree:
    """A shipped tree file and the header figures that rank it."""

    path: Path
    game: Game
    objective: dict[str, Any]
    optimal: bool
    max_guesses: int
    total_guesses: int
    secrets_at_max: int

    @property
    def hard_mode(self) -> bool:
        return bool(self.objective.get("hard_mode"))

    def rank(self) -> tuple[int, int, int, str]:
        """Better trees rank lower: least height, then least total, then fewest secrets at the height."""
        return (self.max_guesses, self.total_guesses, self.secrets_at_max, self.path.name)


def shipped_trees(folder: Path | None = None) -> list[ShippedTree]:
    """Every tree file in `folder` (default: the shipped trees), by file name; unreadable files are skipped.

    Only the header is read, so listing stays cheap; `load_tree` checks the
    file that is finally chosen.
    """
    found = []
    for path in sorted((folder or trees_dir()).glob("*.json")):
        entry = _read_entry(path)
        if entry is not None:
            found.append(entry)
    return found


def best_shipped_tree(game: Game, folder: Path | None = None, renamed: bool = False) -> ShippedTree | None:
    """The best shipped tree of `game` for a player: least height, then least total, not hard mode.

    With `renamed`, when `game` has none, the best of a game that differs only
    in its symbols' names (same length, repeats and alphabet size): renaming
    the symbols, position by position, turns it into a tree of `game`
    (`bactree.treefile.renamed`), as good and as proven.
    """
    trees = [t for t in shipped_trees(folder) if not t.hard_mode]
    best = min((t for t in trees if t.game == game), key=ShippedTree.rank, default=None)
    if best is None and renamed:
        same = [t for t in trees if (t.game.length, t.game.repeats, len(t.game.symbols)) == (game.length, game.repeats, len(game.symbols))]
        best = min(same, key=ShippedTree.rank, default=None)
    return best


def _read_entry(path: Path) -> ShippedTree | None:
    """The ranking figures of one tree file, or None if its header is not a tree file's."""
    header = _read_header(path)
    try:
        raw_game, stats, objective = header["game"], header["stats"], header["objective"]
        game = Game(raw_game["length"], raw_game["symbols"], raw_game["repeats"])
        height, total = stats["max_guesses"], stats["total_guesses"]
        at_max = stats["histogram"][str(height)]
        if header["format"] != "bactree-tree" or not all(type(x) is int for x in (height, total, at_max)):
            return None
        return ShippedTree(path, game, objective, header["optimal"] is True, height, total, at_max)
    except (KeyError, TypeError, InvalidGameError):
        return None


def _read_header(path: Path) -> Any:
    """Everything of a tree file but its root: from the first bytes when written by bactree, else the whole file."""
    try:
        with path.open("rb") as handle:
            start = handle.read(_HEADER_BYTES)
        cut = start.find(b'\n  "root":')  # bactree writes the top-level keys indented by two, root last
        if cut > 0:
            try:
                return orjson.loads(start[:cut].rstrip().rstrip(b",") + b"}")
            except orjson.JSONDecodeError:
                pass
        return orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return None

