"""`build`: compile an optimal tree for a game, with proof, as a tree-file document."""

from __future__ import annotations

import contextlib
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from . import warm_up
from .executors import make_executor
from ..game import BUILD_LIMIT, BactreeError, Game, counted
from ..search import DEEPER_CALLS, GREEDY_RULES, INFINITE, TOTAL_GUESSES, Cost, CostSearch, Solver, TreeFinder, refine
from ..search.height.finder import EVERY
from ..search.height import solver as search_height
from ..search.height.solver import SearchBudgetExceeded
from ..search.height.refutations import kept_in
from .first_guesses import exact_builds_best, holds_first_guesses, solve_first_guesses
from .openings import EVERY_FIRST_GUESS, chosen_first_guess, given_first_guess, solve_every_first_guess
from .subproblems import find_by_first_answer, forced_first_guess, solve_by_first_answer
from ..treefile import Node, Objective, document

OBJECTIVES = ("worst-case", "expected")
TIE_BREAKS = Cost.KEYS
# Worst case with no tie-break: the least height, proven, and the first tree found of it (`least_height_tree`).
HEIGHT_ONLY = "none"

Progress = Callable[[str], None]


@dataclass
class BuildResult:
    """A built tree file document and how the build went."""

    document: dict[str, Any]
    height: int
    cost: int
    seconds: float
    searched: int

    @property
    def stats(self) -> dict[str, Any]:
        return self.document["stats"]


def parse_tie_breaks(chain: str) -> tuple[str, ...]:
    """`crush,total` -> ("crush", "total"): the worst-case keys in order, each known and given once."""
    keys = tuple(key.strip() for key in chain.split(","))
    for key in keys:
        if key not in TIE_BREAKS:
            raise BactreeError(f"unknown tie-break {key!r} in {chain!r}: choose from {', '.join(TIE_BREAKS)} (or {HEIGHT_ONLY} alone)")
    if len(set(keys)) < len(keys):
        raise BactreeError(f"tie-break {chain!r} names a key twice")
    return keys


