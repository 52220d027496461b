"""The `crack` command: a thin shell over `bactree.crack`, registered by `bactree.cli.main`.

Apart from cli.py, which is long already.
"""

from __future__ import annotations

import time
from typing import Annotated, Optional

import typer

from .exits import cli_errors
from ..game import BactreeError, counted


def crack(
    length: Annotated[Optional[int], typer.Option("--length", "-n", help="Positions in the key (with --secret: its length).", show_default=False)] = None,
    symbols: Annotated[Optional[str], typer.Option("--symbols", help="The alphabet, one character per symbol (default: the paper's 37, a-z 0-9 space).", show_default=False)] = None,
    alphabet_size: Annotated[Optional[int], typer.Option("--alphabet-size", "-k", help="The first K symbols of the fixed alphabet (a-z, 0-9, space, then more letters).", show_default=False)] = None,
    repeats: Annotated[bool, typer.Option("--repeats/--no-repeats", help="May the key repeat a symbol.")] = True,
    strategy: Annotated[str, typer.Option("--strategy", "-s", help="best (anneal up to 60 positions, then windows up to 100 with repeats, then blocks: with repeats at any length, without up to 250, or 300 from --effort 3; count-split beyond), anneal, windows, blocks, count-split or ga-woc.")] = "best",
    secret: Annotated[Optional[str], typer.Option("--secret", help="Crack this key (a simulation).", show_default=False)] = None,
    random_key: Annotated[bool, typer.Option("--random", help="Crack a random key.")] = False,
    seed: Annotated[Optional[int], typer.Option("--seed", help="With --random: pick the key reproducibly.", show_default=False)] = None,
    oracle_cmd: Annotated[Optional[str], typer.Option("--oracle-cmd", help="Ask this program: a guess line in, 'BULLS COWS' out.", show_default=False)] = None,
    effort: Annotated[float, typer.Option("--effort", "-e", help="Annealing work a question, times the default: more time, fewer questions (n = 300: 1 takes about 650 questions, 30 about 596 in 13 times the time). For best, anneal and blocks; windows (best from 61 to 100 positions with repeats) gains nothing from it.")] = 1.0,
    interactive: Annotated[bool, typer.Option("--interactive", help="Ask the person at the terminal, who answers 'BULLS COWS' or q to quit.")] = False,
    json_output: Annotated[bool, typer.Option("--json", help="Print one JSON object.")] = False,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress on stderr.")] = False,
) -> None:
    """Find one long key exactly by asking questions (bulls and cows as Mastermind pegs).

    The key is a known --secret, a --random one, an external program
    (--oracle-cmd: it reads each guess as one line of n characters and answers
    one line 'BULLS COWS'), or the person at the terminal (--interactive:
    a typo or an impossible answer is asked again; q, quit or end of input
    say Bye. and exit 0). Progress goes to stderr, one summary line (or
    --json) to stdout.

    Example: bactree crack --length 100 --random --seed 1
    """
    import orjson

    from ..crack.oracles import Quit
    from ..crack.run import crack as run_crack
    from ..crack.run import make_oracle, make_puzzle

    with cli_errors():
        if length is None:
            if secret is None:
                raise BactreeError("give --length N, the positions in the key (or --secret KEY)")
            length = len(secret)
        puzzle = make_puzzle(length, symbols, alphabet_size, repeats)
        oracle = make_oracle(puzzle, secret, random_key, seed, oracle_cmd, interactive)
        shown = [0.0]

        def progress(queries: int, known: int) -> None:
            now = time.monotonic()
            if not quiet and now - shown[0] > 0.5:
                shown[0] = now
                typer.echo(f"  {questions(queries)}, {known} of {length} positions right so far", err=True)

        try:
            summary = run_crack(puzzle, oracle, strategy, seed or 0, progress, effort)
        except Quit:
            typer.echo("Bye.", err=True)  # stderr, with the prompts: stdout holds only a summary
            raise typer.Exit(0) from None
    if json_output:
        typer.echo(orjson.dumps(summary).decode())
    else:
        verdict = "solved" if summary["solved"] else f"NOT solved, {summary['wrong_positions']} positions wrong"
        typer.echo(f"[{summary['found']}] {verdict} in {questions(summary['queries'])} ({summary['strategy']}, {summary['seconds']:.2f}s)")


def questions(count: int) -> str:
    """`1 question`, `5 questions`."""
    return counted(count, "question")
