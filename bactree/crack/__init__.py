"""Cracking one long key adaptively: oracles that answer, crackers that ask.

Trees stop at tens of thousands of secrets; keys of 10 to 300+ symbols are
cracked question by question instead. A cracker sees only the answers of an
`Oracle` (a known secret, a person at the terminal, or an external
program) and returns a `CrackResult`. Crackers are found by name:

    best         the default: anneal up to 60 positions, then windows up to 100 (repeats), then blocks
                 (repeats; without repeats up to 250 positions, 300 from effort 3), count-split beyond
    anneal       ask codes that (nearly) fit every answer so far
    windows      the same codes, asked one window of positions at a time (keys with repeats)
    blocks       count the symbols, then find one block of positions at a time, each fitted on its own
    count-split  count the symbols, then halve position sets (the simple baseline)
    ga-woc       the genetic algorithm + wisdom of crowds of Eisert, Mikula and Waigel

`anneal` and `blocks` (and so `best`, except where it uses `windows`) take an
`effort`: their moves a question, times the default (more time, fewer questions).

This package sits beside the game layer and imports nothing of the tree builder.
"""

from __future__ import annotations

from functools import partial
from typing import Callable

from ..game import BactreeError
from .alphabet import FIXED_ALPHABET, PAPER_SYMBOLS, first_symbols
from .oracles import ContradictionError, Oracle, OracleError, ProgramOracle, Quit, SecretOracle, TakeBack, TerminalOracle
from .puzzle import Puzzle, score
from .result import CrackResult, Progress

Cracker = Callable[[Oracle, "Progress | None"], CrackResult]

CRACKERS = ("best", "anneal", "windows", "blocks", "count-split", "ga-woc")


ANNEALING = ("best", "anneal", "blocks")  # the crackers whose work `effort` scales (windows gained nothing from it)
MAX_EFFORT = 1000.0


def make_cracker(name: str, seed: int = 0, effort: float = 1.0) -> Cracker:
    """The cracker called `name`, as a function of (oracle, progress).

    `effort` multiplies the moves a question of `anneal` and `blocks` (late
    in each block, and it widens the blocks from 3 on): more time, fewer
    questions. `windows` takes none: at n = 100 three times its moves gave
    no fewer questions.
    """
    if not 0 < effort <= MAX_EFFORT:
        raise BactreeError(f"--effort must be above 0 and at most {MAX_EFFORT:g}, got {effort:g}")
    if effort != 1 and name in CRACKERS and name not in ANNEALING:
        raise BactreeError(f"--effort applies to {', '.join(ANNEALING)}, not to {name}")
    if name == "best":
        return partial(_crack_best, seed=seed, effort=effort)
    if name == "anneal":
        from .anneal import crack_anneal

        return partial(crack_anneal, seed=seed, effort=effort)
    if name == "windows":
        from .windows import crack_windows

        return partial(crack_windows, seed=seed)
    if name == "blocks":
        from .blocks import crack_blocks

        return partial(crack_blocks, seed=seed, effort=effort)
    if name == "count-split":
        from .count_split import crack_count_split

        return crack_count_split
    if name == "ga-woc":
        from .ga_woc import crack_ga_woc

        return partial(crack_ga_woc, seed=seed)
    raise BactreeError(f"unknown strategy {name!r}: choose one of {', '.join(CRACKERS)}")


def _crack_best(oracle: Oracle, progress: Progress | None = None, seed: int = 0, effort: float = 1.0) -> CrackResult:
    """Each cracker where it measures best: anneal, then windows (keys with repeats), then blocks, then count-split."""
    from .anneal import ANNEAL_MAX_LENGTH, crack_anneal
    from .blocks import crack_blocks, no_repeats_max_length
    from .count_split import crack_count_split
    from .windows import WINDOWS_MAX_LENGTH, crack_windows

    puzzle = oracle.puzzle
    if puzzle.length <= ANNEAL_MAX_LENGTH:
        return crack_anneal(oracle, progress, seed, effort)
    if puzzle.repeats and puzzle.length <= WINDOWS_MAX_LENGTH:
        return crack_windows(oracle, progress, seed)
    if puzzle.repeats or puzzle.length <= no_repeats_max_length(effort):
        return crack_blocks(oracle, progress, seed, effort)
    return crack_count_split(oracle, progress)


__all__ = [
    "CRACKERS",
    "ContradictionError",
    "CrackResult",
    "FIXED_ALPHABET",
    "Oracle",
    "OracleError",
    "PAPER_SYMBOLS",
    "ProgramOracle",
    "Puzzle",
    "Quit",
    "SecretOracle",
    "TakeBack",
    "TerminalOracle",
    "first_symbols",
    "make_cracker",
    "score",
]
