"""`build --exact-from`: a budgeted build takes what an exact build of the same game has finished, where it is better."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import orjson
import pytest
from typer.testing import CliRunner

from bactree.pipeline import subproblems
from bactree.pipeline.build import build
from bactree.pipeline.resume import PartResult, Resumed
from bactree.cli.main import app
from bactree.game import BactreeError, Game
from bactree.treefile import renamed, replay_tree

GAME = Game(3, "01234567", False)  # 336 codes: with no budget beyond the greedy trees, 1455 guesses against 1449
OPTIONS = ["-n", "3", "--symbols", "01234567", "-O", "expected", "--budget", "0", "-j", "1", "--quiet"]


@pytest.fixture(scope="module")
def exact(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict[str, Any]]:
    """(the least total, the resume file an exact build leaves, every part finished)."""
    path = tmp_path_factory.mktemp("exact") / "exact.json.resume"
    result = build(GAME, "expected", workers=1, checkpoint=path)
    assert result.document["optimal"]
    return result.cost, orjson.loads(path.read_bytes())


def unfinished(saved: dict[str, Any]) -> dict[str, Any]:
    """`saved` as if each part had one second guess valued, its own optimal one, and no part finished."""
    branches = [
        {"answer": part["answer"], "guess": part["tree"]["guess"], "bound": part["cost"] + 1, "value": part["cost"],
         "tree": part["tree"], "seconds": 0.0, "sets": 0}
        for part in saved["parts"]
        if "next" in part["tree"]  # a part of one secret is no second guess's
    ]
    return {"header": saved["header"], "parts": [p for p in saved["parts"] if "next" not in p["tree"]], "branches": branches}


def part_of(doc: dict[str, Any], answer: str) -> list[str]:
    """The secrets that give `answer` to `doc`'s first guess."""
    return [code for code in GAME.codes if str(GAME.score(doc["root"]["guess"], code)) == answer]


def budgeted(path: Path | None) -> dict[str, Any]:
    return build(GAME, "expected", budget=0, workers=1, exact_from=path).document


def test_finished_parts_make_the_budgeted_tree_optimal(tmp_path: Path, exact: tuple[int, dict[str, Any]]) -> None:
    least, saved = exact
    alone = budgeted(None)
    assert alone["stats"]["total_guesses"] > least and not alone["optimal"]  # else this test shows nothing
    path = tmp_path / "exact.json.resume"
    path.write_bytes(orjson.dumps(saved))
    doc = budgeted(path)
    assert doc["stats"]["total_guesses"] == least and doc["optimal"] and "lower_bound" not in doc["stats"]
    assert replay_tree(GAME, doc["root"]).total_guesses == least


def test_valued_second_guesses_better_the_tree_not_the_bound(tmp_path: Path, exact: tuple[int, dict[str, Any]]) -> None:
    least, saved = exact
    alone = budgeted(None)
    path = tmp_path / "exact.json.resume"
    saved = unfinished(saved)
    path.write_bytes(orjson.dumps(saved))
    doc = budgeted(path)
    assert doc["stats"]["total_guesses"] == least < alone["stats"]["total_guesses"]
    assert doc["optimal"] == (least == alone["stats"]["lower_bound"])
    assert doc["stats"].get("lower_bound", least) == alone["stats"]["lower_bound"]


def test_a_worse_exact_result_is_not_taken(tmp_path: Path, exact: tuple[int, dict[str, Any]]) -> None:
    """Second guesses valued above what the budgeted build found leave its tree as it was, byte for byte."""
    _, saved = exact
    alone = budgeted(None)
    ours = {str(a): child for a, child in alone["root"]["next"].items()}
    saved = unfinished(saved)
    worse = []
    for branch in saved["branches"]:
        mine = replay_tree(GAME, ours[branch["answer"]], secrets=part_of(alone, branch["answer"])).total_guesses
        if branch["value"] >= mine:
            worse.append(branch)
    assert worse and len(worse) < len(saved["branches"])  # some parts the budget already solved as well
    path = tmp_path / "exact.json.resume"
    path.write_bytes(orjson.dumps({**saved, "branches": worse}))
    assert budgeted(path) == alone


