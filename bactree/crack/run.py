"""One cracking run from start to summary: the game, the oracle, the cracker, the figures."""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ..game import BactreeError
from .alphabet import PAPER_SYMBOLS, first_symbols
from .oracles import Oracle, ProgramOracle, SecretOracle, TakeBack, TerminalOracle
from .puzzle import Puzzle
from .result import Progress

# The largest seed: the crackers' kernels take it as a 64-bit signed integer.
MAX_SEED = 2**63 - 1


def make_puzzle(length: int, symbols: str | None, alphabet_size: int | None, repeats: bool) -> Puzzle:
    """The game of the options: `symbols`, or the first `alphabet_size` of the fixed alphabet, or the paper's 37."""
    if symbols is not None and alphabet_size is not None:
        raise BactreeError("give --symbols or --alphabet-size, not both")
    if symbols is None:
        symbols = PAPER_SYMBOLS if alphabet_size is None else first_symbols(alphabet_size)
    return Puzzle(length, symbols, repeats)


def make_oracle(
    puzzle: Puzzle,
    secret: str | None = None,
    random: bool = False,
    seed: int | None = None,
    command: str | None = None,
    interactive: bool = False,
) -> Oracle:
    """The oracle of exactly one source: a given secret, a random one, a program, or the terminal."""
    chosen = sum([secret is not None, random, command is not None, interactive])
    if chosen != 1:
        raise BactreeError("give exactly one of --secret KEY, --random, --oracle-cmd CMD or --interactive")
    if seed is not None and not random:
        raise BactreeError("--seed is only used with --random")
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise BactreeError(f"--seed must be from 0 to {MAX_SEED}, got {seed}")
    if secret is not None:
        return SecretOracle(puzzle, puzzle.parse(secret))
    if random:
        return SecretOracle(puzzle, puzzle.random_code(np.random.default_rng(seed)))
    if command is not None:
        return ProgramOracle(puzzle, command)
    return TerminalOracle(puzzle)


def crack(
    puzzle: Puzzle,
    oracle: Oracle,
    strategy: str = "best",
    seed: int = 0,
    progress: Progress | None = None,
    effort: float = 1.0,
) -> dict[str, Any]:
    """Run the cracker `strategy` against `oracle` at `effort`; the summary the CLI prints as JSON."""
    from . import make_cracker

    start = time.perf_counter()
    try:  # the oracle is closed (its program ended) however the run ends, a bad strategy or effort too
        while True:
            try:
                result = make_cracker(strategy, seed, effort)(oracle, progress)
                break
            except TakeBack as back:  # the person took an answer back: run again on the answers before it
                oracle = back.oracle
    finally:
        oracle.close()
    return {
        "found": puzzle.format(result.found),
        "queries": result.queries,
        "solved": result.solved,
        "wrong_positions": result.wrong,
        "strategy": strategy,
        "effort": effort,
        "length": puzzle.length,
        "symbols": puzzle.symbols,
        "repeats": puzzle.repeats,
        "seconds": round(time.perf_counter() - start, 3),
    }
