"""Expected-length builds split by the first answer: parallel, resumable, budgeted.

When symmetry leaves one first guess (every code alike, as in Bulls and
Cows), the least total is that guess's cost plus the least total of each
part it makes, and the parts are independent. Each part is a subproblem:
it gets a greedy tree first (an upper bound), then the exact branch and
bound under that bound. Subproblems run on an executor's workers (local
processes or Ray, `bactree.pipeline.executors`), and finished ones are saved to a
resume file (`bactree.pipeline.resume`) as they come. With a work budget a part is
refined instead (`bactree.search.cost.refine`): exact where the budget suffices,
the greedy rule's guesses above that, and a proven lower bound either way.
A budgeted build whose first guess is not forced splits the same way by a
chosen first guess (`bactree.pipeline.openings`).

Without a budget and with more than one worker, a large part is searched
one second guess per task, so that the workers share the largest part
rather than one of them taking it whole: its greedy tree (the first
bound) is a task too, and the parent keeps the part's best
total so far and hands each task the bound it gives (a guess with a lower
code than the best one may tie, so its bound is one more). Until one second
guess has a value the others wait, and the one they wait for is split
further, one of the parts it leaves per task (`bactree.pipeline.branching`), so that
every worker takes a share of it. Every second guess is either valued
exactly or refuted by a proven bound, and ties go to the lowest code, so
the tree is the same whatever order tasks end in.

What the workers run (their set-up and each kind of task) is in
`bactree.pipeline.part_tasks`; this module schedules the tasks and keeps the
resume file.
"""

from __future__ import annotations

import time
from collections import deque
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable

import numpy as np

from .branching import SMALL_PIECE, BranchedPart, GuessPieces
from ..game.codes import grouped_answers
from .executors import Executor, make_executor
from .part_tasks import (
    BranchResult, GreedyResult, PiecesResult, _find_part, _greedy_part, _install_solver, _solve_branch, _solve_part,
    _solve_pieces,
)
from ..search import DEEPER_CALLS, TOTAL_GUESSES, CostSearch, Solver
from ..search.cost import memo_store
from ..search.provenance import search_code
from .resume import FoundPart, PartResult, Resumed, SavedBranch, read_exact_build, read_found, read_resume
from ..treefile import Node, json_bytes, node, write_atomic

Progress = Callable[[str], None]


def forced_first_guess(solver: Solver) -> int | None:
    """The first guess when symmetry leaves only one class of them, else None."""
    first = solver.canonical_guesses(())
    return int(first[0]) if len(first) == 1 else None


# Parts at least this large are searched one second guess per task when there are several workers.
BRANCH_MIN_SECRETS = 1000
# Games with fewer secrets run their subproblems in the build's own process unless --workers asks for more:
# forking workers, each loading the kernels and learning its own memo, costs more than it saves there.
PARALLEL_MIN_SECRETS = 2000


def _say_nodes(say: Progress, pool: Executor) -> None:
    """Where the tasks ran, when the executor can tell (a Ray cluster's nodes): shows every node did its share."""
    counts = pool.tasks_per_node()
    if counts:
        say("tasks per node: " + ", ".join(f"{node} {count}" for node, count in sorted(counts.items())))


def _task_slots(solver: Solver, tasks: int, workers: int | None, executor: str) -> int:
    """How many tasks may run at once: all of them, or one (in this process) for a small local build by default."""
    if workers is None and executor == "local" and solver.num_secrets < PARALLEL_MIN_SECRETS:
        return 1
    return tasks

