"""Exact values of the guesses at a position: from an optimal shipped tree where it has them, else the exact search.

The value of a guess g on the still-possible secrets S is what the rest of
the game costs when g comes next and every later guess is best:

- expected: total guesses to find every secret of S, this one included,
  |S| + the least total of each part S_a (a not all bulls); its mean is the
  total over |S|;
- worst-case: the least height, 1 + the largest least height of the parts
  (1 when g is the only secret).

A shipped tree gives exact totals (expected, proven optimal) or proven
bounds: on the total from a tree not proven optimal (its subtree's total
above, its recorded bound below at the root), on the least height (worst
case: its subtree's height above, exact at the root only; see
`tree_values`), which spare the search the depths they settle.

Searches stop at a deadline; what they proved by then is kept as bounds
(`Value.lower`, and `Value.upper` where a tree is known), never as a value.
One `Engine` keeps the search's memos for its game, so a review reuses the
work of earlier moves.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..compile_clock import Deadline
from ..game.codes import answer_row, columns_apply, encode_answer
from ..game import Game
from ..search import INFINITE, TOTAL_GUESSES, CostSearch, Solver, greedy_total
from ..search.cost.search import BudgetExceeded
from ..search.height.solver import SearchBudgetExceeded
from .alike import GuessClasses
from .position import Pair
from .symmetry import identity, least_image
from .book import Book
from .tree_values import EXPECTED, WORST_CASE, OnTree, TreeValues

OBJECTIVES = (EXPECTED, WORST_CASE)
# Worst case: levels past the least height searched for more guesses to list.
EXTRA_LEVELS = 2
# The largest answer table (one byte an entry) for which an engine builds the whole game's table and the search's aids
# made for the whole game: the table's regrouped copy (`Solver.grouped`) and the bounds by answer class
# (`Solver.class_caps`). On 5 of 10 and Mastermind 5x8 the table alone takes 0.9-1.1 GB and 2-5 s, the aids as much
# again and up to 12 s, more than a time-limited analysis gains (issue 60); 5 of 9 (0.23 GB) keeps them. Past it an
# expected analysis searches each position on a table of its own secrets' columns (`Solver(secrets=...)`).
WHOLE_GAME_AIDS_MAX_BYTES = 256 * 2 ** 20


@dataclass(frozen=True)
class Value:
    """A proven value (`lower == upper`) or proven bounds: `upper` None when no tree reaching a bound is known."""

    lower: int
    upper: int | None

    @property
    def exact(self) -> bool:
        return self.upper == self.lower

    @classmethod
    def of(cls, value: int) -> Value:
        return cls(value, value)


@dataclass(frozen=True)
class Ranking:
    """What an engine found at a position, in the caller's codes: the best guesses, the named one, where values came from."""

    best: list[tuple[str, Value]]
    named: Value | None
    optimum: Value  # bounds on the best value of any guess (exact once proven)
    source: str | None  # "tree NAME" or "book NAME" when shipped data gave values, else None (the search alone)
    timed_out: bool


def subtables_fit(game: Game, objective: str) -> bool:
    """Whether an engine may search `game` on tables of a position's secrets (`Solver(secrets=...)`): expected length
    on a game `answer_columns` takes (`columns_apply`: every preset's). The worst case keeps the whole game: its
    bounds by answer class (`ClassCaps`) count over the whole game's secrets."""
    return objective == EXPECTED and columns_apply(game)


