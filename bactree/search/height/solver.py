"""Exact worst-case search: the least height that solves every secret, with proof.

`Solver.min_height` raises the height from a counting lower bound until the
search finds a tree; every height below was refuted by an exhaustive search,
so the height is proven. The upper levels run here, in Python, where guesses
are pruned by symmetry (permutations of positions combined with relabellings
of symbols that fix every earlier guess) and ordered by their largest part;
the lower levels run in the numba kernel `_find_guess`.

In hard mode every guess must be still possible: a code of the set being
searched. Symmetry pruning stays exact there: an element of the history's
stabiliser fixes every earlier guess and keeps answers (answer(σh, σc) =
answer(h, c)), so it maps the still-possible set onto itself, and with it
the still-possible guesses of one orbit onto each other; the least code of
an orbit of still-possible guesses is still possible.
"""

from __future__ import annotations

import itertools
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import cached_property
from typing import Callable

import numpy as np

from ...game import _answer_kernels as _code_kernels
from ...compile_clock import Deadline
from ...game.codes import (
    answer_columns, answer_table, code_array, decode_answer, grouped_answers, multiset_of, num_slots, secret_indices,
    secrets_first, solved_slot,
)
from ...game import AnyAnswer, Game
from . import _crowd_kernels, _finder_kernels, _height_kernels, _separator_kernels
from .. import _partition_kernels
from .class_caps import ClassCaps
from .cores import CoreStore
from .crowds import CrowdCache, crowd_limits, plain_crowd_limits
from .guess_symmetry import GuessSymmetry
from .screens import NO_CLASSES, ClassScreen
from .refutations import RefutationStore

# At and below this many guesses left the numba kernel takes over (no symmetry).
KERNEL_DEPTH = 3
# `Solver.history_determines` remembers this many counts of the codes giving a history's answers, then starts afresh.
CONSISTENT_CACHE_ENTRIES = 1 << 16
# Refuted sets of this many secrets are remembered up to symmetry (`RefutationStore`) when searched
# above the kernel's depth: smaller ones are searched again faster than they are matched. A set's
# key costs its size squared, which the kernel's sets do not repay: keyed too (2026-11-29), they
# cost a quarter of a 5 of 10 refutation's CPU for hits on 5% of them, and the worst-case trees of
# 5 of 9, 5 of 10 and Mastermind 5x8 were built no faster (the docs' notes, session 37).
STORE_MIN_SET = 20
# Games with symmetry and at most this many codes search without the mask kernels (`Solver.mask_kernels`): with the
# symmetry's pruning `_find_guess` alone is about as fast there, and a first run then compiles neither them nor the
# crowds' screens (about a quarter of its compile). Worst-case search, medians of 5 (2026-12-03, without / with):
# 3 of 10 0.171 / 0.166 s, Mastermind 4x6 0.479 / 0.471, 4 of 9 3.20 / 3.10, 4 of 10 0.770 / 0.819, the same trees.
# A word list has no symmetry: en-4's worst case took 287 s of CPU without them, 32 with (and another tree), so word
# lists keep them, as do the games of 5 (15,120 codes and more), whose proofs run on them (docs/notes/first-run.md).
MASK_KERNELS_FROM_CODES = 6000

Progress = Callable[[str], None]


def transposed(table: np.ndarray, secrets: np.ndarray | None = None) -> np.ndarray:
    """`table.T`, C-contiguous and read-only: a secret's answers to every guess in one row (`Solver.by_secret`).

    With `secrets` (a word game's, ascending) only their rows are filled, the
    others 0: no search reads the row of a code that is never a secret, and
    the zeros' pages are never touched (a sixth of the time and memory of
    the whole transpose on the original Wordle lists).
    """
    if secrets is None:
        flipped = np.ascontiguousarray(table.T)
    else:
        flipped = np.zeros(table.shape[::-1], table.dtype)
        flipped[secrets] = table[:, secrets].T
    flipped.flags.writeable = False
    return flipped


