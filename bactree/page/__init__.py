"""`bactree html`: one self-contained web page that plays, hides, browses and charts a tree.

The page is the template `page.html` with `page.css`, `page.js` and the
checked tree inlined (package data beside this module), so it opens from
disk with no network: a Content-Security-Policy forbids every fetch. A
word game's lists (tree format version 2) travel in the embedded tree.
"""

from __future__ import annotations

import importlib.resources
import os
from pathlib import Path
from typing import Any

import orjson

from ..game import Game, InvalidGameError
from ..pegs import peg_colours
from ..treefile import check_document, check_header, read_document, renamed

__all__ = ["page_html", "tree_page"]


def _asset(name: str) -> str:
    return importlib.resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def page_html(doc: dict[str, Any], game: Game, name: str) -> str:
    """The page for a checked tree document `doc` of `game`, titled with the tree's file `name`."""
    data = {"name": name, "answers": [str(a) for a in game.answers], "pegs": list(peg_colours(game)), "tree": doc}
    # `<` only occurs inside JSON strings, where \u003c means the same: no `</script>` can close the block early.
    embedded = orjson.dumps(data).decode().replace("<", "\\u003c")
    title = f"bactree: {name} ({game})".replace("&", "&amp;").replace("<", "&lt;")
    script = _asset("verdict.js") + "\n" + _asset("page.js")  # the verdicts' engine, then the page that uses it
    parts = {"{{TITLE}}": title, "{{STYLE}}": _asset("page.css"), "{{SCRIPT}}": script}
    page = _asset("page.html")
    for marker, text in parts.items():
        page = page.replace(marker, text)
    return page.replace("{{DATA}}", embedded)  # last: the tree's text is never searched for markers


def tree_page(path: str | os.PathLike[str], game: Game | None = None, rename: bool = False) -> tuple[str, dict[str, Any]]:
    """Check the tree file at `path` by a full replay and return its page and its document.

    With `game`, the file must play that game, or with `rename` that game
    under other symbols (a shipped tree), which are then renamed to `game`'s.
    """
    name = Path(path).name
    doc = read_document(path)
    check_document(doc, str(path))
    tree_game = check_header(doc, str(path))  # a word game with its lists (version 2)
    if game is not None and game != tree_game:
        if not rename or tree_game.has_lists or game != Game(tree_game.length, game.symbols, tree_game.repeats):
            raise InvalidGameError(f"{path} plays {tree_game}, but the options ask for {game}")
        doc, tree_game = renamed(doc, game.symbols), game
    return page_html(doc, tree_game, name), doc
