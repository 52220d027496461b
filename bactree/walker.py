"""Load a tree file and walk it: the guess to make now, the answer you got, the next guess.

Pure Python plus orjson, so that programs which only play a shipped tree
load fast and never pull in numpy, numba or the search.

`load_tree` checks the header and the shape of every node up front; whether
the tree plays every secret right is checked lazily, on the path a walk
takes (each node's answers are compared with the secrets that reach it the
first time any walk answers there). `bactree verify` checks all paths at once.
"""

from __future__ import annotations

import itertools
import operator
import os
from pathlib import Path
from typing import Any, Sequence

from . import shipped
from .game import AnyAnswer, BactreeError, Game, InvalidAnswerError, InvalidCodeError, game_slug
from .treefile import Node, TreeFormatError, check_header, check_node_count, read_document, renamed

__all__ = [
    "InconsistentAnswerError",
    "MissingTreeError",
    "Pair",
    "Tree",
    "TreeFormatError",
    "Walk",
    "WalkStateError",
    "conflicting_answers",
    "describe_pairs",
    "inconsistent_answer",
    "load_shipped_tree",
    "load_tree",
    "shipped_tree_path",
]

Pair = tuple[str, AnyAnswer]


class InconsistentAnswerError(InvalidAnswerError):
    """An answer that no still-possible secret gives to the guess.

    `conflicts` holds the indices (into the history the answer was checked
    against) of a smallest set of earlier answers that, with this one, leave
    no secret; it is empty when the game itself rules the answer out.
    """

    def __init__(self, message: str, conflicts: tuple[int, ...] = ()) -> None:
        super().__init__(message)
        self.conflicts = conflicts


class WalkStateError(BactreeError):
    """A step the walk cannot take from where it is (an answer after the end, an undo at the start)."""


class MissingTreeError(BactreeError):
    """No shipped tree exists for the game asked for."""


def shipped_tree_path(game: Game, objective: str | None = None) -> Path:
    """The shipped tree file of `game`: the best for a player, or where `<slug>-<objective>.json` would be.

    The best is the least height, then the least total, among the shipped
    trees of the game that are not hard mode, as their headers say; trees
    added to `trees/` are picked up with no list to update. A game that is a
    shipped one with its symbols renamed gets that game's tree (its file says
    the shipped symbols: `load_shipped_tree` renames them). `MissingTreeError`
    if the game has none.
    """
    folder = shipped.trees_dir()
    if objective is not None:
        return folder / f"{game_slug(game)}-{objective}.json"
    best = shipped.best_shipped_tree(game, folder, renamed=True)
    if best is None:
        raise MissingTreeError(f"no shipped tree for {game_slug(game)} ({game}) in {folder}; pass a tree file instead")
    return best.path


def load_shipped_tree(game: Game, objective: str | None = None) -> Tree:
    """The shipped tree of `game` (see `shipped_tree_path`); `MissingTreeError` says where it was looked for."""
    path = shipped_tree_path(game, objective)
    if not path.exists():
        raise MissingTreeError(
            f"no shipped {objective} tree for {game_slug(game)} ({game}): {path} does not exist; "
            "pass a tree file instead"
        )
    tree = load_tree(path)
    if tree.game != game:  # a shipped game under other symbols
        doc = renamed(read_document(path), game.symbols)
        tree = Tree(game, doc, f"{path} (symbols renamed {tree.game.symbols} -> {game.symbols})")
    return tree


def load_tree(path: str | os.PathLike[str]) -> Tree:
    """Read a tree file, check its header and every node's shape, and return it.

    A defect raises `TreeFormatError` naming the file and the problem. A game
    past `bactree.game.READ_LIMIT`, or a tree with fewer nodes than its game has
    codes, is refused from the header and a count before any code is listed.
    """
    name = str(path)
    doc = read_document(path)
    game = check_header(doc, name)
    check_node_count(game, doc["root"], name)
    _check_nodes(game, doc["root"], name)
    return Tree(game, doc, name)