def solve_by_first_answer(
    solver: Solver,
    first: int,
    depth: int,
    budget: int | None = None,
    workers: int | None = None,
    resume: Path | None = None,
    progress: Progress | None = None,
    fresh: bool = True,
    executor: str = "local",
    address: str | None = None,
    greedy: str = "bound",
    deeper_calls: int = DEEPER_CALLS,
    exact: Path | None = None,
) -> tuple[Node, int, int, int]:
    """(tree, total, proven lower bound, sets searched) for the whole game, first guess fixed.

    Finished subproblems are saved to the file `resume` as they come, and so
    is each second guess of a large part split one per task, so an
    interrupted build loses at most the tasks under way; unless `fresh`,
    results already there (same game, cap and budget) are reused. Tasks run
    on the `executor`: "local" processes, or "ray" (a Ray started here, or the
    cluster at `address`); the tree is the same. `greedy`: the rule of the
    greedy trees (`CostSearch.greedy`); `deeper_calls`: `bactree.search.cost.refine`'s.
    `exact`: the resume file of an exact build of the same game, whose
    finished parts and valued second guesses stand in for this build's
    trees where they cost less (`_bettered`).
    """
    say = progress or (lambda message: None)
    game = solver.game
    parts = solver.split(solver.secrets, first)
    answers = [str(solver.answer_to(first, part)) for part in parts]
    header = {"game": [game.length, game.symbols, game.repeats], "first": game.codes[first], "depth": depth, "budget": budget,
              "hard": solver.hard, "greedy": greedy, "code": search_code()}
    if deeper_calls != DEEPER_CALLS:  # recorded only when not the default, so older resume files still load
        header["deeper_calls"] = deeper_calls
    done: dict[str, PartResult] = {}
    branches: dict[str, list[SavedBranch]] = {}  # second guesses of the large parts not done yet
    secrets = {answer: [game.codes[i] for i in part] for part, answer in zip(parts, answers)}
    known = None if exact is None else read_exact_build(exact, header, secrets, game, depth - 1)
    if known is not None and not known.same_code:
        say(f"{exact.name} was made by other search code: its trees stand where they cost less (each replayed), "
            "its bounds prove nothing here")
    if resume is not None and resume.exists() and not fresh:
        resumed = read_resume(resume, header, secrets, game, depth - 1)
        waiting = sum(map(len, resumed.branches.values()))
        if resumed.same_code:
            done, branches = resumed.parts, resumed.branches
            say(f"resuming: {len(done)} of {len(parts)} subproblems already done"
                + (f", and {waiting} second guesses of the others" if waiting else ""))
        else:  # its bounds and refutations are another code's claims: every part is searched again
            say(f"resuming: {resume.name} was made by other search code: its {len(resumed.parts)} subproblems"
                + (f" and {waiting} second guesses" if waiting else "") + " are searched again")

    def save() -> None:
        if resume is not None:
            ordered = [done[a].to_json() for a in answers if a in done]
            saved: dict[str, Any] = {"header": header, "parts": ordered}
            unfinished = [branch.__dict__ for a in answers if a not in done for branch in branches.get(a, [])]
            if unfinished:
                saved["branches"] = unfinished
            write_atomic(resume, json_bytes(saved))

    def branch_done(result: BranchResult) -> None:
        branches.setdefault(result.answer, []).append(SavedBranch(
            result.answer, game.codes[result.guess], result.bound, result.value, result.tree, result.seconds, result.sets
        ))
        save()

    todo = sorted(((part, answer) for part, answer in zip(parts, answers) if answer not in done), key=lambda pa: -len(pa[0]))
    began = time.perf_counter()
    others = sum(map(len, parts))  # the secrets but the first guess, if it is one

    def finished(result: PartResult) -> None:
        done[result.answer] = result
        save()
        proven = "optimal" if result.optimal else f"greedy, lower bound {result.lower_bound}"
        covered = sum(r.size for r in done.values())
        say(
            f"{len(done)}/{len(parts)} {game.codes[first]} {result.answer}: {result.size} secrets, "
            f"total {result.cost} ({proven}), {result.sets} sets, {result.seconds:.1f}s; "
            f"{covered}/{others} secrets done, their total between "
            f"{sum(r.lower_bound for r in done.values())} and {sum(r.cost for r in done.values())} "
            f"[{time.perf_counter() - began:.0f}s elapsed]"
        )

    memo = None
    if resume is not None and budget is None and executor == "local":
        # Exact builds keep the values their long searches prove (`memo_store`), so a task stopped midway is
        # taken up again from them. Workers elsewhere (Ray) would not see the files: not there.
        if fresh:
            for path in memo_store.memo_files(resume):
                path.unlink(missing_ok=True)
        elif todo:
            kept, others = memo_store.gather(resume, game, TOTAL_GUESSES.name, solver.hard)
            if kept:
                say(f"{len(kept)} proven values of sets reloaded from {resume.name}.memo")
            if others:
                say(f"{len(others)} memo file(s) beside {resume.name} were made by other search code: not loaded, "
                    "their sets are searched again")
        memo = resume.with_name(resume.name + ".memo")
    if todo:
        # Saved before any task starts, so that a build stopped before its first part or second guess ends can
        # still be resumed, with the values its workers proved meanwhile (the memo files need a checkpoint).
        save()
        grouped_answers(game, solver.table)  # built here, before the local workers fork, so that they share it
        with make_executor(executor, workers, address, verbose=progress is not None) as pool:
            # An exact build searches a large part one second guess per task: many tasks, even when it is all that is
            # left (a resumed build), so that it still gets every worker.
            tasks = sum(len(part) if budget is None and len(part) >= BRANCH_MIN_SECRETS else 1 for part, _ in todo)
            slots = _task_slots(solver, tasks, workers, executor)
            by_secret = None if solver.by_secret is solver.table else solver.by_secret
            count = pool.start(_install_solver, (game, solver.table, solver.hard, memo, by_secret), slots)
            if executor != "local":
                say(f"{count} {executor} workers started")
            index = {code: i for i, code in enumerate(game.codes)}
            replayed = {answer: [BranchResult(b.answer, index[b.guess], b.bound, b.value, b.tree, b.seconds, b.sets)
                                 for b in saved] for answer, saved in branches.items()}
            _run_subproblems(pool, count, solver, first, depth, budget, todo, progress, finished, greedy, deeper_calls,
                             replayed, branch_done)
            _say_nodes(say, pool)
    results = [done[a] for a in answers]
    if known is not None:
        results = [_bettered(result, known, say) for result in results]
    size = len(solver.secrets)
    total = size + sum(r.cost for r in results)
    lower = size + sum(r.lower_bound for r in results)
    children = {solver.answer_to(first, part): r.tree for part, r in zip(parts, results)}
    return node(game.codes[first], children), total, lower, sum(r.sets for r in results)


