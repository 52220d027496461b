"""Resume files are checked before they are trusted: a corrupted or foreign one is refused in one line."""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import orjson
import pytest
from typer.testing import CliRunner

from bactree.pipeline import branching, part_tasks, subproblems
from bactree.pipeline.build import build
from bactree.cli.main import app
from bactree.pipeline.executors import LocalExecutor
from bactree.game import Game
from bactree.pipeline.resume import ResumeFileError
from bactree.search import TOTAL_GUESSES, CostSearch, Solver
from bactree.treefile import dumps

GAME = Game(3, "012345", False)  # 120 codes, first guess forced: 7 subproblems, a fraction of a second
OPTIONS = ["-n", "3", "--symbols", "012345", "--objective", "expected", "--workers", "1"]


@pytest.fixture(scope="module")
def finished(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, bytes]:
    """(the resume file a whole build leaves, the tree file it builds)."""
    path = tmp_path_factory.mktemp("resume") / "out.json.resume"
    result = build(GAME, "expected", workers=1, checkpoint=path)
    return path.read_bytes(), dumps(result.document)


def resumed(path: Path) -> bytes:
    return dumps(build(GAME, "expected", workers=1, checkpoint=path, resume=True).document)


def test_a_sound_resume_file_gives_the_same_tree(tmp_path: Path, finished: tuple[bytes, bytes]) -> None:
    saved, tree = finished
    path = tmp_path / "out.json.resume"
    parts = orjson.loads(saved)
    parts["parts"] = parts["parts"][:3]  # as if stopped after three subproblems
    path.write_bytes(orjson.dumps(parts))
    assert resumed(path) == tree


def _part(field: str, value: Callable[[Any], Any]) -> Callable[[dict[str, Any]], Any]:
    def mutate(saved: dict[str, Any]) -> Any:
        saved["parts"][0][field] = value(saved["parts"][0][field])
        return saved

    return mutate


def _first_guess_changed(tree: dict[str, Any]) -> dict[str, Any]:
    return {**tree, "guess": "543"}


CORRUPTIONS: dict[str, tuple[Callable[[dict[str, Any]], Any], str]] = {
    "a list": (lambda saved: saved["parts"], "not a resume file (expected an object with 'header' and 'parts')"),
    "no parts": (lambda saved: {"header": saved["header"]}, "not a resume file (expected an object"),
    "other budget": (lambda saved: {**saved, "header": {**saved["header"], "budget": 5}}, "made by a different build"),
    "other cap": (lambda saved: {**saved, "header": {**saved["header"], "depth": 4}}, "made by a different build"),
    "other game": (lambda saved: {**saved, "header": {**saved["header"], "game": [3, "012346", False]}}, "made by a different build"),
    "other deeper calls": (lambda saved: {**saved, "header": {**saved["header"], "deeper_calls": 5}}, "made by a different build"),
    "missing field": (lambda saved: {**saved, "parts": [{k: v for k, v in saved["parts"][0].items() if k != "tree"}]}, "a saved part does not have the fields of one"),
    "unknown answer": (_part("answer", lambda a: "3B0C"), "saved part '3B0C' is not an answer to the first guess"),
    "part twice": (lambda saved: {**saved, "parts": [saved["parts"][0], saved["parts"][0]]}, "is there twice"),
    "size as text": (_part("size", str), "a figure has the wrong type"),
    "cost as float": (_part("cost", float), "a figure has the wrong type"),
    "lying cost": (_part("cost", lambda c: c - 1), "its tree does not give the size, total or cap recorded"),
    "lying size": (_part("size", lambda c: c + 1), "its tree does not give the size, total or cap recorded"),
    "bound above cost": (_part("lower_bound", lambda b: b + 1), "its lower bound"),
    "optimal without proof": (_part("optimal", lambda o: not o), "its lower bound"),
    "tree of other secrets": (_part("tree", _first_guess_changed), "saved part"),
    "tree not a node": (_part("tree", lambda t: [t]), "is not an object with a 'guess'"),
}


@pytest.mark.parametrize("corruption", list(CORRUPTIONS))
def test_a_corrupted_resume_file_is_refused(tmp_path: Path, finished: tuple[bytes, bytes], corruption: str) -> None:
    mutate, message = CORRUPTIONS[corruption]
    path = tmp_path / "out.json.resume"
    path.write_bytes(orjson.dumps(mutate(orjson.loads(finished[0]))))
    with pytest.raises(ResumeFileError) as info:
        resumed(path)
    assert message in str(info.value)
    assert str(info.value).startswith(f"{path}: ") and str(info.value).endswith("; remove it to start afresh")


