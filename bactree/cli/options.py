"""The seven options of every command that takes a game (`--game`, `-n`, `--symbols`, ...), defined once.

A command declares one parameter `game: GameOptions = game_options()`;
`with_game_options` (which `bactree.cli.app.App.command` applies to every
command) shows typer the seven options in its place and hands the command
one `GameOptions` value, which `resolve` turns into a `Game`.
"""

from __future__ import annotations

import functools
import inspect
from dataclasses import astuple, dataclass
from typing import Annotated, Any, Callable, Optional

import typer

from ..game import PRESETS, RULES, BactreeError, Game, make_game, word_game

# The word list `--game words` plays, and the shipped list its allowed guesses come from with `--guesses`.
WORDS_PRESET = "en-4"

GAME_HELP = "Preset: bulls-cows (4 of 0-9, no repeats), mastermind (4 of 1-6, repeats) or words (English 4-letter words, --words en-4)."

# The options after --game, in the order the help lists them, by the name of the GameOptions field each fills.
_OPTIONS: dict[str, Any] = {
    "length": Annotated[Optional[int], typer.Option("--length", "-n", help="Positions in a code (overrides the preset).")],
    "symbols": Annotated[Optional[str], typer.Option("--symbols", help="The alphabet, one character per symbol (overrides the preset).")],
    "repeats": Annotated[
        Optional[bool], typer.Option("--repeats/--no-repeats", help="Allow a symbol twice in a code (overrides the preset).")
    ],
    "words": Annotated[
        Optional[str],
        typer.Option(
            "--words", "-w",
            help="A word game: its secrets, a file of one word a line or a shipped list's name (en-4, en-5; an existing file wins).",
            show_default=False,
        ),
    ],
    "guesses": Annotated[
        Optional[str],
        typer.Option("--guesses", help="With --words: the allowed guesses, a file or a shipped list (en-4-guesses); default: the secrets.", show_default=False),
    ],
    "rule": Annotated[
        Optional[str],
        typer.Option(
            "--rule",
            help="How a secret answers a guess: "
            + ", ".join(f"{name} ({rule.summary})" for name, rule in RULES.items())
            + "; default bulls-cows.",
            show_default=False,
        ),
    ],
}


@dataclass(frozen=True)
class GameOptions:
    """What a command's game options were given: `preset` is `--game`'s value, the rest the options of their names."""

    preset: str | None = None
    length: int | None = None
    symbols: str | None = None
    repeats: bool | None = None
    words: str | None = None
    guesses: str | None = None
    rule: str | None = None

    def resolve(self) -> Game:
        """The game the options describe: a preset (bulls-cows when none is given) with its fields overridden, or a word game."""
        return resolve_game(self.preset or "bulls-cows", self.length, self.symbols, self.repeats, self.words, self.guesses, rule=self.rule)

    def list_options(self) -> list[str]:
        """The options, as given, that name a word game's lists (`--words FILE`, `--guesses FILE`, `--game words`): a
        `Game` holds the words, not where they came from, so a command suggested to the user repeats these."""
        named = ["--words", self.words] if self.words is not None else ["--game", "words"] if self.preset == "words" else []
        return named + (["--guesses", self.guesses] if self.guesses is not None else [])

    def resolve_or_none(self) -> Game | None:
        """The game the options describe, or None when none is given (a tree file or a transcript then decides)."""
        return None if all(value is None for value in astuple(self)) else self.resolve()


@dataclass(frozen=True)
class _Declared:
    """A command's `GameOptions` parameter as `game_options` declares it, until `with_game_options` spells it out."""

    preset: str | None
    help: str


def game_options(preset: str | None = "bulls-cows", game_help: str = GAME_HELP) -> Any:
    """The default that makes a parameter `game: GameOptions` stand for the seven game options, as `typer.Option()`
    makes one parameter an option: `--game` defaults to `preset` (None: no default shown, no game given) and says
    `game_help`.
    """
    return _Declared(preset, game_help)


def with_game_options(command: Callable[..., Any]) -> Callable[..., Any]:
    """`command` as typer should see it: a `game_options()` parameter spelled out as the seven options, in its place,
    and the command called with one `GameOptions` value; a command without one unchanged.

    Typer reads a command's options from `inspect.signature` and its type hints, so the wrapper carries both.
    """
    signature = inspect.signature(command, eval_str=True)
    declared = [param for param in signature.parameters.values() if isinstance(param.default, _Declared)]
    if not declared:
        return command
    [param] = declared
    spec: _Declared = param.default
    preset = Annotated[Optional[str], typer.Option("--game", "-g", help=spec.help, show_default=spec.preset is not None)]
    spelled = [inspect.Parameter("game", param.kind, default=spec.preset, annotation=preset)] + [
        inspect.Parameter(name, param.kind, default=None, annotation=annotation) for name, annotation in _OPTIONS.items()
    ]
    params = list(signature.parameters.values())
    at = params.index(param)
    params[at : at + 1] = spelled

    @functools.wraps(command)
    def wrapper(**kwargs: Any) -> Any:
        given = GameOptions(preset=kwargs.pop("game"), **{name: kwargs.pop(name) for name in _OPTIONS})
        return command(**kwargs, **{param.name: given})

    wrapper.__signature__ = signature.replace(parameters=params)  # type: ignore[attr-defined]
    wrapper.__annotations__ = {p.name: p.annotation for p in params} | {"return": signature.return_annotation}
    return wrapper


def resolve_game(
    game: str, length: int | None, symbols: str | None, repeats: bool | None,
    words: str | None = None, guesses: str | None = None, rule: str | None = None,
) -> Game:
    """The game the shared options describe: a preset with its fields overridden, or a word game of lists, answered
    by `rule` (a name of `game.RULES`; None: bulls and cows). What reading a list dropped (duplicates) is said on
    standard error, one warning line each.
    """
    rule = rule or "bulls-cows"
    if game != "words" and game not in PRESETS:
        raise BactreeError(f"unknown game {game!r}: choose one of {', '.join([*PRESETS, 'words'])}")
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
            typer.echo(f"Warning: {line}", err=True)
    if len(lists) == 2 and lists[1].length != lists[0].length:
        raise BactreeError(f"{lists[1].path}: words of {lists[1].length} letters, the secrets have {lists[0].length}")
    return word_game(lists[0].words, lists[1].words if len(lists) == 2 else None, rule)