def _bettered(result: PartResult, exact: Resumed, say: Progress) -> PartResult:
    """`result`, or what an exact build has of its part where that costs less: the part itself, once finished (its
    optimum, so its lower bound too, if the exact build is of this search code: else only its tree), else its least
    second guess valued so far (ties to the lowest code; a better tree, with `result`'s lower bound)."""
    part = exact.parts.get(result.answer)
    if part is not None and part.optimal and exact.same_code:
        if part.cost < result.cost or part.lower_bound > result.lower_bound:
            say(f"{result.answer}: the exact build's optimal total {part.cost} stands for this build's {result.cost}")
            return replace(result, cost=part.cost, lower_bound=part.cost, optimal=True, tree=part.tree)
        return result
    valued = [(branch.value, branch.guess, branch.tree) for branch in exact.branches.get(result.answer, [])
              if branch.tree is not None]
    if part is not None:  # finished by other search code: its tree, replayed, but not its proof
        valued.append((part.cost, part.tree["guess"], part.tree))
    if not valued:
        return result
    value, guess, tree = min(valued, key=lambda v: v[:2])  # a part's second guesses are each saved once
    if value >= result.cost:
        return result
    say(f"{result.answer}: the exact build's tree after {guess}, total {value}, stands for this build's {result.cost}")
    return replace(result, cost=value, optimal=value == result.lower_bound, tree=tree)