def build(
    game: Game,
    objective: str = "worst-case",
    tie_break: str | None = None,
    max_guesses: int | None = None,
    progress: Progress | None = None,
    budget: int | None = None,
    workers: int | None = None,
    checkpoint: Path | None = None,
    resume: bool = False,
    executor: str = "local",
    address: str | None = None,
    hard: bool = False,
    greedy: str = "bound",
    first_guess: str | None = None,
    refutations: Path | None = None,
    deeper_calls: int | None = None,
    exact_from: Path | None = None,
    others_deeper_to: int | None = None,
) -> BuildResult:
    """Compile a provably optimal tree.

    `worst-case`: the least height (every smaller height refuted by
    exhaustive search), then among trees of that height the least
    `tie_break` keys in order (comma-separated: `nodes`, the default, `total`
    guesses, `crush`: secrets solved at the least height). `expected`: the least
    total number of guesses over all secrets, within `max_guesses` guesses
    if given. With `hard`, every guess must be a code still possible given
    the answers so far. Remaining ties go to the lowest code at each node,
    so the same inputs give the same tree.

    When symmetry forces the first guess, an expected build solves the parts
    of its answers as independent subproblems on `workers` processes, saving
    each to `checkpoint` as it finishes (`resume` reuses them); `executor`
    "ray" runs them on Ray instead (`address`: a running cluster). With a
    `budget` of searched sets, a set that needs more keeps its best-bound
    guess and its parts are refined in turn (`bactree.search.cost.refine`); the file
    then says `optimal: false` with a proven `lower_bound`, unless the bounds
    meet. `greedy` names the rule of the greedy trees (`CostSearch.greedy`):
    "bound" (the best-bound guess) or "entropy"; it sets the guess kept past
    the budget, and an exact search's starting bound (not its result).
    `deeper_calls` caps the parts per set past the budget that the lower
    bound looks two guesses into (`bactree.search.cost.refine`; None: its
    `DEEPER_CALLS`): more, a higher
    bound for more time; the tree may change too, as the deeper bounds
    steer the budgeted searches after them.

    `first_guess` (a code) fixes the first guess of an expected build,
    budgeted or exact: the parts of its answers are solved as above, and the
    file records it (`objective.first_guess`), so that `optimal` and the
    lower bound are of the trees that start with it. A budgeted expected
    build whose first guess symmetry does not force (Mastermind) and that is
    given none takes the greedy rule's and splits by its answers the same
    way; every other first guess is bounded by one guess of lookahead below
    each of its parts, so the lower bound holds for the whole game; with
    `others_deeper_to`, their large parts two guesses deep, each guess as
    far as that bound or the picked guess's own, whichever is less (the tree
    stays the same; `OtherFirstGuesses.deepened`).
    `first_guess` "all" refines every first guess's class
    that could give a better tree and keeps the best (`bactree.pipeline.openings`),
    each class saving its parts to a resume file of its own beside
    `checkpoint`.

    `refutations` names a file of sets refuted within some number of guesses
    (`bactree.search.height.refutations`) for the worst-case objective: the
    exhaustive search starts from what it holds and saves what it refutes
    back to it as it goes and when it ends, so a build stopped by its budget
    or a signal resumes its refutations. It never changes a proven result:
    only a file of this search code is believed (`bactree.search.provenance`);
    another's entries steer the search and are refuted again, and a tree
    found for a set one of them claims refuted is an error naming it
    (`ClaimContradicted`), never a written tree.

    `exact_from` names the resume file of an exact expected build of the
    same game (run for hours, unfinished): a budgeted expected build takes
    its finished parts, and the trees of the second guesses it has valued,
    wherever they cost less than its own (`subproblems._bettered`); every
    one is replayed first, and a file of another build is refused. For a
    build that picks its first guess the exact build is of the whole game,
    its first guesses decided in turn (`bactree.pipeline.first_guesses`):
    its best tree so far, replayed, is taken if it costs less; the lower
    bound stays this build's own.

    An exact expected build whose first guess is neither forced nor given
    (a word list) saves each first guess it decides to `checkpoint`, and
    `resume` goes on from there (`bactree.pipeline.first_guesses`).
    """
    game.check_size(BUILD_LIMIT)
    if objective not in OBJECTIVES:
        raise BactreeError(f"unknown objective {objective!r}: choose one of {', '.join(OBJECTIVES)}")
    if tie_break is not None and objective == "expected":
        raise BactreeError("--tie-break is for -O worst-case: the expected objective ranks trees by total guesses alone")
    tie_break = tie_break or "nodes"
    keys = () if tie_break == HEIGHT_ONLY else parse_tie_breaks(tie_break)
    if max_guesses is not None and max_guesses < 1:
        raise BactreeError(f"--max-guesses must be at least 1, got {max_guesses}")
    if max_guesses is not None and max_guesses > game.num_secrets:  # a guess of a secret still possible solves one
        raise BactreeError(f"--max-guesses {max_guesses} is more than the game's {game.num_secrets:,} secrets: no tree "
                           f"needs more guesses than there are secrets (leave it out for no cap)")
    if workers is not None and workers < 1:
        raise BactreeError(f"--workers must be at least 1, got {workers}")
    if budget is not None and budget < 0:
        raise BactreeError(f"--budget must be at least 0, got {budget}")
    if greedy not in GREEDY_RULES:
        raise BactreeError(f"unknown greedy rule {greedy!r}: choose one of {', '.join(GREEDY_RULES)}")
    if first_guess == EVERY_FIRST_GUESS:
        if objective != "expected" or budget is None:
            raise BactreeError("--first all is for budgeted expected builds: add -O expected --budget SETS")
    elif first_guess is not None:
        game.parse_code(first_guess)
        if objective != "expected":
            raise BactreeError("--first is for expected builds: add -O expected")
    if deeper_calls is not None:
        if deeper_calls < 0:
            raise BactreeError(f"--deeper-calls must be at least 0, got {deeper_calls}")
        if objective != "expected" or budget is None:
            raise BactreeError("--deeper-calls is for budgeted expected builds: add -O expected --budget SETS")
    if others_deeper_to is not None and others_deeper_to < 0:
        raise BactreeError(f"--others-deeper-to must be at least 0, got {others_deeper_to}")
    if others_deeper_to is not None and (objective != "expected" or budget is None or first_guess is not None):
        raise BactreeError("--others-deeper-to is for budgeted expected builds that pick their first guess: "
                           "add -O expected --budget SETS, without --first")
    if exact_from is not None and (objective != "expected" or budget is None or first_guess == EVERY_FIRST_GUESS):
        raise BactreeError("--exact-from is for budgeted expected builds of one first guess: add -O expected --budget SETS")
    if exact_from is not None and checkpoint is not None and exact_from.resolve() == checkpoint.resolve():
        raise BactreeError(f"--exact-from names this build's own resume file {checkpoint}: give the exact build's")
    if refutations is not None and objective != "worst-case":
        raise BactreeError("--refutations is for -O worst-case: it holds sets refuted within some number of guesses")
    make_executor(executor, workers, address)  # bad executor options fail before any search
    say = progress or (lambda message: None)
    start = time.perf_counter()
    solver = Solver(game, progress=say, hard=hard)
    with contextlib.ExitStack() as kept:
        if refutations is not None:
            # Only refutations above the kernel's depth are kept in the file: those take seconds to hours each.
            believed, claimed = kept.enter_context(
                kept_in(solver.refutations, refutations, game, min_depth=search_height.KERNEL_DEPTH + 1)
            )
            say(f"refutations: {believed} set(s) loaded from {refutations}; saved there as the search goes")
            if claimed:
                say(f"refutations: {claimed} set(s) of {refutations} were refuted by other search code (or name none): "
                    "they steer the search, and every height is refuted again here")
        return _built(game, solver, objective, tie_break, keys, max_guesses, progress, budget, workers, checkpoint,
                      resume, executor, address, hard, greedy, first_guess,
                      DEEPER_CALLS if deeper_calls is None else deeper_calls, start, exact_from, others_deeper_to)


