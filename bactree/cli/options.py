"""Options shared by every command that takes a game, for `bactree.cli.main` and `bactree.cli.coach`."""

from __future__ import annotations

from typing import Annotated, Optional

import typer

from ..game import Game, make_game

# Options shared by every command that takes a game.
GameName = Annotated[
    str, typer.Option("--game", "-g", help="Preset: bulls-cows (4 of 0-9, no repeats) or mastermind (4 of 1-6, repeats).")
]
Length = Annotated[Optional[int], typer.Option("--length", "-n", help="Positions in a code (overrides the preset).")]
Symbols = Annotated[Optional[str], typer.Option("--symbols", help="The alphabet, one character per symbol (overrides the preset).")]
Repeats = Annotated[
    Optional[bool], typer.Option("--repeats/--no-repeats", help="Allow a symbol twice in a code (overrides the preset).")
]


def resolve_game(game: str, length: int | None, symbols: str | None, repeats: bool | None) -> Game:
    """The game the shared options describe."""
    return make_game(game, length, symbols, repeats)


def game_option(game: str | None, length: int | None, symbols: str | None, repeats: bool | None) -> Game | None:
    """The game the shared options describe, or None when none is given (a tree file or a transcript then decides)."""
    if game is None and length is None and symbols is None and repeats is None:
        return None
    return resolve_game(game or "bulls-cows", length, symbols, repeats)
