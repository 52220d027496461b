"""Exact expected builds whose first guess symmetry does not force (a word list): the first guesses decided in turn, each saved.

Such a build is one branch and bound over the whole game: the first guesses
are tried in the search's own order (`CostSearch.best_of`), the first
valued, each next one valued or refuted below the best total so far. On
`en-4` each first guess takes a minute or more and there are 1,529 of
them, so the build runs for many hours, session after session. After each
first guess the search decides, the build saves where it is to its resume
file (`OUTPUT.resume`): how many first guesses of the search's order are
decided, the best total with its tree (replayed when read), and the least
bound of those refuted; `--resume` goes on from the next first guess. The
sets that took long to settle inside the first guess under way are kept
as in split builds (`bactree.search.cost.memo_store`: `OUTPUT.resume.memo*`,
written every 5 minutes of CPU and when the build stops), so a stop loses
at most those minutes. The file names its game (with the lists' digest),
cap, mode and search code: another build's is refused, another code's is
not believed (its bounds prove nothing here), and the search starts afresh.
The tree is the same as an uninterrupted build's: each first guess is
decided by exact values, ties to the lowest code.
"""

from __future__ import annotations

import os
import time
from pathlib import Path
from typing import Any, Callable

import orjson

from ..search import INFINITE, TOTAL_GUESSES, CostSearch, Solver
from ..search.cost import memo_store
from ..search.provenance import search_code
from ..treefile import Node, TreeFormatError, json_bytes, replay_tree, write_atomic
from .resume import ResumeFileError

Progress = Callable[[str], None]
# The resume file's fields: `index` first guesses of the search's order decided (`finished` of them searched, the others
# ruled out by the kernel's screen), the best total with its first guess and tree, and the least bound refuted.
FIELDS = {"header", "index", "finished", "best", "best_guess", "tree", "fail_low"}


def solve_first_guesses(
    solver: Solver, depth: int, checkpoint: Path | None = None, progress: Progress | None = None, fresh: bool = True,
    greedy: str = "bound",
) -> tuple[Node, int, int]:
    """(tree, least total, sets searched) of the whole game within `depth` guesses, exactly, resumable.

    Saves to `checkpoint` after each first guess decided (and keeps the
    memo files beside it); unless `fresh`, goes on from what it holds.
    A game the kernel values whole (`KERNEL_MAX_SET` secrets or fewer) is valued whole by the kernel.
    """
    say = progress or (lambda message: None)
    search = CostSearch(solver, TOTAL_GUESSES, progress, greedy)
    everything = solver.secrets
    if len(everything) <= search.kernel_max_set:
        cost = search.solve(everything, depth)
        return search.tree(everything, depth), cost, search.nodes_searched
    game = solver.game
    guesses, bases, fail_low = search.candidates(
        everything, depth, (), INFINITE, own_symmetry=len(everything) >= search.set_symmetry_min_set
    )
    header = _header(solver, depth, len(guesses))
    state: dict[str, Any] = {"header": header, "index": 0, "best": INFINITE, "best_guess": None, "fail_low": fail_low,
                             "tree": None, "finished": 0}
    if checkpoint is not None:
        if fresh:
            for path in memo_store.memo_files(checkpoint):
                path.unlink(missing_ok=True)
        elif checkpoint.exists():
            saved = read_first_guesses(checkpoint, header, solver, depth)
            if saved["header"]["code"] == header["code"]:
                state = saved
                say(f"resuming: {state['index']} of {len(guesses)} first guesses decided, "
                    + (f"the best {state['best_guess']} total {state['best']}" if state["tree"] else "none valued yet"))
                kept, others = memo_store.gather(checkpoint, game, TOTAL_GUESSES.name, solver.hard)
                if kept:
                    memo_store.restore(search, kept)
                    say(f"{len(kept)} proven values of sets reloaded from {checkpoint.name}.memo")
                if others:
                    say(f"{len(others)} memo file(s) beside {checkpoint.name} were made by other search code: "
                        "not loaded, their sets are searched again")
            else:
                say(f"resuming: {checkpoint.name} was made by other search code: its {saved['index']} first guesses "
                    "decided are searched again")
        search.keeper = memo_store.MemoKeeper(search, checkpoint.with_name(f"{checkpoint.name}.memo.{os.getpid()}"))
        write_atomic(checkpoint, json_bytes(state))  # a build stopped before its first guess is decided resumes too
    began = time.process_time()
    codes = game.codes
    index = {code: i for i, code in enumerate(codes)}

    def decided(at: int, best: int, best_guess: int, low: int) -> None:
        state.update(index=at, fail_low=low, finished=state["finished"] + 1)
        if best_guess >= 0:  # else no first guess within `depth` yet: nothing to save but where the search is
            if codes[best_guess] != state["best_guess"] or best != state["best"]:  # a new best: its tree, from the memo
                state["tree"] = search.tree_after(everything, depth, best_guess)
            state.update(best=best, best_guess=codes[best_guess])
        if checkpoint is not None:
            write_atomic(checkpoint, json_bytes(state))
        say(f"first guesses: {at} of {len(guesses)} decided (the last {codes[int(guesses[at - 1])]}), best "
            f"{state['best_guess']} total {best} [{time.process_time() - began:.0f}s of CPU]")

    best_guess = -1 if state["best_guess"] is None else index[state["best_guess"]]
    try:
        best, best_guess, _ = search.best_of(everything, depth, (), guesses, bases, state["index"], state["best"],
                                             best_guess, state["fail_low"], decided)
    finally:
        if search.keeper is not None:
            search.keeper.save()
    assert best_guess >= 0, "a tree within as many guesses as secrets always exists"
    return state["tree"], best, search.nodes_searched