def _check_nodes(game: Game, root: Any, name: str) -> None:
    """Check that every node is `{"guess": CODE, "next": {ANSWER: NODE}}` with keys the format allows."""
    solved = str(game.solved)
    ranks: dict[str, int] = {}  # answer keys seen so far, each parsed once, and their slots
    codes = game.code_index
    # A node's position is kept as (parent position, guess, key) and spelled out only for an error.
    stack: list[tuple[Any, Any]] = [(root, None)]
    while stack:
        current, at = stack.pop()
        if not isinstance(current, dict) or "guess" not in current:
            raise TreeFormatError(f"{name}: node at {_spell(at)} is not an object with a 'guess'")
        if len(current) > 2 or (len(current) == 2 and "next" not in current):
            extra = sorted(set(current) - {"guess", "next"})
            raise TreeFormatError(f"{name}: node at {_spell(at)} has unknown field(s) {extra}")
        guess = current["guess"]
        if not isinstance(guess, str):
            raise TreeFormatError(f"{name}: node at {_spell(at)}: guess {guess!r} is not a string")
        if guess not in codes:
            try:
                game.parse_code(guess)
            except InvalidCodeError as err:
                raise TreeFormatError(f"{name}: node at {_spell(at)}: {err}") from None
            raise TreeFormatError(f"{name}: node at {_spell(at)}: guess {guess!r} has spaces around it")
        children = current.get("next") or {}
        if not isinstance(children, dict):
            raise TreeFormatError(f"{name}: node at {_spell(at)}: 'next' is not an object")
        previous = -1
        for key, child in children.items():
            rank = ranks.get(key)
            if rank is None:
                answer = _parse_key(game, key, f"{name}: node at {_spell(at)}")
                if key == solved:
                    raise TreeFormatError(
                        f"{name}: node at {_spell(at)}: the answer {key} ends the game and has no child"
                    )
                rank = ranks[key] = game.rule.slot(answer, game.length)
            if rank <= previous:
                raise TreeFormatError(f"{name}: node at {_spell(at)}: 'next' keys are not in ascending order")
            previous = rank
            stack.append((child, (at, guess, key)))


def _spell(at: Any) -> str:
    """`root 0123:0B2C 4567:1B1C` for a position kept as nested (parent, guess, key) tuples."""
    steps = []
    while at is not None:
        at, guess, key = at
        steps.append(f"{guess}:{key}")
    return " ".join(["root", *reversed(steps)])


def _parse_key(game: Game, key: str, where: str) -> AnyAnswer:
    """The answer an answer key stands for, if it is written as the format says and the game allows it."""
    try:
        answer = game.rule.read_key(key, game.length)
        game.check_answer(answer)
    except InvalidAnswerError as err:
        raise TreeFormatError(f"{where}: invalid answer key {key!r}: {err}") from None
    if str(answer) != key:
        raise TreeFormatError(f"{where}: answer key {key!r} is not written as {answer}")
    return answer


class Tree:
    """A loaded tree file: its game, header figures, and walks from its root."""

    def __init__(self, game: Game, doc: dict[str, Any], name: str) -> None:
        self.game = game
        self.name = name
        self.objective: dict[str, Any] = doc["objective"]
        self.optimal: bool = doc["optimal"]
        self.stats: dict[str, Any] = doc["stats"]
        self.root: Node = doc["root"]
        # Per node (by id; the tree holds every node alive): the secrets that reach it, and
        # how they split on its guess. Filled the first time a walk passes, shared by all walks.
        self._reaching: dict[int, list[str]] = {id(self.root): list(game.secret_codes)}
        self._parts: dict[int, dict[AnyAnswer, list[str]]] = {}

    def __repr__(self) -> str:
        return f"<Tree {self.name!r}: {self.game}, objective {self.objective.get('name')!r}>"

    def start(self) -> Walk:
        """A new walk from the root."""
        return Walk(self)

    def _split(self, current: Node, path: Sequence[Pair]) -> dict[AnyAnswer, list[str]]:
        """How the secrets reaching `current` (at the end of `path`) split on its guess.

        The first time, also checks that the node's `next` holds exactly the answers they give.
        """
        parts = self._parts.get(id(current))
        if parts is None:
            guess, score = current["guess"], self.game.score
            parts = {}
            for secret in self._reaching[id(current)]:
                parts.setdefault(score(guess, secret), []).append(secret)
            children = current.get("next") or {}
            wanted = {str(answer) for answer in parts if answer != self.game.solved}
            if set(children) != wanted:
                missing = sorted(wanted - set(children))
                problem = (
                    f"lacks answer {missing[0]}, which still-possible secrets give"
                    if missing
                    else f"has answer {sorted(set(children) - wanted)[0]}, which no still-possible secret gives"
                )
                where = " ".join(["root", *(f"{g}:{a}" for g, a in path)])
                raise TreeFormatError(f"{self.name}: node at {where} (guess {guess}) {problem}")
            for answer, secrets in parts.items():
                if answer != self.game.solved:
                    self._reaching[id(children[str(answer)])] = secrets
            self._parts[id(current)] = parts
        return parts


