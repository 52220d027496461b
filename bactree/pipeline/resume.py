"""Resume files of split builds: the records of finished parts, and their checked reading.

A build split by the first answer (`bactree.pipeline.subproblems`) saves each part
it finishes to a resume file, as JSON: a header naming the build, then the
parts, then (for a large part searched one second guess per task, not yet
finished) each second guess valued or refuted so far. A saved part or
second guess is reused only after its tree is replayed over the part's
secrets and gives what the record claims; a file that is unreadable,
malformed or another build's is refused with `ResumeFileError`, never
trusted. A build's header names its search code
(`bactree.search.provenance.search_code`): a file of other code, or
naming none, is read and checked the same way but its claims (a part's
lower bound, a second guess refuted) prove nothing (`Resumed.same_code`).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from ..game import BactreeError, Game
from ..treefile import Node, TreeFormatError, replay_tree


@dataclass
class PartResult:
    """One subproblem's outcome: its tree, its cost, and what is proven of it."""

    answer: str
    size: int
    cost: int
    lower_bound: int
    optimal: bool
    tree: Node
    seconds: float
    sets: int

    def to_json(self) -> dict[str, Any]:
        return self.__dict__.copy()


@dataclass
class SavedBranch:
    """One second guess of an unfinished large part: its total below `bound` with its tree, or refuted (no tree).

    A refuted guess has `value` >= `bound`: no tree starting with it costs
    less than `bound`, the best total found when it was tried.
    """

    answer: str
    guess: str
    bound: int
    value: int
    tree: Node | None
    seconds: float
    sets: int


@dataclass
class Resumed:
    """What a resume file holds: finished parts by answer, and the second guesses of unfinished ones by answer."""

    parts: dict[str, PartResult]
    branches: dict[str, list[SavedBranch]]
    same_code: bool = True  # made by this search code: its bounds and refutations are proofs; else only its trees count


class ResumeFileError(BactreeError):
    """A resume file that is unreadable, corrupted, or made by another build: refused, never trusted."""


def _saved_parts(
    path: Path, header: dict[str, Any], fields: set[str], made_by: str, branches: bool = False
) -> dict[str, list[dict[str, Any]]]:
    """The saved parts of resume file `path` as raw objects, once its JSON, shape, header and parts' fields check out.

    `made_by` names what the header records, for the message when it is
    another build's. With `branches` the file may hold a list `branches`
    too (second guesses of unfinished parts, as raw objects, not checked).
    """
    try:
        saved = orjson.loads(path.read_bytes())
    except OSError as err:
        raise ResumeFileError(f"{path}: cannot read: {err.strerror or err}") from None
    except orjson.JSONDecodeError:
        raise _refuse(path, "not a resume file (not valid JSON)") from None
    allowed = ({"header", "parts"}, {"header", "parts", "branches"}) if branches else ({"header", "parts"},)
    if not isinstance(saved, dict) or set(saved) not in allowed or not isinstance(saved["parts"], list):
        raise _refuse(path, "not a resume file (expected an object with 'header' and 'parts')")
    if not isinstance(saved.get("branches", []), list):
        raise _refuse(path, "not a resume file ('branches' is not a list)")
    mine = {key: value for key, value in header.items() if key != "code"}
    if not isinstance(saved["header"], dict) or {k: v for k, v in saved["header"].items() if k != "code"} != mine:
        raise _refuse(path, f"made by a different build ({made_by})")
    if any(not isinstance(raw, dict) or set(raw) != fields for raw in saved["parts"]):
        raise _refuse(path, "a saved part does not have the fields of one")
    return {"parts": saved["parts"], "branches": saved.get("branches", []), "code": saved["header"].get("code")}


def _refuse(path: Path, problem: str) -> ResumeFileError:
    return ResumeFileError(f"{path}: {problem}; remove it to start afresh")


def read_resume(path: Path, header: dict[str, Any], parts: dict[str, list[str]], game: Game, depth: int) -> Resumed:
    """The subproblems an interrupted build saved in `path`, and its unfinished parts' second guesses, each checked.

    `parts` maps each answer to the first guess to the secrets it leaves.
    The header must be this build's (but for the search code it names,
    which sets `Resumed.same_code`); every saved tree is replayed over its
    part's secrets and must solve each within `depth` guesses at the total it
    claims, with a lower bound no higher than that total. A saved second
    guess's tree must start with that guess and give its value, below its
    bound; a refuted one has no tree and a value at least its bound.
    """

    def refuse(problem: str) -> ResumeFileError:
        return _refuse(path, problem)

    made_by = "game, first guess, cap, budget, hard mode, greedy rule or deeper calls"
    saved = _saved_parts(path, header, set(PartResult.__dataclass_fields__), made_by, branches=True)
    done: dict[str, PartResult] = {}
    for raw in saved["parts"]:
        result = PartResult(**raw)
        if not isinstance(result.answer, str) or result.answer not in parts or result.answer in done:
            raise refuse(f"saved part {result.answer!r} is not an answer to the first guess, or is there twice")
        numbers = (result.size, result.cost, result.lower_bound, result.sets)
        if (any(type(n) is not int for n in numbers) or not isinstance(result.optimal, bool)
                or type(result.seconds) not in (int, float)):
            raise refuse(f"saved part {result.answer}: a figure has the wrong type")
        secrets = parts[result.answer]
        try:
            replay = replay_tree(game, result.tree, f"saved part {result.answer}", secrets)
        except TreeFormatError as err:
            raise refuse(str(err)) from None
        if result.size != len(secrets) or replay.total_guesses != result.cost or replay.max_guesses > depth:
            raise refuse(f"saved part {result.answer}: its tree does not give the size, total or cap recorded")
        if not result.lower_bound <= result.cost or result.optimal != (result.lower_bound == result.cost):
            raise refuse(f"saved part {result.answer}: its lower bound {result.lower_bound} does not fit its total")
        done[result.answer] = result
    branches = _read_branches(path, saved["branches"], parts, game, depth, done)
    return Resumed(done, branches, "code" in header and saved["code"] == header["code"])


