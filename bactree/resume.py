"""Resume files of split builds: the records of finished parts, and their checked reading.

A build split by the first answer (`bactree.subproblems`) saves each part
it finishes to a resume file, as JSON: a header naming the build, then the
parts. A saved part is reused only after its tree is replayed over the
part's secrets and gives what the record claims; a file that is unreadable,
malformed or another build's is refused with `ResumeFileError`, never
trusted.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import orjson

from .game import BactreeError, Game
from .treefile import Node, TreeFormatError, replay_tree


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


class ResumeFileError(BactreeError):
    """A resume file that is unreadable, corrupted, or made by another build: refused, never trusted."""


def _saved_parts(path: Path, header: dict[str, Any], fields: set[str], made_by: str) -> list[dict[str, Any]]:
    """The saved parts of resume file `path` as raw objects, once its JSON, shape, header and parts' fields check out.

    `made_by` names what the header records, for the message when it is another build's.
    """
    try:
        saved = orjson.loads(path.read_bytes())
    except OSError as err:
        raise ResumeFileError(f"{path}: cannot read: {err.strerror or err}") from None
    except orjson.JSONDecodeError:
        raise _refuse(path, "not a resume file (not valid JSON)") from None
    if not isinstance(saved, dict) or set(saved) != {"header", "parts"} or not isinstance(saved["parts"], list):
        raise _refuse(path, "not a resume file (expected an object with 'header' and 'parts')")
    if saved["header"] != header:
        raise _refuse(path, f"made by a different build ({made_by})")
    if any(not isinstance(raw, dict) or set(raw) != fields for raw in saved["parts"]):
        raise _refuse(path, "a saved part does not have the fields of one")
    return saved["parts"]


def _refuse(path: Path, problem: str) -> ResumeFileError:
    return ResumeFileError(f"{path}: {problem}; remove it to start afresh")


def read_resume(path: Path, header: dict[str, Any], parts: dict[str, list[str]], game: Game, depth: int) -> dict[str, PartResult]:
    """The subproblems an interrupted build saved in `path`, each checked before it is reused.

    `parts` maps each answer to the first guess to the secrets it leaves.
    The header must be this build's; every saved tree is replayed over its
    part's secrets and must solve each within `depth` guesses at the total it
    claims, with a lower bound no higher than that total.
    """

    def refuse(problem: str) -> ResumeFileError:
        return _refuse(path, problem)

    made_by = "game, first guess, cap, budget, hard mode, greedy rule or deeper calls"
    done: dict[str, PartResult] = {}
    for raw in _saved_parts(path, header, set(PartResult.__dataclass_fields__), made_by):
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
    return done


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
    for raw in _saved_parts(path, header, set(FoundPart.__dataclass_fields__), "game, first guess or hard mode"):
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