def test_another_builds_file_or_a_false_value_is_refused(tmp_path: Path, exact: tuple[int, dict[str, Any]]) -> None:
    _, saved = exact
    path = tmp_path / "exact.json.resume"
    path.write_bytes(orjson.dumps({**saved, "header": {**saved["header"], "budget": 10}}))
    with pytest.raises(BactreeError, match="made by a different build"):
        budgeted(path)
    lying = unfinished(saved)
    lying["branches"][0]["value"] -= 1
    lying["branches"][0]["bound"] -= 1
    path.write_bytes(orjson.dumps(lying))
    with pytest.raises(BactreeError, match="does not give the total"):
        budgeted(path)


def test_the_command_says_where_the_option_belongs(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "out.json"
    missing = runner.invoke(app, ["build", *OPTIONS, "-o", str(out), "--exact-from", str(tmp_path / "none.resume")])
    assert missing.exit_code != 0 and "cannot read" in missing.output and "Traceback" not in missing.output
    worst = runner.invoke(app, ["build", "-n", "3", "--symbols", "012345", "-o", str(out), "--exact-from", "x.resume"])
    assert worst.exit_code != 0 and "--exact-from is for budgeted expected builds" in worst.output
    own = runner.invoke(app, ["build", *OPTIONS, "-o", str(out), "--exact-from", str(out) + ".resume"])
    assert own.exit_code != 0 and "this build's own resume file" in own.output
    assert not out.exists()


def test_a_tie_keeps_the_budgeted_tree(tmp_path: Path, exact: tuple[int, dict[str, Any]]) -> None:
    """A second guess valued at what the budgeted part costs is not taken: the file stays as the budget made it.

    The tie is the budgeted subtree of a part with symbols 3 and 4 swapped:
    the first guess 012 does not tell them apart, so it solves the same part
    at the same total, with other guesses.
    """
    _, saved = exact
    alone = budgeted(None)
    ties = []
    for answer, child in alone["root"]["next"].items():
        image = renamed({**alone, "root": child}, "01243567")["root"]
        if "next" in child and image != child:
            total = replay_tree(GAME, image, secrets=part_of(alone, answer)).total_guesses
            ties.append({"answer": answer, "guess": image["guess"], "bound": total + 1, "value": total, "tree": image,
                         "seconds": 0.0, "sets": 0})
    assert ties
    path = tmp_path / "exact.json.resume"
    path.write_bytes(orjson.dumps({"header": saved["header"], "parts": [], "branches": ties}))
    assert budgeted(path) == alone


@pytest.mark.parametrize("code", ["0" * 32, None], ids=["other code", "no code"])
def test_an_exact_file_of_other_search_code_betters_the_tree_but_proves_nothing(
    tmp_path: Path, exact: tuple[int, dict[str, Any]], code: str | None
) -> None:
    """Its finished parts' trees stand (replayed), but their optimality is another code's claim: the bound stays the
    budgeted build's, so the tree is not called optimal."""
    least, saved = exact
    alone = budgeted(None)
    header = {key: value for key, value in saved["header"].items() if key != "code"} | ({"code": code} if code else {})
    path = tmp_path / "exact.json.resume"
    path.write_bytes(orjson.dumps({**saved, "header": header}))
    said: list[str] = []
    doc = build(GAME, "expected", budget=0, workers=1, exact_from=path, progress=said.append).document
    assert doc["stats"]["total_guesses"] == least < alone["stats"]["total_guesses"]
    assert doc["optimal"] == (least == alone["stats"]["lower_bound"])  # by the budgeted build's bound alone
    assert doc["stats"].get("lower_bound", least) == alone["stats"]["lower_bound"]
    assert ("exact.json.resume was made by other search code: its trees stand where they cost less (each replayed), "
            "its bounds prove nothing here") in said


@pytest.mark.parametrize("same_code", [True, False])
def test_a_finished_part_of_other_search_code_gives_its_tree_not_its_bound(same_code: bool) -> None:
    """`_bettered` on one part: the exact build's optimal total is a proof only under the same search code."""
    tree = {"guess": "012"}
    ours = PartResult("0B1C", 1, 5, 3, False, {"guess": "013"}, 0.0, 0)
    theirs = PartResult("0B1C", 1, 4, 4, True, tree, 0.0, 0)
    got = subproblems._bettered(ours, Resumed({"0B1C": theirs}, {}, same_code), lambda message: None)
    assert (got.cost, got.tree) == (4, tree)
    assert (got.lower_bound, got.optimal) == ((4, True) if same_code else (3, False))
