"""An exact expected build of a word list saves each first guess it decides, and a resumed one goes on from there.

The build (`bactree.pipeline.first_guesses`) is stopped after some first
guesses are decided, as Ctrl-C or a VM stop would, and resumed: the tree
must be the uninterrupted build's, byte for byte, without deciding those
first guesses again; a damaged or foreign resume file is refused in one
line, and one of other search code is searched again.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import orjson
import pytest

from bactree.game import BactreeError, Game, word_game
from bactree.game.words import read_word_list
from bactree.pipeline.build import build
from bactree.search.cost import memo_store
from bactree.treefile import dumps


@cache
def list_game() -> Game:
    """150 words of `en-4` (every seventh): 144 first guesses searched, under a second in all."""
    return word_game(read_word_list("en-4").words[::7][:150])


@cache
def uninterrupted() -> bytes:
    return dumps(build(list_game(), "expected").document)


class Stop(KeyboardInterrupt):
    """The build stopped as Ctrl-C stops it."""


def stopped_after(decided: int, lines: list[str]):
    """A progress callback that keeps the lines and stops the build once `decided` first guesses are decided."""

    def progress(message: str) -> None:
        lines.append(message)
        if message.startswith("first guesses:") and sum(line.startswith("first guesses:") for line in lines) == decided:
            raise Stop

    return progress


def decided_lines(lines: list[str]) -> list[str]:
    return [line for line in lines if line.startswith("first guesses:")]


@pytest.mark.parametrize("decided", [1, 2, 40, 143])
def test_a_stopped_build_resumes_from_its_first_guesses_decided(tmp_path: Path, decided: int) -> None:
    checkpoint = tmp_path / "t.json.resume"
    with pytest.raises(Stop):
        build(list_game(), "expected", progress=stopped_after(decided, []), checkpoint=checkpoint)
    saved = orjson.loads(checkpoint.read_bytes())
    assert saved["finished"] == decided and saved["tree"]["guess"] == saved["best_guess"]
    lines: list[str] = []
    result = build(list_game(), "expected", progress=lines.append, checkpoint=checkpoint, resume=True)
    assert dumps(result.document) == uninterrupted()
    assert f"resuming: {saved['index']} of 150 first guesses decided, the best {saved['best_guess']}" in "\n".join(lines)
    assert len(decided_lines(lines)) == 144 - decided  # none decided again
    fresh: list[str] = []
    build(list_game(), "expected", progress=fresh.append, checkpoint=checkpoint)  # without resume: from the start
    assert len(decided_lines(fresh)) == 144


def test_the_values_of_the_first_guess_under_way_are_kept(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its memo file (every set kept here) is written when the build stops and read back by the resumed one."""
    monkeypatch.setattr(memo_store, "KEEP_SECONDS", 0.0)
    checkpoint = tmp_path / "t.json.resume"
    with pytest.raises(Stop):
        build(list_game(), "expected", progress=stopped_after(3, []), checkpoint=checkpoint)
    assert memo_store.memo_files(checkpoint)
    lines: list[str] = []
    result = build(list_game(), "expected", progress=lines.append, checkpoint=checkpoint, resume=True)
    assert dumps(result.document) == uninterrupted()
    assert any(line.endswith("proven values of sets reloaded from t.json.resume.memo") for line in lines)


def stopped_file(tmp_path: Path) -> Path:
    checkpoint = tmp_path / "t.json.resume"
    with pytest.raises(Stop):
        build(list_game(), "expected", progress=stopped_after(5, []), checkpoint=checkpoint)
    return checkpoint


@pytest.mark.parametrize("change, message", [
    (lambda saved: saved.update(best=saved["best"] - 1), "its tree does not give the total or cap recorded"),
    (lambda saved: saved.update(best_guess="zzzz"), "its tree does not start with its best first guess"),
    (lambda saved: saved["header"].update(lists="0123456789ab"), "made by a different build"),
    (lambda saved: saved.update(index="5"), "a figure has the wrong type"),
    (lambda saved: saved.pop("fail_low"), "not the resume file of an exact build's first guesses"),
])
def test_a_damaged_or_foreign_resume_file_is_refused(tmp_path: Path, change, message: str) -> None:
    checkpoint = stopped_file(tmp_path)
    saved = orjson.loads(checkpoint.read_bytes())
    change(saved)
    checkpoint.write_bytes(orjson.dumps(saved))
    with pytest.raises(BactreeError, match=message) as refused:
        build(list_game(), "expected", checkpoint=checkpoint, resume=True)
    assert "\n" not in str(refused.value) and str(refused.value).startswith(str(checkpoint))


def test_a_resume_file_of_other_search_code_is_searched_again(tmp_path: Path) -> None:
    checkpoint = stopped_file(tmp_path)
    saved = orjson.loads(checkpoint.read_bytes())
    saved["header"]["code"] = "0" * 16
    checkpoint.write_bytes(orjson.dumps(saved))
    lines: list[str] = []
    result = build(list_game(), "expected", progress=lines.append, checkpoint=checkpoint, resume=True)
    assert dumps(result.document) == uninterrupted()
    assert "resuming: t.json.resume was made by other search code: its" in "\n".join(lines)
    assert len(decided_lines(lines)) == 144


def test_a_budgeted_build_takes_the_exact_builds_best_tree_where_it_costs_less(tmp_path: Path) -> None:
    """`--exact-from` the stopped build's file: its best tree (replayed) replaces the budgeted one when cheaper; the
    lower bound stays the budgeted build's own."""
    checkpoint = stopped_file(tmp_path)
    saved = orjson.loads(checkpoint.read_bytes())
    budgeted = build(list_game(), "expected", budget=0)
    assert budgeted.stats["total_guesses"] > saved["best"]  # the 150 words' greedy tree is worse: something to take
    lines: list[str] = []
    taken = build(list_game(), "expected", budget=0, exact_from=checkpoint, progress=lines.append)
    assert taken.document["root"] == saved["tree"] and taken.stats["total_guesses"] == saved["best"]
    assert taken.stats["lower_bound"] == budgeted.stats["lower_bound"] and taken.document["optimal"] is False
    assert f"its best tree (first guess {saved['best_guess']}) totals {saved['best']}" in "\n".join(lines)
    with pytest.raises(BactreeError, match="give it to a budgeted build without --first"):
        build(list_game(), "expected", budget=0, exact_from=checkpoint, first_guess=saved["best_guess"])
    other = word_game(read_word_list("en-4").words[1::7][:150])
    with pytest.raises(BactreeError, match="made by a different build"):
        build(other, "expected", budget=0, exact_from=checkpoint)