class Engine:
    """Exact values for one game, objective and mode; the search's memos live as long as the engine (or, searching on
    tables of a position's secrets, as long as the positions it ranks fall within the secrets of its table)."""

    def __init__(
        self, game: Game, objective: str = EXPECTED, hard: bool = False, tree: TreeValues | None = None,
        book: Book | None = None, subtables: bool | None = None,
    ) -> None:
        """`subtables`: search each position on a table of its own secrets (`Solver(secrets=...)`) rather than the
        whole game's; None: so on games whose table is over `WHOLE_GAME_AIDS_MAX_BYTES`, where `subtables_fit`."""
        if objective not in OBJECTIVES:
            raise ValueError(f"unknown objective {objective!r}")
        self.game, self.objective, self.hard = game, objective, hard
        aids = game.num_codes ** 2 <= WHOLE_GAME_AIDS_MAX_BYTES
        if subtables is None:
            subtables = not aids and subtables_fit(game, objective)
        elif subtables and not subtables_fit(game, objective):
            raise ValueError(f"no tables of some secrets for {objective} on {game}")
        self.subtables = subtables
        self.num_secrets = len(game.secret_codes)  # the whole game's: depths do not depend on the table searched
        self._local: np.ndarray | None = None  # subtables: the solver's number of each code of `game.codes`
        if not subtables:
            self._use(Solver(game, hard=hard, regroup=aids), class_bounds=aids)
        if tree is not None and tree.objective != objective:
            raise ValueError(f"a tree for {tree.objective!r} cannot value {objective!r}")
        if book is not None and (book.game, book.objective, book.hard) != (game, objective, hard):
            raise ValueError(f"the book {book.name} is for another game, objective or mode")
        self.tree, self.book = tree, book
        self._totals: dict[int, int] = {}  # subtree totals of the tree, by node id
        self._floor = INFINITE  # the last ranking's least bound of the guesses it did not value
        self._classes: GuessClasses | None = None  # the classes of alike guesses on the set ranked last

    def _use(self, solver: Solver, class_bounds: bool = False) -> None:
        """Search with `solver` from now on (a new one: no memo of the last)."""
        self.solver = solver
        self.search = CostSearch(solver, TOTAL_GUESSES, class_bounds=class_bounds)
        self.table = solver.table
        self.index = self.game.code_index if solver.order is None else dict(zip(solver.names, range(solver.num_codes)))

    # -- positions ------------------------------------------------------
    def subset(self, pairs: tuple[Pair, ...]) -> np.ndarray:
        """The still-possible secrets after `pairs`, as the solver's code numbers.

        Searching on tables of a position's secrets, first a solver of those
        secrets (their columns of the table: `Solver(secrets=...)`), unless
        the last one's secrets hold them: then its memos carry over, as on
        the whole game's table (which is what a position of every secret,
        the start, is searched on).
        """
        if not self.subtables:
            subset = self.solver.secrets
            for guess, answer in pairs:
                subset = subset[self.table[self.index[guess], subset] == encode_answer(self.game, answer)]
            return subset
        game = self.game
        secrets = np.arange(game.num_codes, dtype=np.int64)
        for guess, answer in pairs:
            secrets = secrets[answer_row(game, game.code_index[guess])[secrets] == encode_answer(game, answer)]
        if self._local is not None:
            local = self._local[secrets]
            if (local < self.solver.num_secrets).all():
                return np.sort(local)
        whole = len(secrets) == game.num_codes
        self._use(Solver(game, hard=self.hard, regroup=False, secrets=None if whole else secrets))
        order = self.solver.order
        self._local = np.arange(game.num_codes, dtype=np.int64) if order is None else np.argsort(order)
        return self.solver.secrets.copy()

    def _depth(self, guesses: int, size: int) -> int:
        """Guesses allowed below a position: no cap in effect (at least one more than the secrets), and the
        same for a part and for the position it becomes, so that a review's memos carry over."""
        return min(self.num_secrets, max(self.num_secrets - guesses, size + 1))

    def rank(self, pairs: tuple[Pair, ...], top: int, named: str | None, seconds: float | Deadline) -> Ranking:
        """The `top` best guesses after `pairs` and the value of `named`, searching for at most `seconds` more
        (or until a `Deadline` a caller started earlier); compiling kernels does not count."""
        deadline = seconds if isinstance(seconds, Deadline) else Deadline(seconds)
        self._floor = INFINITE
        # A book lists the best guesses outright; else a tree may give the best value (and bounds) along its path.
        booked = self.book.locate(pairs) if self.book is not None and top <= self.book.top else None
        on = self.tree.locate(pairs) if self.tree is not None and booked is None else None
        found = booked or on
        symmetry = found.symmetry if found is not None else identity(self.game)
        where = found.pairs if found is not None else pairs  # the position valued, carried there by `symmetry`
        subset = self.subset(where)
        self._classes = GuessClasses(self.solver, subset)
        history = tuple(self.index[g] for g, _ in where)
        depth = self._depth(len(where), len(subset))
        self.search.deadline = self.solver.deadline = deadline
        try:
            if booked is not None:
                known = {self.index[guess]: Value.of(total) for guess, total in booked.best}
                optimum, timed_out = booked.best[0][1], False
            elif self.objective == EXPECTED:
                known, optimum, timed_out = self._rank_expected(subset, depth, history, top, on)
            else:
                known, optimum, timed_out = self._rank_height(subset, history, top, on)
            named_value = None
            if named is not None:
                fixed = [g for g, _ in where]
                rep = self.index[least_image(self.game, symmetry(named), fixed)]
                named_value = self._named_value(subset, depth, history, rep, known, fixed, on)
                timed_out = timed_out or not named_value.exact
        finally:
            self.search.deadline = self.solver.deadline = None
        if optimum is not None:  # no guess does better than the proven best: bounds below it are raised to it
            known = {g: Value(max(v.lower, optimum), v.upper) for g, v in known.items()}
            if named_value is not None:
                named_value = Value(max(named_value.lower, optimum), named_value.upper)
            best_value = Value.of(optimum)
        else:  # the least bound of the guesses valued, and of those not reached (`floor`), bounds the best
            if on is not None and named_value is not None and self.objective == EXPECTED:
                named_value = Value(max(named_value.lower, self.tree.total_lower(on)), named_value.upper)
            uppers = [v.upper for v in known.values() if v.upper is not None]
            best_value = Value(min([v.lower for v in known.values()] + [self._floor]), min(uppers, default=None))
        back, names = symmetry.inverse(), self.solver.names
        possible = set(subset.tolist())
        code_order = self.solver.order if self.solver.order is not None else range(self.solver.num_codes)
        order = sorted(known.items(),
                       key=lambda kv: (kv[1].lower, kv[1].upper is None, kv[0] not in possible, code_order[kv[0]]))
        best = [(back(names[g]), value) for g, value in order[:top]]
        source = f"book {self.book.name}" if booked is not None else f"tree {self.tree.name}" if on is not None else None
        return Ranking(best, named_value, best_value, source, timed_out)

    def _alike(self, guess: int, known: dict[int, Value]) -> Value | None:
        """The value of a known guess of `guess`'s class (`GuessClasses`): one with the same partition up to the set's
        symmetries. A class, not a guess, is what a ranking lists once, in whatever order its guesses are visited."""
        classes = self._classes
        key = classes.key(guess)
        for other, value in known.items():
            if classes.key(other) == key:
                return value
        return None

    # -- expected ---------------------------------------------------------
    def _tree_total(self, node: dict, subset: np.ndarray) -> int:
        """Total guesses of the tree's subtree at `node` over the secrets `subset` reaching it."""
        found = self._totals.get(id(node))
        if found is not None:
            return found
        children = node.get("next") or {}
        total = len(subset)
        if children:
            row = self.table[self.index[node["guess"]], subset]
            for key, child in children.items():
                part = subset[row == encode_answer(self.game, self.game.rule.read_key(key, self.game.length))]
                total += self._tree_total(child, part)
        self._totals[id(node)] = total
        return total

    def _part_bound(self, subset: np.ndarray, depth: int, guess: int) -> int:
        """A proven lower bound of `guess`'s total from the memos: |S| plus each part's best bound."""
        return len(subset) + sum(self.search.memo_bound(part, depth - 1) for part in self.solver.split(subset, guess))

    def _greedy_total(self, subset: np.ndarray, depth: int, guess: int, history: tuple[int, ...]) -> int | None:
        """The total of `guess` followed by greedy trees on its parts, an upper bound; None if the deadline comes first
        (on the largest games a greedy tree takes seconds)."""
        after = history + (guess,)
        try:
            return len(subset) + sum(
                greedy_total(self.search, part, depth - 1, after)[0] for part in self.solver.split(subset, guess))
        except BudgetExceeded:
            return None

    def _rank_expected(self, subset, depth, history, top, on) -> tuple[dict[int, Value], int | None, bool]:
        """(values found, the least total if proven, whether time ran out) of the best guesses, most `top` exact."""
        # `upper`: (total, first guess) of a tree known to reach it here, an upper bound of the best value.
        search, known, timed_out, optimum, upper = self.search, {}, False, None, None
        if on is not None and self.tree.tree.optimal:
            optimum = self._tree_total(on.node, subset)
            known[self.index[on.node["guess"]]] = Value.of(optimum)
        elif len(subset) == 1:
            optimum = 1
            known[int(subset[0])] = Value.of(1)
        else:
            if on is not None:  # a shipped tree not proven optimal: its subtree plays this position
                upper = self._tree_total(on.node, subset), self.index[on.node["guess"]]
            try:
                if upper is None:
                    # The greedy tree's total first: an upper bound in seconds where a large set's exact search would
                    # not end.
                    upper = greedy_total(search, subset, depth, history)
                optimum, guess = search.best_guess(subset, depth, history)
                known[guess] = Value.of(optimum)
            except BudgetExceeded:
                timed_out = True
        guesses, bases, _ = search.candidates(subset, depth, history)
        floor = 0 if optimum is None else optimum  # no guess does better than a proven best
        possible = set(subset.tolist())
        for guess, base in zip(guesses.tolist(), bases.tolist()):
            base = max(base, floor)
            if timed_out:
                if len(known) >= top:
                    self._floor = base  # out of time: the bounds of the guesses left rank them no better
                    break
                if self._alike(guess, known) is None:
                    known[guess] = Value(max(base, self._part_bound(subset, depth, guess)), None)
                continue
            values = sorted(v.lower for v in known.values())
            limit = values[top - 1] if len(values) >= top else INFINITE
            # Once `top` are found only better guesses are looked for, and still-possible ones that tie
            # with the last while none of those listed is still possible (a player would rather take one).
            tie = limit < INFINITE and guess in possible and not any(
                g in possible for g, v in known.items() if v.lower <= limit)
            if base > limit:
                break
            if (base == limit and not tie) or self._alike(guess, known) is not None:
                continue
            try:
                value = search.guess_value(subset, depth, guess, limit + tie, history)
            except BudgetExceeded:
                if tie:
                    break  # the values found stand; a tie was only wanted
                timed_out = True
                known[guess] = Value(max(base, self._part_bound(subset, depth, guess)), None)
                continue
            if value < limit + tie:
                known[guess] = Value.of(value)
        if optimum is None and upper is not None and upper[1] >= 0:
            # No best value proven: the tree known here (the greedy rule's if it ended in time) bounds its first guess.
            cost, guess = upper  # (a small set's greedy first guess is not named, but its exact search ends in time)
            lower = known[guess].lower if guess in known else self._part_bound(subset, depth, guess)
            known[guess] = Value(min(lower, cost), cost)
        if optimum is None and on is not None:  # no guess does better than the file's bound at the root
            recorded = self.tree.total_lower(on)
            known = {g: Value(max(v.lower, recorded), v.upper) for g, v in known.items()}
            self._floor = max(self._floor, recorded)
        return known, optimum, timed_out

    def _named_value(self, subset, depth, history, guess, known, fixed, on) -> Value:
        """The value of `guess` (the least of its class), taken from a known guess alike to it (`_alike`) or of its
        class given the history, if any."""
        found = self._alike(guess, known)
        if found is not None:
            return found
        codes = self.solver.names
        for other, value in known.items():
            if least_image(self.game, codes[other], fixed) == codes[guess]:
                return value
        if self.objective == WORST_CASE:
            node = None
            if on is not None and least_image(self.game, on.node["guess"], fixed) == codes[guess]:
                guess, node = self.index[on.node["guess"]], on.node  # the tree's guess, up to symmetry: its parts are bounded
            return self._height_of_guess(subset, history, guess, node)
        try:
            return Value.of(self.search.guess_value(subset, depth, guess, INFINITE, history))
        except BudgetExceeded:
            return Value(self._part_bound(subset, depth, guess), self._greedy_total(subset, depth, guess, history))

    # -- worst case -------------------------------------------------------
    def _least_height(
        self, subset: np.ndarray, history: tuple[int, ...], lower: int = 0, upper: int | None = None, witness: int = -1
    ) -> tuple[int, int]:
        """(least height, a guess starting a tree of it); `SearchBudgetExceeded` carries the height reached as `args[0]`.

        `lower`/`upper` are proven bounds (a tree's), `witness` a guess
        reaching `upper`: depths below `lower` are not searched, and once
        every depth below `upper` is refuted the witness is returned unsearched.
        """
        solver, depth = self.solver, 1
        while solver.caps[depth] < len(subset):
            depth += 1
        depth = max(depth, lower)
        while True:
            if upper is not None and depth >= upper:
                return upper, witness
            try:
                guess = solver.find_guess(subset, depth, history)
            except SearchBudgetExceeded:
                raise SearchBudgetExceeded(depth) from None
            if guess >= 0:
                return depth, guess
            depth += 1

    def _height_of_guess(self, subset: np.ndarray, history: tuple[int, ...], guess: int, node: dict | None = None) -> Value:
        """1 plus the largest least height of `guess`'s parts; past the deadline, proven bounds.

        With `node` (a tree's node whose guess is `guess`), each part's
        subtree height bounds its least height from above.
        """
        after = history + (guess,)
        if node is None:
            parts = [(part, None) for part in self.solver.split(subset, guess)]
        else:
            row = self.table[guess, subset]
            parts = [(subset[row == encode_answer(self.game, self.game.rule.read_key(key, self.game.length))], self.tree.height(child))
                     for key, child in (node.get("next") or {}).items()]
        parts.sort(key=lambda pair: len(pair[0]), reverse=True)
        worst = 0
        for at, (part, upper) in enumerate(parts):
            try:
                worst = max(worst, self._least_height(part, after, upper=upper)[0])
            except SearchBudgetExceeded as stop:
                uppers = [u for _, u in parts[at:]]
                top = None if None in uppers else 1 + max([worst, *uppers])  # type: ignore[list-item]
                return Value(1 + max(worst, stop.args[0]), top)
        return Value.of(1 + worst)

    def _rank_height(self, subset, history, top, on: OnTree | None) -> tuple[dict[int, Value], int | None, bool]:
        """(values found, the least height if proven, whether time ran out) of the best guesses, most `top`."""
        solver, known = self.solver, {}
        lower, upper, witness = 0, None, -1
        if on is not None:
            lower, upper = self.tree.height_bounds(on)
            witness = self.index[on.node["guess"]]
        try:
            least, guess = self._least_height(subset, history, lower, upper, witness)
        except SearchBudgetExceeded as stop:
            self._floor = stop.args[0]  # every lower height refuted (or below the tree's proven bound)
            if on is not None:  # the tree's guess reaches its subtree's height
                return {witness: Value(stop.args[0], upper)}, None, True
            return self._unranked(subset, history, stop.args[0]), None, True
        known[guess] = Value.of(least)
        try:
            for level in range(least, least + EXTRA_LEVELS + 1):
                for guess in solver.ordered_guesses(subset, level, history).tolist():
                    if len(known) >= top:
                        return known, least, False
                    if guess in known or self._alike(guess, known) is not None:
                        continue
                    after = history + (guess,)
                    if all(solver.find_guess(part, level - 1, after) >= 0 for part in solver.split(subset, guess)):
                        known[guess] = Value.of(level)
        except SearchBudgetExceeded:
            return known, least, True
        return known, least, False

    def _unranked(self, subset, history, lower) -> dict[int, Value]:
        """No least height within the time: the most promising guess, with the height proven so far as its bound."""
        ordered = self.solver.ordered_guesses(subset, lower, history)
        guess = int(ordered[0]) if len(ordered) else int(subset[0])
        return {guess: Value(lower, None)}