def level_caps(game: Game, max_depth: int) -> np.ndarray:
    """caps[d]: most secrets d guesses can solve (one per answer and level).

    A guess splits a set into at most (answers - 1) parts besides the
    answer that ends the game (all bulls; Jotto's win), so caps[d] = 1 + (answers - 1) * caps[d - 1].
    """
    branching = len(game.answers) - 1
    caps = np.zeros(max_depth + 1, np.int64)
    big = np.iinfo(np.int64).max // (branching + 2)
    for d in range(1, max_depth + 1):
        caps[d] = 1 if d == 1 else min(1 + branching * caps[d - 1], big)
    return caps


class SearchBudgetExceeded(Exception):
    """A search examined more sets than its budget allowed: it decided nothing, and nothing it remembered is wrong."""


@dataclass
class SearchStats:
    """Counters of one search, for progress lines and benchmarks."""

    python_nodes: int = 0
    kernel_calls: int = 0
    kernel_tries: int = 0  # guesses tried with three guesses left (`_three_left_guess`), for budgets
    memo_hits: int = 0
    store_hits: int = 0  # sets found refuted as an image of a stored one
    unsolved_hits: int = 0  # sets with three guesses left found refuted by holding one found so before
    refuted: list[int] = field(default_factory=list)


class Solver:
    """Depth-bounded exact search over one game's codes: any code may be guessed, or in `hard` mode only still-possible ones."""

    def __init__(
        self, game: Game, progress: Progress | None = None, hard: bool = False, table: np.ndarray | None = None,
        regroup: bool = True, by_secret: np.ndarray | None = None, secrets: np.ndarray | None = None,
        mask_kernels: bool | None = None,
    ) -> None:
        """`table`: the game's answer table when one is at hand (a worker's shared copy), else built; `by_secret` the
        same for its transpose (given with `table` only). `regroup`: whether the least-cost search's bounds may use a
        second, regrouped table (`grouped`) where the game has one.

        `secrets` (indices in `game.codes`, ascending): search those secrets
        only, with every code a guess. The solver's codes are then numbered
        in its own order, those secrets first (`order`, `names`), and its
        tables hold their columns only (`answer_columns`): what the coach
        needs of a large game a guess in, not the whole game's table. Sets
        are of the solver's numbers; every search below a history must
        include the guesses that leave these secrets (`history_determines`
        counts among them).

        `mask_kernels`: whether to search with the mask kernels where they are sound; None: but on games with symmetry
        of at most `MASK_KERNELS_FROM_CODES` codes (tests force them on the small games they check them on)."""
        self.game = game
        self.hard = hard
        # Relabellings of positions and symbols map a game of every code onto itself; a word list almost never, nor
        # do Wordle's marks: there every rule that uses them is off (each guess its own orbit, refutations found again
        # only as they are).
        self.symmetric = game.symmetric
        self.regroup = regroup
        # `order[i]`: the index in `game.codes` of this solver's code i; `names[i]` the code itself.
        self.order = None if secrets is None else secrets_first(game, secrets)
        self.codes = code_array(game) if self.order is None else code_array(game)[self.order]
        self.names = game.codes if self.order is None else [game.codes[i] for i in self.order.tolist()]
        if self.order is not None:
            table, by_secret = answer_columns(game, self.codes, len(secrets))
        self.table = answer_table(game) if table is None else table
        # `table[g, s]` is guess g's answer from secret s; the kernels that scan every guess read a secret's answers
        # row by row, `by_secret[s, g]`: the table itself under a `mutual` rule, else its transpose made contiguous
        # (Wordle: crane to trace is YGGBG, trace to crane BGGYG), a second table's memory.
        if game.rule.mutual and self.order is None:
            self.by_secret = self.table
        elif by_secret is not None and table is not None:
            self.by_secret = by_secret
        else:
            self.by_secret = transposed(self.table, None if game.guesses is None else secret_indices(game))
        # The separator and three-left kernels (and the class screens and cores they keep) hold a part's answers in
        # one 64-bit mask and read the table one way only: for wider or non-mutual rules the plain `_find_guess`.
        sound = num_slots(game) <= _separator_kernels.MAX_SLOTS and game.rule.mutual
        if mask_kernels and not sound:
            raise ValueError(f"{game}: the mask kernels need at most {_separator_kernels.MAX_SLOTS} answers and a mutual rule")
        small = game.symmetric and len(self.codes) <= MASK_KERNELS_FROM_CODES
        wanted = not small if mask_kernels is None else mask_kernels
        self.mask_kernels = sound and wanted
        self.num_codes = len(self.codes)
        self.num_slots = num_slots(game)
        self.solved = solved_slot(game)
        self.caps = level_caps(game, self.num_codes)
        positions = itertools.permutations(range(game.length)) if self.symmetric else [tuple(range(game.length))]
        self.perms = np.array(list(positions), np.int64)
        self.all_guesses = np.arange(self.num_codes, dtype=np.int64)
        self.no_guesses = self.all_guesses[:0]
        # Every possible secret, the set a whole game's search starts from: every code, or a word game's secrets
        # among its allowed guesses (then the table's columns of other codes are never a secret).
        if self.order is not None:
            self.secrets = self.all_guesses[: len(secrets)]
        else:
            self.secrets = self.all_guesses if game.guesses is None else secret_indices(game).copy()
        self.num_secrets = len(self.secrets)
        self.progress = progress
        self.stats = SearchStats()
        # Most work `find_guess` may do (`work`); None: no limit. `deadline`: a `Deadline` once passed
        # it stops the same way (for callers that answer in bounded time, not reproducibly).
        self.budget: int | None = None
        self.deadline: Deadline | None = None
        self._memo: dict[tuple[bytes, int], int] = {}
        self.symmetry = GuessSymmetry(self.codes, self.perms, game.num_symbols, self.symmetric, self.all_guesses)
        self._consistent: dict[tuple[tuple[int, ...], bytes], int] = {}  # (history, answers): codes giving them
        self._class_caps: ClassCaps | None = None
        self.refutations = RefutationStore(
            self.codes, self.table, self.perms, game.num_symbols, self.index_of() if self.symmetric else None,
            num_slots=self.num_slots,
        )
        self.cores = CoreStore()  # sets no guess separates, for every three-left search of this solver
        self.unsolved = CoreStore()  # sets no three guesses solve, as the kernel found them (`find_guess`)
        self.crowd_cache = CrowdCache(self.num_codes)  # the codes each crowd met leaves, for `_kernel_guess`
        self._inside = np.zeros(self.num_codes, np.bool_)  # scratch of `unsolved.holds`, all False between calls
        self._screens: list[ClassScreen] = []  # the sets being decided with four guesses left, innermost last

    @cached_property
    def arrangements(self) -> tuple[np.ndarray, int, np.ndarray, int]:
        """(each code's multiset of symbols, numbered; `crowd_limit(2)`; every code's symbols; the alphabet's size)
        for the three-left kernel: more than `crowd_limit(2)` rearrangements of one multiset in a part leave it with
        no separator (`_crowd_kernels`)."""
        return self.multisets.astype(np.int64), self.crowd_limit(2), self.codes, self.game.num_symbols

    @cached_property
    def multisets(self) -> np.ndarray:
        """Each code's multiset of symbols, numbered (`multiset_of`), in this solver's order."""
        found = multiset_of(self.game)
        return found if self.order is None else found[self.order]

    def crowd(self, subset: np.ndarray) -> int:
        """The most secrets of `subset` that are rearrangements of one multiset of symbols."""
        return int(np.bincount(self.arrangements[0][subset]).max())

    @cached_property
    def _crowd_limits(self) -> list[int]:
        if not self.game.rule.bulls_and_shared:  # rearrangements not told apart by bulls alone: no limit but the codes
            return [0, self.num_codes]
        if not self.symmetric:  # the counted limits are per shape of multiset, which takes relabellings: the plain ones
            return plain_crowd_limits(self.game.length, self.num_codes)
        return crowd_limits(self.codes, self.multisets)

    def crowd_limit(self, depth: int) -> int:
        """The most rearrangements of one multiset of symbols that `depth` guesses solve (`crowds.crowd_limits`:
        at most n ** (depth - 1), since bulls alone tell them apart; fewer where few of them have many bulls)."""
        limits = self._crowd_limits
        return limits[min(max(depth, 0), len(limits) - 1)]

    @cached_property
    def grouped(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        """The table regrouped by multisets of symbols for the least-cost search's `_most_answers`
        (`bactree.game.codes.grouped_answers`: built on first use, once per game and process; none for height searches)."""
        if self.order is None:
            return grouped_answers(self.game, self.table, self.regroup)
        return grouped_answers(self.game, self.by_secret, self.regroup, self.codes)

    # -- symmetry (`GuessSymmetry`) --------------------------------------
    def canonical_guesses(self, history: tuple[int, ...]) -> np.ndarray:
        """Guesses that are least in their orbit under the stabiliser of `history` (`GuessSymmetry.canonical_guesses`)."""
        return self.symmetry.canonical_guesses(history)

    def set_canonical_guesses(self, subset: np.ndarray, history: tuple[int, ...]) -> np.ndarray:
        """The history's canonical guesses least in their orbit under `subset`'s own symmetries as well."""
        return self.symmetry.set_canonical_guesses(subset, history)

    def set_orbit_names(self, subset: np.ndarray) -> np.ndarray:
        """For every code, the least code a symmetry of `subset` sends it to (`GuessSymmetry.set_orbit_names`)."""
        return self.symmetry.set_orbit_names(subset)

    def count_caps(self, depth: int) -> tuple[np.ndarray, np.ndarray]:
        """(limits, orbit_of) saying `caps[depth]` of every answer class, for kernels that take class bounds (`ClassCaps.at`)."""
        return np.full((1, self.num_slots), self.caps[depth], np.int64), np.zeros(self.num_codes, np.int64)

    @property
    def class_caps(self) -> ClassCaps:
        """The game's counting bounds per answer class (`class_caps`), made when first asked for."""
        if self._class_caps is None:
            self._class_caps = ClassCaps(
                self.table, self.by_secret, self.codes, self.game.num_symbols, self.solved, self.num_slots, symmetric=self.symmetric
            )
        return self._class_caps

    def index_of(self) -> np.ndarray:
        """index_of[v]: the index of the code whose symbols, read as digits in base `num_symbols`, make v; else -1."""
        return self.symmetry.index_of()

    def guess_pool(self, subset: np.ndarray, history: tuple[int, ...], symmetry: bool, own: bool = False) -> np.ndarray:
        """The guesses to try on `subset`: all, or canonical ones if `symmetry`; in hard mode only codes of `subset`.

        Canonical under the history's stabiliser, or with `own` under the
        set's own symmetries as well (`set_canonical_guesses`), which cost a
        search for them but may leave far fewer guesses. Only where `subset`
        is every code giving the history's answers (`history_determines`):
        the stabiliser keeps that set, not others.
        """
        if self.hard and not symmetry:
            return subset
        if not symmetry:
            pool = self.all_guesses
        elif own:
            pool = self.set_canonical_guesses(subset, history)
        else:
            pool = self.canonical_guesses(history)
        if pool is not self.all_guesses and not self.history_determines(subset, history):
            pool = self.all_guesses  # a set of the caller's own: the history's symmetries need not keep it
        if self.hard:  # a set's symmetries keep it, so they map its codes onto its codes
            pool = np.intersect1d(pool, subset, assume_unique=True)
        return pool

    def history_determines(self, subset: np.ndarray, history: tuple[int, ...]) -> bool:
        """Whether `subset` is every code that gives the answers its codes give to `history`.

        So it is for every set a search meets below a whole game or a class
        of answers; a set a caller hands over (with no history, or one it
        does not come from) need not be, and no symmetry of the history may
        be used on it. The counts are remembered per history and answers
        (within `CONSISTENT_CACHE_ENTRIES`).
        """
        if not history:  # the whole game's secrets; of a solver of some secrets, no set without the history leaving them
            return self.order is None and len(subset) == self.num_secrets
        guesses = list(history)
        answers = self.table[guesses, subset[0]]
        key = (history, answers.tobytes())
        count = self._consistent.get(key)
        if count is None:
            if len(self._consistent) >= CONSISTENT_CACHE_ENTRIES:
                self._consistent.clear()
            # Secrets only: the other codes' columns of a word game's table are never read (`answer_table`).
            rows = self.table[guesses] if self.game.guesses is None else self.table[np.ix_(guesses, self.secrets)]
            count = self._consistent[key] = int(np.all(rows == answers[:, None], axis=0).sum())
        return count == len(subset)

    @property
    def work(self) -> int:
        """Sets searched here and by the kernels, plus guesses tried at three left: what budgets count (deterministic)."""
        return self.stats.python_nodes + self.stats.kernel_calls + self.stats.kernel_tries

    # -- feasibility ----------------------------------------------------
    def find_guess(self, subset: np.ndarray, depth: int, history: tuple[int, ...] = ()) -> int:
        """A guess that starts a tree solving `subset` within `depth` guesses, or -1 if none exists."""
        s = len(subset)
        if s <= 2:
            return int(subset[0]) if depth >= s else -1
        if s > self.caps[depth] or self.crowd(subset) > self.crowd_limit(depth):
            return -1
        if self.budget is not None and self.work >= self.budget:
            raise SearchBudgetExceeded
        if self.deadline is not None and self.deadline.passed():
            raise SearchBudgetExceeded
        # Unless in hard mode, a set holding one that three guesses do not solve is not solved either: a tree
        # for it would solve the smaller set. The sets the kernel refutes are kept whole (`unsolved`), since on the
        # parts of a decision with four guesses left the later guesses' parts often hold an earlier one.
        three_left = depth == KERNEL_DEPTH and not self.hard
        if three_left and self.unsolved.holds(subset, self._inside):
            self.stats.unsolved_hits += 1
            return -1
        keyed = s >= STORE_MIN_SET and depth > KERNEL_DEPTH
        key = self.refutations.key(subset, depth) if keyed else None
        if key is not None and self.refutations.refuted(subset, depth, key):
            self.stats.store_hits += 1
            return -1
        result = self._kernel_guess(subset, depth) if depth <= KERNEL_DEPTH else self._searched_guess(subset, depth, history)
        if key is not None and result < 0:
            self.refutations.add(subset, depth, key)
        elif keyed and self.refutations.claims is not None:
            self.refutations.claims.check_solved(subset, depth)  # a loaded claim this search just disproved
        if three_left and result < 0:
            self.unsolved.add(subset)
        return result

    def found_guesses(self) -> dict[tuple[bytes, int], int]:
        """The guesses this solver's searches above the kernel found, by (set's bytes, depth): each starts a tree
        of its set within the depth, and so are its parts above the kernel's depth (what `TreeFinder.seed` takes)."""
        return {key: guess for key, guess in self._memo.items() if guess >= 0}

    def _kernel_guess(self, subset: np.ndarray, depth: int) -> int:
        """`find_guess` by the numba kernels alone: no symmetry, every guess tried."""
        self.stats.kernel_calls += 1
        if self.mask_kernels and depth >= 2:  # the same answer, faster
            if depth == 2:
                return int(_separator_kernels._separating_guess(self.table, subset, self.hard))
            if not self.hard and self.crowd_cache.leave_no_guess(subset, self.arrangements):
                return -1  # as the kernel says, with no guess tried, when its crowds leave no code
            caps = self.class_caps
            classes = self._screens[-1].arrays() if self._screens else NO_CLASSES
            guess, tried = _finder_kernels._three_left_guess(
                self.table, subset, self.solved, self.num_slots, caps.at(2), caps.orbit_of, self.arrangements, self.hard, -1,
                self.cores.arrays(), classes,
            )
            self.stats.kernel_tries += int(tried)
            return int(guess)
        return int(
            _height_kernels._find_guess(
                self.table, self.by_secret, subset, depth, self.no_guesses, self.no_guesses if self.hard else self.all_guesses,
                self.solved, self.num_slots, self.caps,
            )
        )

    def _searched_guess(self, subset: np.ndarray, depth: int, history: tuple[int, ...]) -> int:
        """`find_guess` in Python: canonical guesses best first, each decided part by part, remembered by set."""
        key = (subset.tobytes(), depth)
        if key in self._memo:
            self.stats.memo_hits += 1
            return self._memo[key]
        self.stats.python_nodes += 1
        result = -1
        if len(subset) <= self.class_caps.whole(depth):  # else no tree of `depth` holds the set
            with self.screening(subset, depth):
                for guess in self.ordered_guesses(subset, depth, history):
                    if self._guess_works(subset, depth, history, int(guess)):
                        result = int(guess)
                        break
        self._memo[key] = result
        return result

    @contextmanager
    def screening(self, subset: np.ndarray, depth: int) -> Iterator[None]:
        """While `subset` is decided within `depth` = 4 guesses, the three-left searches of its parts screen
        guesses by its answer classes (`screens.ClassScreen`); other depths, hard mode and wide answers: no change."""
        if depth != KERNEL_DEPTH + 1 or self.hard or not self.mask_kernels:
            yield
            return
        self._screens.append(ClassScreen(self.table, subset, self.num_slots, self.solved))
        try:
            yield
        finally:
            self._screens.pop()

    def ordered_guesses(self, subset: np.ndarray, depth: int, history: tuple[int, ...]) -> np.ndarray:
        """Canonical guesses whose parts all fit `depth - 1`, best first.

        Best means smallest largest part, then still-possible, then lowest code.
        Guesses that leave the set whole are dropped: they tell nothing; so
        are those with a part larger than its answer class's bound within
        `depth - 1` (`ClassCaps`) or holding more rearrangements of one
        multiset of symbols than `depth - 1` guesses solve (`crowd_limit`):
        they start no tree of `depth`.
        """
        candidates = self.guess_pool(subset, history, True, own=True)
        counts = _code_kernels._partition_counts(self.by_secret, candidates, subset, self.num_slots)
        counts[:, self.solved] = 0
        largest = counts.max(axis=1)
        member = np.zeros(self.num_codes, np.bool_)
        member[subset] = True
        possible = member[candidates]
        keep = (largest <= self.caps[depth - 1]) & ((largest < len(subset)) | possible)
        keep[keep] = self.class_caps.fits(candidates[keep], counts[keep], depth - 1)
        multiset_ids, _, codes, num_symbols = self.arrangements
        keep[keep] = ~_crowd_kernels._crowded_guesses(
            self.table, candidates[keep], subset, multiset_ids, codes, num_symbols, self.crowd_limit(depth - 1),
            self.solved, self.num_slots,
        )
        order = np.lexsort((candidates[keep], ~possible[keep], largest[keep]))
        ordered = candidates[keep][order]
        claims = self.refutations.claims
        if claims is None or not claims.sizes(depth - 1):
            return ordered
        # Guesses leaving a part a loaded file of other code claims refuted go last: tried all the same, so what the
        # search decides is its own, and where the claims are true the first guess that works is the same.
        sizes = claims.sizes(depth - 1)
        claimed = np.isin(counts[keep][order], sizes).any(axis=1)
        for i in np.flatnonzero(claimed):
            claimed[i] = any(claims.match(part, depth - 1) is not None for part in self.split(subset, int(ordered[i])))
        return np.concatenate([ordered[~claimed], ordered[claimed]])

    def _guess_works(self, subset: np.ndarray, depth: int, history: tuple[int, ...], guess: int) -> bool:
        parts = self.split(subset, guess)
        for part in sorted(parts, key=len, reverse=True):
            if self.find_guess(part, depth - 1, history + (guess,)) < 0:
                return False
        return True

    def split(self, subset: np.ndarray, guess: int) -> list[np.ndarray]:
        """The parts of `subset` by answer to `guess`, all-bulls excluded, in answer order."""
        ordered, starts, counts = _partition_kernels._split(self.table[guess], subset, self.num_slots)
        return [
            ordered[starts[a] : starts[a + 1]]
            for a in range(self.num_slots)
            if counts[a] and a != self.solved
        ]

    def answer_to(self, guess: int, part: np.ndarray) -> AnyAnswer:
        """The answer every secret of `part` gives to `guess`."""
        return decode_answer(self.game, self.table[guess, part[0]])

    def most_solved(self, depth: int) -> int:
        """A bound of the most secrets of the game `depth` guesses solve: the count of `level_caps`, or the class bounds' if less."""
        return min(int(self.caps[depth]), self.class_caps.whole(depth))

    def over_class_cap(self, guess: int, part: np.ndarray, depth: int) -> bool:
        """True if `part`, what `guess` leaves of a set with one answer, holds more secrets than `depth` guesses solve of that answer's class."""
        caps = self.class_caps
        return len(part) > caps.at(depth)[caps.orbit_of[guess], self.table[guess, part[0]]]

    def counting_floor(self) -> int:
        """The least height counting does not refute (`most_solved`): where a least-height search starts."""
        depth = 1
        while self.most_solved(depth) < self.num_secrets:
            depth += 1
        return depth

    def counted_out(self, depth: int) -> str:
        """The progress line of a height refuted by counting: `depth` guesses solve fewer secrets than the game has."""
        return f"height {depth}: refuted by counting (at most {self.most_solved(depth)} of {self.num_secrets} secrets)"

    def refuted_one_guess_deep(self, subset: np.ndarray, depth: int, history: tuple[int, ...] = ()) -> bool:
        """True if every guess on `subset` leaves a part the class bounds or the refutation store rule out within `depth - 1`.

        A sound refutation at the cost of one look at each guess's parts: what
        a search that loaded the refutations of a long run of this code
        (`RefutationStore.load`) finds at once, before any tree finder spends
        its time; with none, what the class bounds alone refute (5 of 10
        within 6 guesses). Claims of other code (`RefutationStore.claims`)
        refute nothing here.
        """
        for guess in self.ordered_guesses(subset, depth, history):
            parts = sorted(self.split(subset, int(guess)), key=len, reverse=True)
            if not any(len(part) >= STORE_MIN_SET and self.refutations.refuted(part, depth - 1) for part in parts):
                return False
        return True

    def min_height(self) -> int:
        """The least worst case over all secrets, proven: every smaller height refuted."""
        start = time.perf_counter()
        everything = self.secrets
        depth = self.counting_floor()
        self.stats.refuted.extend(range(1, depth))
        if self.progress and depth > 1:
            self.progress(self.counted_out(depth - 1))
        while True:
            if self.progress:
                self.progress(f"height {depth}: searching")
            if self.find_guess(everything, depth) >= 0:
                break
            self.stats.refuted.append(depth)
            if self.progress:
                stats = self.stats
                self.progress(
                    f"height {depth}: refuted ({time.perf_counter() - start:.1f}s; {stats.python_nodes} sets searched "
                    f"with symmetry, {stats.kernel_calls} kernel searches, {stats.memo_hits} memo hits)"
                )
            depth += 1
        return depth
