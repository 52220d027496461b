"""The `bactree` command: a thin typer shell over the library.

Each command parses options, makes one library call and prints. Library
errors (`BactreeError`) become one line `Error: ...` on stderr with exit
status 2; a tree that fails `verify` exits 1.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, Iterator, Optional

import typer

from .game import BactreeError, Game, make_game

app = typer.Typer(
    name="bactree",
    help="Compile, verify and play optimal decision trees for Bulls and Cows and Mastermind.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

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


@contextmanager
def cli_errors() -> Iterator[None]:
    """Turn library errors into one line on stderr and exit status 2; Ctrl-C exits 130 quietly."""
    try:
        yield
    except BactreeError as err:
        typer.echo(f"Error: {err}", err=True)
        raise typer.Exit(2) from None
    except KeyboardInterrupt:
        typer.echo("Interrupted.", err=True)
        raise typer.Exit(130) from None


@app.command()
def verify(
    files: Annotated[list[Path], typer.Argument(help="Tree files to check.", show_default=False)],
) -> None:
    """Replay every secret through each tree file and check every rule of the format.

    Prints the figures of each file; exits 1 naming the first defect.

    Example: bactree verify trees/*.json
    """
    from .treefile import TreeFormatError, check_document, read_document

    with cli_errors():
        for path in files:
            try:
                doc = read_document(path)
                replay = check_document(doc, str(path))
            except TreeFormatError as err:
                typer.echo(f"FAIL {err}", err=True)
                raise typer.Exit(1) from None
            optimal = "optimal" if doc["optimal"] else "not proven optimal"
            typer.echo(
                f"ok   {path}: {replay.secrets} secrets, max {replay.max_guesses}, "
                f"total {replay.total_guesses}, mean {replay.total_guesses / replay.secrets:.4f}, "
                f"{replay.nodes} nodes, {optimal}"
            )


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except KeyboardInterrupt:  # pragma: no cover - a second Ctrl-C during cleanup
        sys.exit(130)
