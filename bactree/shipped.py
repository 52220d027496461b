"""The data shipped with the package: the proven tree files and the JSON Schema of the format.

The checkout's top-level `trees/` folder is the source of truth; a wheel or
sdist carries every `*.json` of it as the package data `bactree/trees/`
(see pyproject.toml), found here with `importlib.resources`. Nothing lists
the files: every tree in the folder is offered, and the best one of a game
is chosen from the files' own headers. A shipped tree is named by its file
name without `.json` (`mastermind-4x6-worst-case`); the commands take the
name wherever they take a tree file (`find_tree`). A build that would have
replaced a different tree keeps the new one beside it as `NAME.new.json`
(`bactree build`); such a file is not offered until it replaces the old one.

Pure Python plus orjson, like the walker that uses it.
"""

from __future__ import annotations

import importlib.resources
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from .game import BactreeError, Game, InvalidGameError

__all__ = [
    "NEW_SUFFIX",
    "ShippedTree",
    "UnknownTreeError",
    "best_shipped_tree",
    "find_tree",
    "read_entry",
    "schema_path",
    "shipped_trees",
    "trees_dir",
]

_PACKAGE = Path(__file__).resolve().parent
_HEADER_BYTES = 4096  # a written tree's header (everything before "root") fits in this
NEW_SUFFIX = ".new.json"  # a built tree kept beside the different one it did not replace


class UnknownTreeError(BactreeError):
    """A tree asked for by a name that is neither a file nor a shipped tree."""


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
    lower_bound: int | None = None  # of the objective's main figure, when not proven optimal

    @property
    def name(self) -> str:
        """The name the commands take for this tree: its file name without `.json`."""
        return self.path.name.removesuffix(".json")

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
        entry = None if path.name.endswith(NEW_SUFFIX) else read_entry(path)
        if entry is not None:
            found.append(entry)
    return found


def find_tree(spec: str | os.PathLike[str]) -> Path:
    """The tree file `spec` stands for: the file if it exists, else the shipped tree of that name.

    A name is a shipped tree's file name, with or without `.json`
    (`mastermind-4x6-worst-case`), so the commands play, page and check the
    shipped trees wherever bactree is installed. A path with a folder in it is
    only ever a path (reading it reports what is wrong); a bare word that is
    neither raises `UnknownTreeError`, which says how to list the names.
    """
    text = os.fspath(spec)
    path = Path(text)
    if path.exists() or os.sep in text or (os.altsep is not None and os.altsep in text):
        return path
    name = text.removesuffix(".json")
    shipped = trees_dir() / f"{name}.json"
    if name and not shipped.name.endswith(NEW_SUFFIX) and shipped.is_file():
        return shipped
    raise UnknownTreeError(f"no tree file or shipped tree named {text!r}: bactree trees lists the shipped trees")


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
        same = [t for t in trees if not t.game.has_lists and not game.has_lists  # a word list is no renamed alphabet
                and (t.game.length, t.game.repeats, len(t.game.symbols)) == (game.length, game.repeats, len(game.symbols))]
        best = min(same, key=ShippedTree.rank, default=None)
    return best


def read_entry(path: Path) -> ShippedTree | None:
    """The header figures of one tree file (any, shipped or not), or None if its header is not a tree file's."""
    header = _read_header(path)
    try:
        raw_game, stats, objective = header["game"], header["stats"], header["objective"]
        lists = [None if raw_game.get(key) is None else tuple(raw_game[key]) for key in ("secrets", "guesses")]
        rule = raw_game.get("rule", "bulls-cows")
        game = Game(raw_game["length"], raw_game["symbols"], raw_game["repeats"], *lists, rule)
        height, total = stats["max_guesses"], stats["total_guesses"]
        at_max = stats["histogram"][str(height)]
        if header["format"] != "bactree-tree" or not all(type(x) is int for x in (height, total, at_max)):
            return None
        bound = stats.get("lower_bound")
        return ShippedTree(path, game, objective, header["optimal"] is True, height, total, at_max,
                           bound if type(bound) is int else None)
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

