"""The strategy zoo: rules that pick the next guess, from naive baselines to greedy search.

Every strategy is a small state machine over code indices (positions in
`game.codes`) and encoded answers (`bulls * (length + 1) + cows`):
`start()` is the state before the first guess, `choose(state)` the next
guess, `advance(state, guess, answer)` the state after an answer.
`advance` never draws random numbers, so a state is a function of the
history alone: `next_guess(history)` is well defined, and the evaluator
(`bactree.evaluate`) can fork states to walk a whole decision tree, one
`choose` per node. Randomised strategies draw only in `choose`, from the
generator seeded at construction.

`make_strategy(name, game, seed)` finds a strategy by name, or loads a tree
file given as `tree:FILE` or as a path ending in `.json`.

    base        the contract (`Strategy`), `BlindStrategy`, `SetStrategy` and the errors
    baselines   random, enumerate, cows-score
    consistent  random-consistent, first-consistent, least-frequent
    greedy      knuth, most-parts, entropy, expected-size, separator
    tree_file   `TreeStrategy`: a tree file's guesses
"""

from __future__ import annotations

from ..game import BactreeError, Game
from ..shipped import find_tree
from .base import BlindStrategy, InconsistentHistoryError, SetStrategy, Strategy, UnknownStrategyError
from .baselines import CowsScore, Enumerate, RandomGuess
from .consistent import FirstConsistent, LeastFrequent, RandomConsistent
from .greedy import Entropy, ExpectedSize, Greedy, Knuth, MostParts, Separator
from .tree_file import TreeStrategy

__all__ = [
    "STRATEGIES", "BlindStrategy", "CowsScore", "Entropy", "Enumerate", "ExpectedSize", "FirstConsistent", "Greedy",
    "InconsistentHistoryError", "Knuth", "LeastFrequent", "MostParts", "RandomConsistent", "RandomGuess", "Separator",
    "SetStrategy", "Strategy", "TreeStrategy", "UnknownStrategyError", "make_strategy",
]


STRATEGIES: dict[str, type[Strategy]] = {
    cls.name: cls
    for cls in (
        RandomGuess,
        Enumerate,
        CowsScore,
        RandomConsistent,
        FirstConsistent,
        LeastFrequent,
        Separator,
        Knuth,
        MostParts,
        Entropy,
        ExpectedSize,
    )
}


def make_strategy(spec: str, game: Game, seed: int | None = None, hard: bool = False) -> Strategy:
    """The strategy named `spec` for `game`, or the tree file `tree:FILE` / `FILE.json`.

    With `hard`, a rule that may guess any code (the greedy rules, separator)
    guesses only still-possible codes, and is named `NAME-hard`; rules that
    already do are unchanged, and the others are refused.
    """
    if hard:
        strategy = make_strategy(spec, game, seed)
        if strategy.hard_mode:
            return strategy
        if not strategy.has_hard_variant:
            raise BactreeError(f"strategy {spec!r} has no hard-mode variant (hard mode suits rules that pick among codes)")
        strategy.hard_mode = True
        strategy.name = f"{strategy.name}-hard"
        return strategy
    if spec.startswith("tree:"):
        return TreeStrategy(game, find_tree(spec.removeprefix("tree:")), seed)
    if spec.endswith(".json"):
        return TreeStrategy(game, find_tree(spec), seed)
    try:
        cls = STRATEGIES[spec]
    except KeyError:
        names = ", ".join(STRATEGIES)
        raise UnknownStrategyError(
            f"unknown strategy {spec!r}: choose one of {names}, or a tree file (tree:FILE)"
        ) from None
    return cls(game, seed)
