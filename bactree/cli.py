"""The `bactree` command: a thin typer shell over the library.

Each command parses options, makes one library call and prints. Library
errors (`BactreeError`) become one line `Error: ...` on stderr with exit
status 2; a tree that fails `verify` exits 1.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from enum import Enum
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


@app.command()
def export(
    file: Annotated[Path, typer.Argument(help="Tree file to export.", show_default=False)],
    out: Annotated[
        Path, typer.Option("--out", "-o", help="Graph file to write: .graphml, .gexf, or .dot/.gv.", show_default=False)
    ],
) -> None:
    """Write a checked tree file as a graph for yEd, Gephi or Graphviz; the suffix picks the format.

    One graph node per tree node (guess, depth, candidates), one edge per answer (answer).

    Example: bactree export trees/bulls-cows-4x10.json -o tree.graphml
    """
    from .export import export_tree

    with cli_errors():
        graph = export_tree(file, out)
    typer.echo(f"wrote {out}: {graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges")


def game_option(game: str | None, length: int | None, symbols: str | None, repeats: bool | None) -> Game | None:
    """The game the shared options describe, or None when none is given (a tree file then decides)."""
    if game is None and length is None and symbols is None and repeats is None:
        return None
    return resolve_game(game or "bulls-cows", length, symbols, repeats)


@app.command()
def walk(
    file: Annotated[
        Optional[Path],
        typer.Argument(help="Tree file (default: the game's shipped worst-case tree).", show_default=False),
    ] = None,
    game: GameName = None,  # type: ignore[assignment]
    length: Length = None,
    symbols: Symbols = None,
    repeats: Repeats = None,
    secret: Annotated[
        Optional[str], typer.Option("--secret", help="Play this secret without asking and print the transcript.")
    ] = None,
) -> None:
    """The computer finds the secret you hold in mind, following a tree.

    Answer each guess as 1B2C, 1b2c, '1 2' or 12; u takes back an answer, q quits.
    Answers that no secret fits are refused, naming the earlier answers they contradict.

    Example: bactree walk --game mastermind
    """
    from .play import WalkSession, open_tree, walk_secret

    with cli_errors():
        tree = open_tree(file, game_option(game, length, symbols, repeats))
        if secret is not None:
            walk_secret(tree, secret, typer.echo)
            return
        status = WalkSession(tree, input, typer.echo).run()
    raise typer.Exit(status)


class Mode(str, Enum):
    """Who plays whom in `bactree play`."""

    solo = "solo"
    versus = "versus"
    referee = "referee"


@app.command()
def play(
    mode: Annotated[
        Mode,
        typer.Option(
            "--mode",
            "-m",
            help="solo: find the computer's secret; versus: race the computer; referee: two people, answers checked.",
        ),
    ] = Mode.solo,
    game: GameName = None,  # type: ignore[assignment]
    length: Length = None,
    symbols: Symbols = None,
    repeats: Repeats = None,
    seed: Annotated[Optional[int], typer.Option("--seed", help="Pick the computer's secret reproducibly.")] = None,
    hints: Annotated[bool, typer.Option("--hints", help="After each guess, say how many secrets still fit.")] = False,
    tree_file: Annotated[
        Optional[Path],
        typer.Option("--tree", help="Versus: the computer plays this tree (default: the game's shipped worst-case tree)."),
    ] = None,
) -> None:
    """Play a game at the terminal: alone, against the computer, or two people with the computer as referee.

    Guesses that are not codes of the game and answers that contradict earlier
    ones are refused with the reason; q quits.

    Example: bactree play --mode versus --hints
    """
    from .game import preset
    from .play import RefereeSession, SoloSession, VersusSession, open_tree, pick_secret

    with cli_errors():
        chosen = game_option(game, length, symbols, repeats)
        if tree_file is not None and mode is not Mode.versus:
            raise BactreeError("--tree is only used with --mode versus")
        if mode is Mode.versus:
            tree = open_tree(tree_file, chosen)
            session = VersusSession(tree, pick_secret(tree.game, seed), input, typer.echo, hints)
        elif mode is Mode.solo:
            chosen = chosen or preset("bulls-cows")
            session = SoloSession(chosen, pick_secret(chosen, seed), input, typer.echo, hints)
        else:
            session = RefereeSession(chosen or preset("bulls-cows"), input, typer.echo, hints)
        status = session.run()
    raise typer.Exit(status)


def main() -> None:
    """Console-script entry point."""
    try:
        app()
    except KeyboardInterrupt:  # pragma: no cover - a second Ctrl-C during cleanup
        sys.exit(130)


if __name__ == "__main__":
    main()
