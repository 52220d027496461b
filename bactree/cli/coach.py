"""The coach's commands, `analyse` and `review`: thin shells over `bactree.coach`, registered by `bactree.cli.main`.

Apart from cli.py, which is long already; the options they share with it come from `bactree.cli.options`.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Annotated, Optional

import typer

from .options import GameOptions, game_options
from .exits import cli_errors

Objective = Annotated[
    str, typer.Option("--objective", "-O", help="expected (total and mean guesses) or worst-case (least height).")
]
JsonOutput = Annotated[bool, typer.Option("--json", help="Print one JSON object.")]


def analyse(
    history: Annotated[
        Optional[list[str]], typer.Argument(help="The guesses so far with their answers: GUESS=ANSWER ...", show_default=False)
    ] = None,
    game: GameOptions = game_options(),
    top: Annotated[int, typer.Option("--top", help="How many of the best next guesses to list.")] = 5,
    guess: Annotated[Optional[str], typer.Option("--guess", help="Also value this guess, and its loss against the best.", show_default=False)] = None,
    objective: Objective = "expected",
    hard: Annotated[bool, typer.Option("--hard", help="Hard mode: every guess must still be possible.")] = False,
    seconds: Annotated[float, typer.Option("--seconds", help="Search time allowed; past it, proven bounds are shown instead of values.")] = 4.0,
    json_output: JsonOutput = False,
) -> None:
    """The best next guesses after a history, each valued exactly (or by proven bounds, marked), and a guess of yours.

    Values come from a shipped book (4 of 10 after one or two guesses, --top
    5 at most) or tree proven optimal where the position lies on it (up to
    symmetry), otherwise from the exact search. For the worst case a
    shipped tree is exact at the start only; elsewhere on it, its subtree's
    height is an upper bound that the search need not reach.

    Example: bactree analyse 0123=0B2C 4567=1B0C --guess 1456
    """
    import orjson

    from ..coach import analyse as run
    from ..coach.text import analysis_lines

    with cli_errors():
        chosen = game.resolve()
        result = run(chosen, history or [], top, guess, objective, hard, seconds)
    if json_output:
        data = result.to_json() | {"still_possible": list(result.secrets)}
        typer.echo(orjson.dumps(data, option=orjson.OPT_INDENT_2).decode())
        return
    for line in analysis_lines(result):
        typer.echo(line)


def review(
    file: Annotated[
        Optional[Path], typer.Argument(help="The game: one GUESS ANSWER a line, as walk and play print them (default or -: standard input).", show_default=False)
    ] = None,
    game: GameOptions = game_options(
        None, "Preset: bulls-cows, mastermind or words (default: the game a session's first line names, else bulls-cows)."
    ),
    secret: Annotated[Optional[str], typer.Option("--secret", help="The secret: then the file may hold the guesses alone.", show_default=False)] = None,
    objective: Objective = "expected",
    hard: Annotated[bool, typer.Option("--hard", help="Hard mode: value the game as if every guess had to be still possible; a game that broke it is refused.")] = False,
    seconds: Annotated[float, typer.Option("--seconds", help="Search time allowed a move; past it, proven bounds.")] = 2.0,
    json_output: JsonOutput = False,
) -> None:
    """Review a played game move by move: best guess, your guess's value, loss (skill) and luck.

    A walk's or a play's transcript reviews as it is, in the game its first
    line names: bactree walk --secret 1234 | bactree review

    Example: bactree review game.txt --secret 1234
    """
    import orjson

    from ..coach.review import read_game, reviewed_game
    from ..coach.review import review as run
    from ..coach.text import review_lines
    from ..game import BactreeError

    with cli_errors():
        asked = game.resolve_or_none()
        if file is None or str(file) == "-":
            if sys.stdin.isatty():  # else a terminal waits in silence and the command looks hung
                typer.echo("Reading the game from the terminal: type or paste its lines (GUESS ANSWER), then Ctrl-D "
                           "(or pass a file).", err=True)
            text = sys.stdin.read()
        else:
            try:
                text = file.read_text()
            except (OSError, UnicodeDecodeError) as err:
                raise BactreeError(f"cannot read {file}: {getattr(err, 'strerror', None) or err}") from None
        chosen = reviewed_game(text, asked)
        result = run(chosen, read_game(text, chosen, secret), objective, seconds, hard=hard)
    if json_output:
        typer.echo(orjson.dumps(result.to_json(), option=orjson.OPT_INDENT_2).decode())
        return
    for line in review_lines(result):
        typer.echo(line)