@pytest.mark.parametrize("content", [b"", b"\x00\xff" * 50, b'{"header": ', b"[]", b"null"])
def test_the_command_refuses_garbage_in_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, content: bytes) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "out.json.resume").write_bytes(content)
    result = CliRunner().invoke(app, ["build", *OPTIONS, "-o", "out.json", "--resume", "--quiet"])
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: out.json.resume: not a resume file") and result.stderr.count("\n") == 1
    assert not (tmp_path / "out.json").exists()
    assert (tmp_path / "out.json.resume").read_bytes() == content  # left for the user to look at


SPLIT_GAME = Game(3, "0123456", False)  # 210 codes: with BRANCH_MIN_SECRETS 5 its large parts go one guess per task


@pytest.fixture(scope="module")
def midway(tmp_path_factory: pytest.TempPathFactory) -> tuple[bytes, bytes]:
    """(a resume file saved while a split part had second guesses done but was unfinished, the whole build's tree)."""
    path = tmp_path_factory.mktemp("split") / "out.json.resume"
    written: list[bytes] = []
    real = subproblems.write_atomic
    with pytest.MonkeyPatch.context() as monkeypatch:
        monkeypatch.setattr(subproblems, "BRANCH_MIN_SECRETS", 5)
        monkeypatch.setattr(subproblems, "write_atomic", lambda where, data: (written.append(data), real(where, data)))
        tree = dumps(build(SPLIT_GAME, "expected", workers=2, checkpoint=path).document)
    # States with a second guess valued (a tree), which the corruptions below need; which ones come first depends on
    # the order the workers end their tasks in.
    saved = [data for data in written if b'"branches"' in data and any(
        branch["tree"] is not None for branch in orjson.loads(data)["branches"])]
    assert saved, "no valued second guess was saved before its part was done"
    return saved[len(saved) // 2], tree


def resumed_split(path: Path, monkeypatch: pytest.MonkeyPatch, messages: list[str] | None = None) -> bytes:
    monkeypatch.setattr(subproblems, "BRANCH_MIN_SECRETS", 5)
    progress = messages.append if messages is not None else None
    return dumps(build(SPLIT_GAME, "expected", workers=2, checkpoint=path, resume=True, progress=progress).document)


def test_a_split_build_resumes_from_its_saved_second_guesses(tmp_path, monkeypatch, midway) -> None:
    """Second guesses saved before their part was finished are taken up again, and the tree is the same bytes."""
    saved, tree = midway
    path = tmp_path / "out.json.resume"
    path.write_bytes(saved)
    messages: list[str] = []
    assert resumed_split(path, monkeypatch, messages) == tree
    assert any("saved by the interrupted build" in message for message in messages)
    done = {(b["answer"], b["guess"]) for b in orjson.loads(saved)["branches"]}
    ran = {(m.split()[1], m.split()[3].rstrip(":")) for m in messages if " then " in m}
    assert ran and not ran & done  # the saved second guesses were not searched again


def _branch(field: str, value: Any) -> Callable[[dict[str, Any]], Any]:
    def mutate(saved: dict[str, Any]) -> Any:
        chosen = next(b for b in saved["branches"] if b["tree"] is not None) if field != "answer" else saved["branches"][0]
        chosen[field] = value(chosen) if callable(value) else value
        return saved

    return mutate


BRANCH_CORRUPTIONS: dict[str, tuple[Callable[[dict[str, Any]], Any], str]] = {
    "not a list": (lambda saved: {**saved, "branches": {}}, "'branches' is not a list"),
    "missing field": (lambda saved: {**saved, "branches": [{k: v for k, v in b.items() if k != "sets"} for b in saved["branches"]]},
                      "does not have the fields of one"),
    "unknown answer": (_branch("answer", "3B0C"), "not a second guess of an unfinished part"),
    "unknown guess": (_branch("guess", "99"), "not a second guess of an unfinished part"),
    "valued, no tree": (_branch("tree", None), "valued below its bound, with no tree"),
    "lying value": (_branch("value", lambda b: b["value"] - 1), "does not give the total"),
    "value at its bound": (_branch("value", lambda b: b["bound"]), "not below its bound"),
    "tree of another guess": (_branch("guess", lambda b: next(c for c in SPLIT_GAME.codes if c != b["guess"])),
                              "does not start with it"),
}


@pytest.mark.parametrize("corruption", list(BRANCH_CORRUPTIONS))
def test_a_corrupted_saved_second_guess_is_refused(tmp_path, monkeypatch, midway, corruption: str) -> None:
    mutate, message = BRANCH_CORRUPTIONS[corruption]
    path = tmp_path / "out.json.resume"
    path.write_bytes(orjson.dumps(mutate(orjson.loads(midway[0]))))
    with pytest.raises(ResumeFileError) as info:
        resumed_split(path, monkeypatch)
    assert message in str(info.value)


def _split_build_states(path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[list[dict[str, Any]], bytes]:
    """(every state a split build of SPLIT_GAME saved to its resume file, in order; its tree)."""
    written: list[bytes] = []
    real = subproblems.write_atomic
    monkeypatch.setattr(subproblems, "BRANCH_MIN_SECRETS", 5)
    monkeypatch.setattr(subproblems, "write_atomic", lambda where, data: (written.append(data), real(where, data)))
    tree = dumps(build(SPLIT_GAME, "expected", workers=2, checkpoint=path).document)
    monkeypatch.setattr(subproblems, "write_atomic", real)
    return [orjson.loads(data) for data in written if data.startswith(b'{"header"')], tree


def _one_part_left(states: list[dict[str, Any]]) -> tuple[dict[str, Any], str, list[dict[str, Any]]]:
    """(the finished build's state with its split part of most second guesses taken out, that part's answer, the
    most of its second guesses any state saved before it was done): a build stopped with only that part left, in
    whichever order the workers happened to end the parts."""
    branches: dict[str, list[dict[str, Any]]] = {}
    for state in states:
        for answer in {branch["answer"] for branch in state.get("branches", [])}:
            mine = [branch for branch in state["branches"] if branch["answer"] == answer]
            if len(mine) > len(branches.get(answer, [])):
                branches[answer] = mine
    answer = max(branches, key=lambda a: len(branches[a]))
    final = max(states, key=lambda state: len(state["parts"]))
    left = {**final, "parts": [part for part in final["parts"] if part["answer"] != answer]}
    left.pop("branches", None)
    return left, answer, branches[answer]


def test_a_resumed_build_with_one_large_part_left_still_splits_it(tmp_path, monkeypatch) -> None:
    """The last part left of an exact build is searched one second guess per task on every worker, not whole on one
    (a resumed build's one task used to start one worker)."""
    path = tmp_path / "out.json.resume"
    states, tree = _split_build_states(path, monkeypatch)
    left, _, _ = _one_part_left(states)  # none of its second guesses saved: the part starts afresh
    path.write_bytes(orjson.dumps(left))
    messages: list[str] = []
    assert resumed_split(path, monkeypatch, messages) == tree
    assert any("second guesses searched one per task" in message for message in messages)


def _restarting(answer: str, best: dict[str, Any]) -> int:
    """How many second guesses of SPLIT_GAME's part `answer` a resumed build starts again when only `best` (its best
    second guess) is saved: those whose bounds do not reach `best`'s value (as the build's `BranchedPart` counts)."""
    solver = Solver(SPLIT_GAME)
    first = SPLIT_GAME.code_index["012"]
    part = next(p for p in solver.split(solver.all_guesses, first) if str(solver.answer_to(first, p)) == answer)
    guesses, bases, _ = CostSearch(solver, TOTAL_GUESSES).candidates(part, solver.num_codes - 1, (first,))
    state = branching.BranchedPart(answer, None, len(part), guesses.tolist(), bases.tolist(), upper=best["value"])
    guess = SPLIT_GAME.code_index[best["guess"]]
    state.replay(part_tasks.BranchResult(answer, guess, best["bound"], best["value"], best["tree"], 0.0, 0))
    return state.guesses_left()


def test_a_resumed_builds_last_second_guess_is_shared_by_the_workers(tmp_path, monkeypatch) -> None:
    """One part left with only its best second guess saved: the others whose bounds are below it start again, and
    the last of them is valued one of its parts per task, so both workers take some (it ran whole on one worker
    while the other idled); the bytes are the same."""
    path = tmp_path / "out.json.resume"
    states, tree = _split_build_states(path, monkeypatch)
    valued: dict[str, dict[str, Any]] = {}  # each part's best second guess saved in any state
    for state in states:
        for branch in state.get("branches", []):
            held = valued.get(branch["answer"])
            if branch["value"] < branch["bound"] and (held is None or (branch["value"], branch["guess"]) < (
                    held["value"], held["guess"])):
                valued[branch["answer"]] = branch
    answer = next((a for a in sorted(valued) if _restarting(a, valued[a]) >= 1), None)
    assert answer is not None, "no part has a second guess left to start below its best"
    final = max(states, key=lambda state: len(state["parts"]))
    left = {**final, "parts": [part for part in final["parts"] if part["answer"] != answer], "branches": [valued[answer]]}
    path.write_bytes(orjson.dumps(left))
    messages: list[str] = []
    assert resumed_split(path, monkeypatch, messages) == tree
    assert any(f" {answer} then " in message and ", its " in message for message in messages)


class InOrder(LocalExecutor):
    """Two workers in name, run here as one (`LocalExecutor`'s own way with one worker: each task as it is
    submitted, results in that order), so the order tasks start in is the scheduler's alone, not the machine's."""

    def __init__(self) -> None:
        super().__init__(1)
        self.started: list[tuple[str, str]] = []  # (task, the part's answer)

    def start(self, initializer: Callable[..., None], init_args: tuple, at_most: int) -> int:
        super().start(initializer, init_args, 1)
        return 2

    def submit(self, function: Callable[..., Any], *args: Any) -> None:
        self.started.append((function.__name__, next(a for a in reversed(args) if isinstance(a, str) and a.endswith("C"))))
        super().submit(function, *args)


def test_a_split_build_runs_whole_parts_first_then_large_parts_smallest_first(monkeypatch: pytest.MonkeyPatch) -> None:
    """A long build's resume file gains finished parts soonest: every whole part starts before any second guess, and
    the large parts' second guesses go smallest part first (5 of 10's largest part runs for days)."""
    pool = InOrder()
    monkeypatch.setattr(subproblems, "BRANCH_MIN_SECRETS", 30)  # SPLIT_GAME's parts of 72, 36 and 36 secrets
    monkeypatch.setattr(subproblems, "make_executor", lambda *args, **kwargs: pool)
    tree = dumps(build(SPLIT_GAME, "expected", workers=2).document)
    monkeypatch.undo()
    assert tree == dumps(build(SPLIT_GAME, "expected", workers=1).document)
    kinds = [kind for kind, _ in pool.started]
    whole = [i for i, kind in enumerate(kinds) if kind == "_solve_part"]
    searched = [i for i, kind in enumerate(kinds) if kind in ("_solve_branch", "_solve_pieces")]
    assert len(whole) == 5 and searched and max(whole) < min(searched), kinds
    large = list(dict.fromkeys(answer for kind, answer in pool.started if kind in ("_solve_branch", "_solve_pieces")))
    assert large == ["0B2C", "1B0C", "0B1C"], large  # 36, 36 (in answer order) and 72 secrets


@pytest.mark.parametrize("code", ["0" * 32, None], ids=["other code", "no code"])
def test_a_resume_file_of_other_search_code_is_searched_again(tmp_path: Path, code: str | None) -> None:
    """A budgeted build's saved parts, forged to claim each optimal (lower bound = total), under other search code or
    none: the resumed build searches every part again and writes what a fresh build writes, optimal as that is."""
    game = Game(3, "01234567", False)  # with no budget beyond the greedy trees, 1455 guesses, at least 1449
    path = tmp_path / "out.json.resume"
    fresh = build(game, "expected", budget=0, workers=1, checkpoint=path)
    assert not fresh.document["optimal"]  # else a forged bound would change nothing
    saved = orjson.loads(path.read_bytes())
    header = {key: value for key, value in saved["header"].items() if key != "code"} | ({"code": code} if code else {})
    forged = [{**part, "lower_bound": part["cost"], "optimal": True} for part in saved["parts"]]
    path.write_bytes(orjson.dumps({"header": header, "parts": forged}))
    said: list[str] = []
    again = build(game, "expected", budget=0, workers=1, checkpoint=path, resume=True, progress=said.append)
    assert dumps(again.document) == dumps(fresh.document)
    assert f"resuming: out.json.resume was made by other search code: its {len(forged)} subproblems are searched again" in said