def _run_subproblems(
    pool: Executor,
    count: int,
    solver: Solver,
    first: int,
    depth: int,
    budget: int | None,
    todo: list[tuple[np.ndarray, str]],
    progress: Progress | None,
    finished: Callable[[PartResult], None],
    greedy: str = "bound",
    deeper_calls: int = DEEPER_CALLS,
    saved_branches: dict[str, list[BranchResult]] | None = None,
    branch_done: Callable[[BranchResult], None] | None = None,
) -> None:
    """Run the parts of `todo` on `pool`'s `count` workers, calling `finished` as each part ends.

    Without a budget and with several workers, parts of `BRANCH_MIN_SECRETS`
    or more go one second guess per task, the others whole; a split part
    first takes the second guesses of `saved_branches` (an interrupted
    build's), and `branch_done` is called as each of its tasks ends.
    """
    say = progress or (lambda message: None)
    game = solver.game
    # Smallest first: in the largest games a large part runs for days, and each part finished is proven (and saved).
    large = sorted(
        ((part, answer) for part, answer in todo if budget is None and count > 1 and len(part) >= BRANCH_MIN_SECRETS),
        key=lambda item: len(item[0]),
    )
    # Each large part's greedy tree is a task; its second guesses start once its total is known.
    awaiting = deque((pool.share(part), part, answer) for part, answer in large)
    shared = {answer: (handle, part) for handle, part, answer in awaiting}
    branched: list[BranchedPart] = []
    splits: dict[str, GuessPieces] = {}  # per large part, the second guess valued one of its parts per task
    pieces: deque[tuple[BranchedPart, int, list[tuple[int, int]]]] = deque()  # its tasks not started yet
    order = {answer: i for i, (_, answer) in enumerate(large)}
    search = CostSearch(solver, TOTAL_GUESSES)
    whole = deque(
        (game, first, part, depth - 1, budget, answer, progress is not None, greedy, deeper_calls)
        for part, answer in todo
        if answer not in order
    )

    def start_next() -> bool:
        """Start a task: greedy trees of large parts, then the parts of a second guess split so, then whole parts
        (largest first), then other second guesses (smallest part first); False if none can start.

        Whole parts take seconds to minutes where a large part's second
        guesses may take days (5 of 10), so they go first: a long build's
        resume file gains its finished parts, each proven, soonest.

        A second guess is split into its parts, one task each, when the
        others wait for it (the part's first) and when it is the last task
        to start while other workers would idle (the tail of a resumed build:
        5 of 9's last second guess ran 40 minutes on one of two workers).
        """
        if awaiting:
            handle, _, answer = awaiting.popleft()
            pool.submit(_greedy_part, game, first, handle, depth - 1, answer, greedy)
            return True
        if pieces:
            state, guess, group = pieces.popleft()
            pool.submit(_solve_pieces, game, first, state.part, depth - 1, guess, group, state.answer, progress is not None)
            return True
        if whole:
            pool.submit(_solve_part, *whole.popleft())
            return True
        for state in branched:
            task = state.next_task()
            if task is not None:
                guess, bound = task
                if state.best_guess < 0 or (  # the guess the others wait for, or the last: every worker takes parts
                    count > 1 and all(other.guesses_left() == 0 for other in branched)
                ):
                    split = GuessPieces.split(search, state.answer, shared[state.answer][1], depth - 1, guess, bound)
                    splits[state.answer] = split
                    pieces.extend((state, guess, group) for group in split.groups())
                    return start_next()
                pool.submit(
                    _solve_branch, game, first, state.part, depth - 1, guess, bound, state.answer, progress is not None
                )
                return True
        return False

    def branch(result: GreedyResult) -> None:
        """A large part's greedy total has come: its second guesses become tasks (parts kept in size order)."""
        handle, part = shared[result.answer]
        guesses, bases, _ = search.candidates(part, depth - 1, (first,))
        state = BranchedPart(result.answer, handle, len(part), guesses.tolist(), bases.tolist(), result.upper)
        branched.append(state)
        branched.sort(key=lambda b: order[b.answer])
        saved = (saved_branches or {}).get(result.answer, [])
        for earlier in saved:
            state.replay(earlier)
        say(f"{game.codes[first]} {result.answer}: {len(part)} secrets, greedy total {result.upper} "
            f"({result.seconds:.1f}s); {len(guesses)} second guesses searched one per task"
            + (f", {len(saved)} of them saved by the interrupted build" if saved else ""))
        part_result = state.result()
        if part_result is not None:  # every second guess was saved
            finished(part_result)

    running = 0
    while True:
        while running < count and start_next():
            running += 1
        if running == 0:
            return
        result = pool.next_result()
        running -= 1
        if isinstance(result, PartResult):
            finished(result)
            continue
        if isinstance(result, GreedyResult):
            branch(result)
            continue
        if isinstance(result, PiecesResult):
            split = splits[result.answer]
            values = sum(value for _, value, _ in result.values)
            if len(result.values) == 1:
                answer, size, _ = split.pieces[result.values[0][0]]
                what = f"its part {answer} ({size} secrets)"
            else:
                what = f"its {len(result.values)} parts of up to {SMALL_PIECE} secrets"
            outcome = "total" if all(tree is not None for _, _, tree in result.values) else "at least"
            say(f"  {game.codes[first]} {result.answer} then {game.codes[result.guess]}, {what}: {outcome} {values} "
                f"({result.seconds:.1f}s)")
            whole_guess = split.record(result)
            if whole_guess is None:
                continue
            del splits[result.answer]
            result = whole_guess
        state = next(b for b in branched if b.answer == result.answer)
        state.record(result)
        if branch_done is not None:
            branch_done(result)
        outcome = f"total {result.value}" if result.value < result.bound else f"at least {result.value}, refuted"
        say(f"  {game.codes[first]} {result.answer} then {game.codes[result.guess]}: {outcome} "
            f"({result.seconds:.1f}s, best so far {state.best})")
        part_result = state.result()
        if part_result is not None:
            finished(part_result)