def _header(solver: Solver, depth: int, candidates: int | None) -> dict[str, Any]:
    """The resume file's header: the game (its lists by digest), cap, mode, first guesses to decide, search code."""
    game = solver.game
    return {"game": [game.length, game.symbols, game.repeats], "rule": game.rule.name, "lists": game.list_digest,
            "depth": depth, "hard": solver.hard, "candidates": candidates, "code": search_code()}


def holds_first_guesses(path: Path) -> bool:
    """Whether `path` reads as a resume file of `solve_first_guesses` (not of a split build): its fields."""
    try:
        saved = orjson.loads(path.read_bytes())
    except (OSError, orjson.JSONDecodeError):
        return False  # the reader of split builds' files says what is wrong with it
    return isinstance(saved, dict) and set(saved) == FIELDS


def exact_builds_best(path: Path, solver: Solver, depth: int) -> tuple[Node, int] | None:
    """(tree, total) of the best first guess an exact build of this game within `depth` has valued so far (saved in
    `path` by `solve_first_guesses`, whatever its search code: the tree is replayed), or None if none yet.

    For `--exact-from` on a budgeted build that picks its first guess: the
    tree stands in where it costs less. Of another game, cap or mode, or
    damaged: `ResumeFileError`.
    """
    saved = read_first_guesses(path, _header(solver, depth, None), solver, depth, ignored=("code", "candidates"))
    return None if saved["tree"] is None else (saved["tree"], saved["best"])


def read_first_guesses(
    path: Path, header: dict[str, Any], solver: Solver, depth: int, ignored: tuple[str, ...] = ("code",)
) -> dict[str, Any]:
    """What `solve_first_guesses` saved in `path`, once its header is `header` (but for the fields `ignored`) and its
    best tree replays at its total within `depth`; `ResumeFileError` (one line) otherwise."""

    def refuse(problem: str) -> ResumeFileError:
        return ResumeFileError(f"{path}: {problem}; remove it to start afresh")

    try:
        saved = orjson.loads(path.read_bytes())
    except OSError as err:
        raise ResumeFileError(f"{path}: cannot read: {err.strerror or err}") from None
    except orjson.JSONDecodeError:
        raise refuse("not a resume file (not valid JSON)") from None
    if not isinstance(saved, dict) or set(saved) != FIELDS or not isinstance(saved["header"], dict):
        raise refuse("not the resume file of an exact build's first guesses")
    if ({k: v for k, v in saved["header"].items() if k not in ignored}
            != {k: v for k, v in header.items() if k not in ignored}):
        raise refuse("made by a different build (game, lists, cap or hard mode)")
    numbers = (saved["index"], saved["best"], saved["fail_low"], saved["finished"], saved["header"].get("candidates"))
    if any(type(n) is not int for n in numbers) or not 0 <= saved["index"] <= saved["header"]["candidates"]:
        raise refuse("a figure has the wrong type, or is out of range")
    tree = saved["tree"]
    if tree is None:
        if saved["best_guess"] is not None or saved["best"] != INFINITE:
            raise refuse("a best total with no tree")
        return saved
    if not isinstance(tree, dict) or tree.get("guess") != saved["best_guess"]:
        raise refuse("its tree does not start with its best first guess")
    try:
        replay = replay_tree(solver.game, tree, f"{path.name}'s tree")
    except TreeFormatError as err:
        raise refuse(str(err)) from None
    if replay.total_guesses != saved["best"] or replay.max_guesses > depth:
        raise refuse("its tree does not give the total or cap recorded")
    return saved