def _built(
    game: Game, solver: Solver, objective: str, tie_break: str, keys: tuple[str, ...], max_guesses: int | None,
    progress: Progress | None, budget: int | None, workers: int | None, checkpoint: Path | None, resume: bool,
    executor: str, address: str | None, hard: bool, greedy: str, first_guess: str | None, deeper_calls: int,
    start: float, exact_from: Path | None = None, others_deeper_to: int | None = None,
) -> BuildResult:
    """`build` once its options are checked, with `solver` made (and its refutations loaded)."""
    say = progress or (lambda message: None)
    everything = solver.secrets
    if objective == "worst-case" and tie_break == HEIGHT_ONLY:
        height, lower, root = least_height_tree(solver, progress, workers, checkpoint, resume, executor, address, budget)
        _check_claims(solver, root)
        if lower == height:
            say(f"height {height} proven in {time.perf_counter() - start:.1f}s")
        else:
            say(f"a tree of height {height} found in {time.perf_counter() - start:.1f}s; proven lower bound {lower}")
        doc = document(game, Objective("worst-case", (), hard, max_guesses), lower == height, root,
                       None if lower == height else lower)
        return BuildResult(doc, height, height, time.perf_counter() - start, 0)
    if objective == "worst-case" or max_guesses is not None:
        if solver.symmetric:
            # The tie-break's kernels compile in a second process meanwhile (an empty numba cache, two cores).
            warming = warm_up.start(solver, Cost.chain(keys, 1, solver.num_secrets)) if objective == "worst-case" else None
            height = solver.min_height()
            warm_up.finish(warming)
        else:  # no symmetry prunes the exhaustive search (a word list): a tree found by broadening ends it sooner
            height, _, _ = least_height_tree(solver, progress)
        say(f"height {height} proven in {time.perf_counter() - start:.1f}s")
        if max_guesses is not None and max_guesses < height:
            raise BactreeError(f"no tree solves every secret within {max_guesses} guesses: the least is {height}")
    if objective == "worst-case":
        cost_kind = Cost.chain(keys, height, solver.num_secrets)
        depth = height
        recorded = Objective("worst-case", keys, hard, max_guesses)
    else:
        cost_kind = TOTAL_GUESSES
        # No tree needs more guesses than there are secrets.
        depth = solver.num_secrets if max_guesses is None else min(max_guesses, solver.num_secrets)
        recorded = Objective("expected", (), hard, max_guesses)
    say(f"minimising {cost_kind.name} within {counted(depth, 'guess', 'guesses')}")
    given = first_guess not in (None, EVERY_FIRST_GUESS)
    first = forced_first_guess(solver) if objective == "expected" else None
    every = first_guess == EVERY_FIRST_GUESS and first is None
    others = INFINITE  # a proven lower bound of the trees whose first guess is not `first`
    other_firsts = None  # those first guesses, when the build picked `first` (`chosen_first_guess`)
    if given:
        assert first_guess is not None
        first = given_first_guess(solver, depth, first_guess)
        recorded = Objective("expected", (), hard, max_guesses, game.codes[first])
        say(f"first guess {game.codes[first]} (given: the trees that start with it only): one subproblem per answer")
    elif first is not None:
        say(f"first guess {game.codes[first]} forced by symmetry: one subproblem per answer")
    elif objective == "expected" and budget is not None and not every:
        first, other_firsts = chosen_first_guess(solver, depth, greedy)
        others = other_firsts.bound
        say(f"first guess {game.codes[first]} (the {greedy} rule's pick; any other costs at least {others}): "
            "one subproblem per answer")
    if every:
        assert budget is not None  # checked with the options
        root, cost, lower, searched = solve_every_first_guess(
            solver, depth, budget, workers, checkpoint, progress, fresh=not resume,
            executor=executor, address=address, greedy=greedy, deeper_calls=deeper_calls,
        )
    elif first is not None:
        # A build that picks its first guess takes an exact build's best tree of the whole game, if better, at the end.
        whole = exact_from if exact_from is not None and holds_first_guesses(exact_from) else None
        if whole is not None and other_firsts is None:
            raise BactreeError(f"{exact_from} is of an exact build of the whole game (its first guesses decided): "
                               "give it to a budgeted build without --first")
        root, cost, lower, searched = solve_by_first_answer(
            solver, first, depth, budget, workers, checkpoint, progress, fresh=not resume,
            executor=executor, address=address, greedy=greedy, deeper_calls=deeper_calls,
            exact=exact_from if whole is None else None,
        )
        if other_firsts is not None and others_deeper_to is not None:
            target = min(lower, others_deeper_to)  # past the picked guess's own bound the game's cannot rise
            if others < target:
                say(f"bounding the other first guesses two guesses deep, up to {target}")
                others = other_firsts.deepened(target)
        if others < INFINITE:
            say(f"trees that start with {game.codes[first]} cost at least {lower}; any other, at least {others}")
        lower = min(lower, others)
        if whole is not None:
            root, cost = _exact_builds_best(solver, depth, whole, root, cost, lower, say)
    elif budget is None and objective == "expected":  # no first guess forced (a word list): each one decided is saved
        root, cost, searched = solve_first_guesses(solver, depth, checkpoint, progress, not resume, greedy)
        lower = cost
    else:
        search = CostSearch(solver, cost_kind, say, greedy)
        if budget is None:
            cost = lower = search.solve(everything, depth)
            root = search.tree(everything, depth)
        else:
            cost, lower, root = refine(search, everything, depth, (), budget, deeper_calls)
        searched = search.nodes_searched
    if objective == "worst-case":
        _check_claims(solver, root)
    optimal = cost == lower
    say(f"least {cost_kind.name}: {cost}" if optimal else f"best {cost_kind.name} found: {cost}, proven lower bound {lower}")
    # The file's lower bound is of the objective's main figure (tree format): for the worst case the height, proven
    # above (the tie-break's own bound is said in the progress line only); else the first key, since the later ones
    # add less than its weight.
    bound = height if objective == "worst-case" else lower // max(cost_kind.weights)
    doc = document(game, recorded, optimal, root, None if optimal else bound)
    return BuildResult(doc, doc["stats"]["max_guesses"], cost, time.perf_counter() - start, searched)