class Walk:
    """One game played through a tree: the guess to make now, and the answers so far.

    `answer` advances, `undo` steps back; a refused answer leaves the walk as it was.
    """

    def __init__(self, tree: Tree) -> None:
        self.tree = tree
        self.game = tree.game
        self._all_bulls = tree.game.solved
        self._nodes: list[Node] = [tree.root]  # the node of each guess made or to make
        self._history: list[Pair] = []

    def __repr__(self) -> str:
        state = "solved" if self.solved else f"guess {self.guess}"
        return f"<Walk after {len(self._history)} answer(s), {state}>"

    @property
    def guess(self) -> str:
        """The guess to make now; once solved, the secret found."""
        return self._nodes[-1]["guess"]

    @property
    def solved(self) -> bool:
        """True once the last answer ended the game (all bulls; Jotto's win)."""
        return bool(self._history) and self._history[-1][1] == self._all_bulls

    @property
    def history(self) -> list[Pair]:
        """The (guess, answer) pairs so far, oldest first."""
        return list(self._history)

    @property
    def candidates(self) -> list[str]:
        """The secrets still possible, in code order."""
        if self.solved:
            return [self.guess]
        return list(self.tree._reaching[id(self._nodes[-1])])

    def answer(self, bulls: int | str, cows: int | None = None) -> None:
        """Record the answer to `guess` and move to the next guess: as numbers (`answer(1, 2)`; one number for a rule
        of one, `answer(2)` under Jotto) or as the rule writes it (`answer("1B2C")`, any way `Game.parse_answer` reads).

        Raises `InconsistentAnswerError` if no still-possible secret gives
        that answer (naming the earlier answers it contradicts), `InvalidAnswerError`
        for text that is no answer, and `TreeFormatError` if the tree has no
        branch for an answer it should have.
        """
        if self.solved:
            raise WalkStateError(f"the walk is over: the secret is {self.guess}")
        if isinstance(bulls, str):
            if cows is not None:
                raise TypeError("an answer written as text takes no second number")
            answer = self.game.parse_answer(bulls)
        else:
            numbers = [operator.index(n) for n in (bulls, cows) if n is not None]
            if len(numbers) != self.game.rule.numbers:
                wanted = {2: "bulls and cows", 1: "one number"}.get(self.game.rule.numbers, "text, not numbers")
                raise TypeError(f"an answer under {self.game.rule.name} as numbers takes {wanted}")
            answer = self.game.rule.parse(" ".join(map(str, numbers)), self.game.length)
        guess, current = self.guess, self._nodes[-1]
        parts = self.tree._split(current, self._history)
        if answer not in parts:
            try:
                self.game.check_answer(answer)
            except InvalidAnswerError as err:
                raise InconsistentAnswerError(str(err)) from None
            raise inconsistent_answer(self.game, self._history, guess, answer)
        self._history.append((guess, answer))
        if answer != self._all_bulls:
            self._nodes.append(current["next"][str(answer)])

    def undo(self) -> Pair:
        """Take back the last answer and return it with its guess; the walk asks that guess again."""
        if not self._history:
            raise WalkStateError("nothing to undo: no answer yet")
        pair = self._history.pop()
        if len(self._nodes) > len(self._history) + 1:
            self._nodes.pop()
        return pair


def conflicting_answers(game: Game, history: Sequence[Pair], guess: str, answer: AnyAnswer) -> tuple[int, ...]:
    """Indices of a smallest set of `history` pairs that, with `answer` to `guess`, no secret satisfies.

    Returns `()` if `answer` to `guess` is impossible on its own. Assumes the
    whole set of pairs has no solution (else raises `ValueError`). Each pair
    becomes the bit set of the codes that satisfy it, so trying subsets by
    increasing size costs only integer ANDs.
    """

    def fitting(g: str, a: AnyAnswer) -> int:
        bits = 0
        score = game.scorer(g)
        for i, code in enumerate(game.secret_codes):
            if score(code) == a:
                bits |= 1 << i
        return bits

    new = fitting(guess, answer)
    masks = [fitting(g, a) for g, a in history]
    for size in range(len(masks) + 1):
        for subset in itertools.combinations(range(len(masks)), size):
            bits = new
            for i in subset:
                bits &= masks[i]
            if not bits:
                return subset
    raise ValueError(f"answer {answer} to {guess} fits some secret together with every earlier answer")


def describe_pairs(game: Game, history: Sequence[Pair], indices: Sequence[int]) -> str:
    """`guess 1 (0123: 0B2C) and guess 3 (1456: 1B1C)` for the given history indices, answers as `game` says them."""
    parts = [f"guess {i + 1} ({history[i][0]}: {game.answer_text(history[i][1])})" for i in indices]
    return parts[0] if len(parts) == 1 else ", ".join(parts[:-1]) + " and " + parts[-1]


def inconsistent_answer(game: Game, history: Sequence[Pair], guess: str, answer: AnyAnswer) -> InconsistentAnswerError:
    """The error refusing `answer` to `guess` after `history`, naming the earlier answers it contradicts."""
    conflicts = conflicting_answers(game, history, guess, answer)
    if not conflicts:
        return InconsistentAnswerError(f"no secret gives {game.answer_text(answer)} to {guess}")
    return InconsistentAnswerError(
        f"no secret fits {game.answer_text(answer)} to {guess} together with the answers to "
        f"{describe_pairs(game, history, conflicts)}",
        conflicts,
    )