def find_by_first_answer(
    solver: Solver,
    first: int,
    depth: int,
    budget: int | None = None,
    workers: int | None = None,
    resume: Path | None = None,
    progress: Progress | None = None,
    fresh: bool = True,
    executor: str = "local",
    address: str | None = None,
) -> Node | None:
    """A tree of the whole game within `depth` guesses, first guess fixed, found part by part; None if a part has none found.

    Each part is a task (largest first) for `TreeFinder`, which does at
    most `budget` work on it (`TreeFinder.work`) if given; finished parts
    are saved to `resume` as they come (with the parts of other heights
    already there) and, unless `fresh`, reused from it.
    A part without a tree ends the search (the caller then decides the
    height exactly): no new part starts, and those under way finish and are
    saved. The failure is not saved, since it proves nothing.
    """
    say = progress or (lambda message: None)
    game = solver.game
    parts = solver.split(solver.secrets, first)
    answers = [str(solver.answer_to(first, part)) for part in parts]
    header = {"game": [game.length, game.symbols, game.repeats], "first": game.codes[first], "hard": solver.hard,
              "search": "tree finder"}
    saved: dict[tuple[str, int], FoundPart] = {}
    if resume is not None and resume.exists() and not fresh:
        secrets = {answer: [game.codes[i] for i in part] for part, answer in zip(parts, answers)}
        saved = read_found(resume, header, secrets, game)
    done = {answer: saved[answer, depth - 1] for answer in answers if (answer, depth - 1) in saved}
    if done:
        say(f"resuming: {len(done)} of {len(parts)} parts already have a tree within {depth - 1}")
    todo = deque(sorted(((part, answer) for part, answer in zip(parts, answers) if answer not in done),
                        key=lambda pa: -len(pa[0])))
    began = time.perf_counter()
    missed = False
    if todo:
        with make_executor(executor, workers, address, verbose=progress is not None) as pool:
            count = pool.start(_install_solver, (game, solver.table, solver.hard), _task_slots(solver, len(todo), workers, executor))
            running = 0
            while todo or running:
                while todo and running < count:
                    part, answer = todo.popleft()
                    pool.submit(_find_part, game, first, part, depth - 1, budget, answer, progress is not None)
                    running += 1
                result: FoundPart = pool.next_result()
                running -= 1
                if result.tree is None:
                    say(f"{game.codes[first]} {result.answer}: {result.size} secrets, no tree within {depth - 1} found "
                        f"({result.work} work, {result.seconds:.1f}s)")
                    # No new parts; those under way finish (and are saved), so no worker is stopped mid-task.
                    missed = True
                    todo.clear()
                    continue
                done[result.answer] = saved[result.answer, result.depth] = result
                if resume is not None:
                    ordered = [saved[key].__dict__ for key in sorted(saved, key=lambda key: (key[1], answers.index(key[0])))]
                    write_atomic(resume, json_bytes({"header": header, "parts": ordered}))
                say(f"{len(done)}/{len(parts)} {game.codes[first]} {result.answer}: {result.size} secrets, tree found "
                    f"({result.work} work, {result.seconds:.1f}s) [{time.perf_counter() - began:.0f}s elapsed]")
            _say_nodes(say, pool)
    if missed:
        return None
    children = {solver.answer_to(first, part): done[a].tree for part, a in zip(parts, answers)}
    return node(game.codes[first], children)