def _exact_builds_best(
    solver: Solver, depth: int, path: Path, root: Node, cost: int, lower: int, say: Progress
) -> tuple[Node, int]:
    """(tree, total): the best tree an unfinished exact build of the game saved in `path` (`exact_builds_best`,
    replayed) where it costs less than `root`, else `root`; a total below the proven `lower` is an error."""
    best = exact_builds_best(path, solver, depth)
    if best is None or best[1] >= cost:
        say(f"{path.name}: " + ("no first guess valued yet" if best is None else f"its best tree totals {best[1]}")
            + f": this build's tree ({cost}) kept")
        return root, cost
    tree, total = best
    if total < lower:
        raise BactreeError(f"{path}: its tree totals {total}, below the lower bound {lower} proven here: "
                           "one of the two is wrong")
    say(f"{path.name}: its best tree (first guess {tree['guess']}) totals {total}, less than {cost}: taken")
    return tree, total


def _check_claims(solver: Solver, root: Node) -> None:
    """Raise `ClaimContradicted` if the tree found solves a set that a loaded file of other code claims refuted."""
    claims = solver.refutations.claims
    if claims is not None:
        claims.check_tree(solver.game, solver.table, root)


def least_height_tree(
    solver: Solver,
    progress: Progress | None = None,
    workers: int | None = None,
    checkpoint: Path | None = None,
    resume: bool = False,
    executor: str = "local",
    address: str | None = None,
    budget: int | None = None,
) -> tuple[int, int, Node]:
    """(height, proven lower bound, a tree of that height), for games too big to minimise a tie-break among such trees.

    From the counting bound up (`Solver.most_solved`: per answer class), each
    height the loaded refutations do not rule out one guess deep
    (`Solver.refuted_one_guess_deep`) is first given to `TreeFinder`
    (iterative broadening: quick where trees exist), split by the first
    answer when symmetry forces the first guess (parts on the executor,
    saved to `checkpoint` as they finish, reused with `resume`). When it
    finds none, `Solver.find_guess` decides the height exactly: refuted, so
    the next height is tried, or a tree exists, which the finder then
    writes out from the guesses the exhaustive search found (its sets
    above the kernel's depth), trying every guess below them. So every
    height below the one returned is refuted, and the lower bound is the
    height. With a `budget` (sets each search
    may examine) a height the exhaustive search cannot decide within it is
    the lower bound, and the finder goes on up (within the budget too, but
    for the last height tried, where it is given as long as it needs).
    """
    say = progress or (lambda message: None)
    first = forced_first_guess(solver)
    depth = solver.counting_floor()
    if depth > 1:
        say(solver.counted_out(depth - 1))
    lower: int | None = None  # the least height not refuted, once the exhaustive search could not decide one
    while True:
        if lower is None and solver.refuted_one_guess_deep(solver.secrets, depth):
            say(f"height {depth}: refuted (every first guess leaves a part ruled out by counting or refuted in the "
                "refutations loaded)")
            depth += 1
            continue
        # Past an undecided height no refutation can follow, so the next height's finder has no budget.
        allowed = None if lower is not None and depth > lower else budget
        say(f"height {depth}: searching for a tree (iterative broadening)")
        if first is not None:
            root = find_by_first_answer(solver, first, depth, allowed, workers, checkpoint, progress, not resume,
                                        executor, address)
        else:
            finder = TreeFinder(solver, progress, allowed)
            root = finder.tree(solver.secrets, depth) if finder.find(solver.secrets, depth) >= 0 else None
        if root is not None:
            return depth, depth if lower is None else lower, root
        if lower is None:
            say(f"height {depth}: no tree found by broadening; exhaustive search")
            solver.budget = None if budget is None else solver.work + budget
            try:
                exists = solver.find_guess(solver.secrets, depth) >= 0
            except SearchBudgetExceeded:
                lower = depth
                say(f"height {depth}: undecided within the budget of {budget}; the least height is at least {depth}")
                depth += 1
                continue
            finally:
                solver.budget = None
            if exists:  # the tree the exhaustive search found, its kernel levels found again by the finder
                finder = TreeFinder(solver, progress)
                finder.seed(solver.found_guesses())
                finder.find(solver.secrets, depth, widths=(EVERY,))
                return depth, depth, finder.tree(solver.secrets, depth)
            say(f"height {depth}: refuted")
        depth += 1
