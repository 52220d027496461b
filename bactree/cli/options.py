"""Options shared by every command that takes a game, for `bactree.cli.main` and `bactree.cli.coach`."""

from __future__ import annotations

from typing import Annotated, Callable, Optional

import typer

from ..game import RULES, BactreeError, Game, make_game, word_game

# The word list `--game words` plays, and the shipped list its allowed guesses come from with `--guesses`.
WORDS_PRESET = "en-4"

# Options shared by every command that takes a game.
GameName = Annotated[
    str,
    typer.Option(
        "--game", "-g",
        help="Preset: bulls-cows (4 of 0-9, no repeats), mastermind (4 of 1-6, repeats) or words (English 4-letter words, --words en-4).",
    ),
]
Length = Annotated[Optional[int], typer.Option("--length", "-n", help="Positions in a code (overrides the preset).")]
Symbols = Annotated[Optional[str], typer.Option("--symbols", help="The alphabet, one character per symbol (overrides the preset).")]
Repeats = Annotated[
    Optional[bool], typer.Option("--repeats/--no-repeats", help="Allow a symbol twice in a code (overrides the preset).")
]

Words = Annotated[
    Optional[str],
    typer.Option(
        "--words", "-w",
        help="A word game: its secrets, a file of one word a line or a shipped list's name (en-4, en-5; an existing file wins).",
        show_default=False,
    ),
]
Guesses = Annotated[
    Optional[str],
    typer.Option("--guesses", help="With --words: the allowed guesses, a file or a shipped list (en-4-guesses); default: the secrets.", show_default=False),
]

RuleName = Annotated[
    Optional[str],
    typer.Option(
        "--rule",
        help="How a secret answers a guess: "
        + ", ".join(f"{name} ({rule.summary})" for name, rule in RULES.items())
        + "; default bulls-cows.",
        show_default=False,
    ),
]


def resolve_game(
    game: str, length: int | None, symbols: str | None, repeats: bool | None,
    words: str | None = None, guesses: str | None = None, warn: Callable[[str], None] | None = None,
    rule: str | None = None,
) -> Game:
    """The game the shared options describe: a preset with its fields overridden, or a word game of lists, answered
    by `rule` (a name of `game.RULES`; None: bulls and cows).

    `warn` hears what reading a list dropped (duplicates), one line each.
    """
    rule = rule or "bulls-cows"
    if game == "words" and words is None:
        words = WORDS_PRESET
    if words is None:
        if guesses is not None:
            raise BactreeError("--guesses needs --words: the allowed guesses of a word game, whose secrets --words gives")
        return make_game(game, length, symbols, repeats, rule)
    given = [name for name, value in (("--length", length), ("--symbols", symbols), ("--repeats", repeats)) if value is not None]
    if given:
        raise BactreeError(f"{given[0]} does not go with --words: a word game takes its length and letters from its list")
    if game not in ("bulls-cows", "words"):
        raise BactreeError(f"--game {game} does not go with --words: a word game's codes are its list's (--rule says how they answer)")
    from ..game.words import read_word_list

    lists = [read_word_list(words)] + ([read_word_list(guesses)] if guesses is not None else [])
    for read in lists:
        for line in read.warnings:
            (warn or _stderr)(f"Warning: {line}")
    if len(lists) == 2 and lists[1].length != lists[0].length:
        raise BactreeError(f"{lists[1].path}: words of {lists[1].length} letters, the secrets have {lists[0].length}")
    return word_game(lists[0].words, lists[1].words if len(lists) == 2 else None, rule)


def _stderr(line: str) -> None:
    typer.echo(line, err=True)


def game_option(
    game: str | None, length: int | None, symbols: str | None, repeats: bool | None,
    words: str | None = None, guesses: str | None = None, rule: str | None = None,
) -> Game | None:
    """The game the shared options describe, or None when none is given (a tree file or a transcript then decides)."""
    if all(value is None for value in (game, length, symbols, repeats, words, guesses, rule)):
        return None
    return resolve_game(game or "bulls-cows", length, symbols, repeats, words, guesses, rule=rule)