def _read_branches(
    path: Path, raws: list[Any], parts: dict[str, list[str]], game: Game, depth: int, done: dict[str, PartResult]
) -> dict[str, list[SavedBranch]]:
    """`read_resume`'s second guesses of unfinished parts, by answer, each checked as it says."""
    branches: dict[str, list[SavedBranch]] = {}
    seen: set[tuple[str, str]] = set()
    codes = set(game.codes)
    for raw in raws:
        if not isinstance(raw, dict) or set(raw) != set(SavedBranch.__dataclass_fields__):
            raise _refuse(path, "a saved second guess does not have the fields of one")
        branch = SavedBranch(**raw)
        where = f"saved second guess {branch.guess!r} of part {branch.answer!r}"
        if (not isinstance(branch.answer, str) or branch.answer not in parts or branch.answer in done
                or not isinstance(branch.guess, str) or branch.guess not in codes
                or (branch.answer, branch.guess) in seen):
            raise _refuse(path, f"{where}: not a second guess of an unfinished part, or there twice")
        if (type(branch.bound) is not int or type(branch.value) is not int or type(branch.sets) is not int
                or type(branch.seconds) not in (int, float)):
            raise _refuse(path, f"{where}: a figure has the wrong type")
        if branch.tree is None:
            if branch.value < branch.bound:
                raise _refuse(path, f"{where}: valued below its bound, with no tree")
        else:
            if not isinstance(branch.tree, dict) or branch.tree.get("guess") != branch.guess or branch.value >= branch.bound:
                raise _refuse(path, f"{where}: its tree does not start with it, or its value is not below its bound")
            try:
                replay = replay_tree(game, branch.tree, where, parts[branch.answer])
            except TreeFormatError as err:
                raise _refuse(path, str(err)) from None
            if replay.total_guesses != branch.value or replay.max_guesses > depth:
                raise _refuse(path, f"{where}: its tree does not give the total or cap recorded")
        seen.add((branch.answer, branch.guess))
        branches.setdefault(branch.answer, []).append(branch)
    return branches


def read_exact_build(path: Path, header: dict[str, Any], parts: dict[str, list[str]], game: Game, depth: int) -> Resumed:
    """What an exact build of the same game and first guess saved in its resume file `path`, checked as `read_resume`
    checks a build's own: its finished parts (each optimal) and its second guesses valued so far.

    `header` is the budgeted build's own; the file's must be the same but
    for the budget (none), the deeper calls (a budgeted search's only) and
    the greedy rule, which sets where an exact search starts, never what it
    proves: the file's own is taken. (Its search code too: `Resumed.same_code`.)
    """
    exact = {key: value for key, value in header.items() if key != "deeper_calls"} | {"budget": None}
    try:
        greedy = orjson.loads(path.read_bytes())["header"]["greedy"]
    except (OSError, orjson.JSONDecodeError, TypeError, KeyError):
        greedy = None  # `read_resume` says what is wrong with the file
    if isinstance(greedy, str):
        exact["greedy"] = greedy
    return read_resume(path, exact, parts, game, depth)


@dataclass
class FoundPart:
    """One part's tree within `depth` guesses, as the tree finder left it (None: none found)."""

    answer: str
    depth: int
    size: int
    tree: Node | None
    seconds: float
    work: int  # `TreeFinder.work`: sets searched plus guesses tried with three left


def read_found(path: Path, header: dict[str, Any], parts: dict[str, list[str]], game: Game) -> dict[tuple[str, int], FoundPart]:
    """The parts' trees an interrupted height search saved in `path`, by (answer, depth), each replayed before reuse."""

    def refuse(problem: str) -> ResumeFileError:
        return _refuse(path, problem)

    done: dict[tuple[str, int], FoundPart] = {}
    for raw in _saved_parts(path, header, set(FoundPart.__dataclass_fields__), "game, first guess or hard mode")["parts"]:
        result = FoundPart(**raw)
        if (not isinstance(result.answer, str) or result.answer not in parts or type(result.depth) is not int
                or (result.answer, result.depth) in done):
            raise refuse(f"saved part {result.answer!r} is not an answer to the first guess, or is there twice")
        if type(result.size) is not int or type(result.work) is not int or type(result.seconds) not in (int, float):
            raise refuse(f"saved part {result.answer}: a figure has the wrong type")
        try:
            replay = replay_tree(game, result.tree, f"saved part {result.answer}", parts[result.answer])
        except TreeFormatError as err:
            raise refuse(str(err)) from None
        if result.size != len(parts[result.answer]) or replay.max_guesses > result.depth:
            raise refuse(f"saved part {result.answer}: its tree does not solve its secrets within {result.depth} guesses")
        done[result.answer, result.depth] = result
    return done
