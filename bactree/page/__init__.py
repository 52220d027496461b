"""`bactree html`: one self-contained web page that plays, hides, browses and charts a tree.

The page is the template `page.html` with `page.css`, `page.js` and the
checked tree inlined (package data beside this module), so it opens from
disk with no network: a Content-Security-Policy forbids every fetch. A
word game's lists (tree format version 2) travel in the embedded tree.
A tree of a game the coach has a book for (4 of 10, Mastermind) carries
the book too, so that Find mine's verdicts after one or two
guesses are the book's exact values, as the terminal's are.
"""

from __future__ import annotations

import importlib.resources
import os
from pathlib import Path
from typing import Any

from ..game import Game, InvalidGameError
from ..pegs import peg_colours
from ..shipped import shipped_trees
from ..treefile import check_document, check_header, json_bytes, read_document, renamed

__all__ = ["page_html", "tree_page"]


def _asset(name: str) -> str:
    return importlib.resources.files(__package__).joinpath(name).read_text(encoding="utf-8")


def page_html(doc: dict[str, Any], game: Game, name: str, book: dict[str, Any] | None = None) -> str:
    """The page for a checked tree document `doc` of `game`, titled with the tree's file `name`; `book`, if given, the
    positions and depth of the game's book in its codes (`page_book`)."""
    data = {"name": name, "answers": [str(a) for a in game.answers], "pegs": list(peg_colours(game)), "tree": doc}
    if book is not None:
        data["book"] = book
    # `<` only occurs inside JSON strings, where \u003c means the same: no `</script>` can close the block early.
    embedded = json_bytes(data).decode().replace("<", "\\u003c")
    title = f"bactree: {name} ({game})".replace("&", "&amp;").replace("<", "&lt;")
    # The game's rules, the verdicts' engine and the book's lookup, then the page that uses them.
    script = "\n".join(_asset(name) for name in ("game.js", "verdict.js", "book.js", "page.js"))
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
        book = page_book(tree_game, game.symbols)
        doc, tree_game = renamed(doc, game.symbols), game
    else:
        book = page_book(tree_game, tree_game.symbols)
    return page_html(doc, tree_game, name, book), doc


def page_book(game: Game, symbols: str) -> dict[str, Any] | None:
    """The shipped book of `game`'s least totals in normal play (what Find mine's verdicts are, whatever the tree), its
    codes relabelled to `symbols` (symbol for symbol, so canonical histories stay canonical), or None if none."""
    from ..coach.book import Book  # here: only a page with a book needs it (pure Python and orjson, no search)

    book = Book.shipped(game, "expected", False)
    if book is None:
        return None
    relabel = str.maketrans(game.symbols, symbols)

    def carried(key: str) -> str:  # "GUESS=ANSWER ...": the guesses relabelled, the answers kept
        return " ".join(guess.translate(relabel) + "=" + answer for guess, _, answer in (p.partition("=") for p in key.split()))

    positions = {
        carried(key): [[guess.translate(relabel), total] for guess, total in entry] for key, entry in book.positions.items()
    }
    data: dict[str, Any] = {"guesses": book.guesses, "positions": positions}
    # The start's least total, from the game's shipped optimal least-total tree, as the terminal takes it.
    for tree in shipped_trees():
        objective = tree.objective
        if (tree.game == game and tree.optimal and objective["name"] == "expected" and not objective["hard_mode"]
                and objective.get("max_guesses") is None and objective.get("first_guess") is None):
            data["start"] = [read_document(tree.path)["root"]["guess"].translate(relabel), tree.total_guesses]
            break
    return data
