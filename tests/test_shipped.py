"""Shipped data: the tree files found in any folder, the best tree of a game, and the JSON Schema of the format."""

from __future__ import annotations

import copy
import json
import re
from pathlib import Path
from typing import Callable

import orjson
import pytest

from bactree import shipped, treefile
from bactree.treefile import check_header
from bactree.game import Game, make_game
from bactree.walker import load_shipped_tree, shipped_tree_path
from walker_trees import build_root, write_tree

jsonschema = pytest.importorskip("jsonschema", reason="the schema tests need jsonschema: pip install -e '.[test]'")

REPO = Path(__file__).resolve().parent.parent
TREES = sorted((REPO / "trees").glob("*.json"))
BC3 = Game(3, "0123", False)


def test_every_tree_of_the_checkout_is_shipped() -> None:
    """In a checkout the shipped trees are trees/ itself (a wheel carries the same files as package data)."""
    assert shipped.trees_dir() == REPO / "trees"
    assert [t.path for t in shipped.shipped_trees()] == TREES


def full_header(path: Path) -> dict:
    return orjson.loads(path.read_bytes())


def test_the_best_tree_is_chosen_from_every_shipped_header() -> None:
    """Recomputed here from whole files: least height, then least total, never hard mode."""
    docs = [(p, full_header(p)) for p in TREES]
    games = {check_header(d, p.name) for p, d in docs}
    for game in games:
        playable = [
            (d["stats"]["max_guesses"], d["stats"]["total_guesses"], p)
            for p, d in docs
            if check_header(d, p.name) == game and not d["objective"]["hard_mode"]
        ]
        best = min(playable)
        assert shipped_tree_path(game) == best[2]
        assert shipped.best_shipped_tree(game).rank()[:2] == best[:2]
    assert shipped_tree_path(make_game()).name == "bulls-cows-4x10-expected.json"  # height 7, total 26274


def write_variant(path: Path, game: Game, height: int, total: int, *, hard: bool = False, compact: bool = False) -> None:
    """A tree file whose header claims these figures (only the header is read to rank trees)."""
    doc = treefile.document(game, treefile.Objective("worst-case", (), hard), False, build_root(game))
    doc["stats"].update(max_guesses=height, total_guesses=total, histogram={str(height): 1})
    data = orjson.dumps(doc) if compact else treefile.dumps(doc)
    path.write_bytes(data)


def test_best_tree_ranks_height_then_total_and_skips_hard_mode(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(shipped, "trees_dir", lambda: tmp_path)
    write_variant(tmp_path / "a-tall.json", BC3, 5, 20)
    write_variant(tmp_path / "b-short.json", BC3, 4, 30)
    write_variant(tmp_path / "c-short-less-compact.json", BC3, 4, 25, compact=True)  # header found by a full read
    write_variant(tmp_path / "d-hard.json", BC3, 3, 10, hard=True)
    write_variant(tmp_path / "e-other-game.json", Game(3, "01234", False), 2, 5)
    (tmp_path / "f-not-a-tree.json").write_text('{"hello": 1}')
    (tmp_path / "g-broken.json").write_text("{oops")
    assert shipped_tree_path(BC3).name == "c-short-less-compact.json"
    assert load_shipped_tree(BC3).game == BC3
    assert [t.path.name for t in shipped.shipped_trees()] == [f"{c}.json" for c in
                                                               ("a-tall", "b-short", "c-short-less-compact", "d-hard", "e-other-game")]
    write_variant(tmp_path / "c-short-less-compact.json", BC3, 4, 30)  # a tie on both figures: the file name decides
    assert shipped_tree_path(BC3).name == "b-short.json"


# --- the JSON Schema ---------------------------------------------------------


@pytest.fixture(scope="module")
def validator() -> jsonschema.Draft202012Validator:
    schema = json.loads(shipped.schema_path().read_text())
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("path", TREES, ids=lambda p: p.name)
def test_every_shipped_tree_meets_the_schema(validator, path: Path) -> None:
    errors = [f"{list(e.absolute_path)}: {e.message}" for e in validator.iter_errors(full_header(path))]
    assert errors == []


@pytest.mark.parametrize("game", [BC3, Game(2, "123", True), Game(1, "AB", False)], ids=str)
def test_written_trees_meet_the_schema(validator, tmp_path: Path, game: Game) -> None:
    doc = json.loads(write_tree(tmp_path / "t.json", game).read_text())
    assert list(validator.iter_errors(doc)) == []
    doc["stats"]["lower_bound"] = 5
    doc["objective"].update(tie_breaks=["crush", "total"], hard_mode=True, max_guesses=4)
    assert list(validator.iter_errors(doc)) == []


def inner(doc: dict) -> dict:
    return next(iter(doc["root"]["next"].values()))


BROKEN: dict[str, Callable[[dict], object]] = {
    "format": lambda d: d.update(format="other"),
    "version 2": lambda d: d.update(version=2),
    "version as text": lambda d: d.update(version="1"),
    "no root": lambda d: d.pop("root"),
    "no stats": lambda d: d.pop("stats"),
    "extra top-level field": lambda d: d.update(comment="hi"),
    "length 0": lambda d: d["game"].update(length=0),
    "length a fraction": lambda d: d["game"].update(length=3.5),
    "symbols missing": lambda d: d["game"].pop("symbols"),
    "repeats as text": lambda d: d["game"].update(repeats="no"),
    "objective without name": lambda d: d["objective"].pop("name"),
    "tie_breaks not a list": lambda d: d["objective"].update(tie_breaks="nodes"),
    "max_guesses 0": lambda d: d["objective"].update(max_guesses=0),
    "optimal as text": lambda d: d.update(optimal="yes"),
    "stats without nodes": lambda d: d["stats"].pop("nodes"),
    "histogram key 0": lambda d: d["stats"]["histogram"].update({"0": 1}),
    "histogram key text": lambda d: d["stats"]["histogram"].update({"two": 1}),
    "histogram negative": lambda d: d["stats"]["histogram"].update({"9": -1}),
    "root a list": lambda d: d.update(root=[]),
    "node without guess": lambda d: inner(d).pop("guess"),
    "guess a number": lambda d: inner(d).update(guess=12),
    "guess empty": lambda d: inner(d).update(guess=""),
    "node with extra field": lambda d: inner(d).update(secrets=3),
    "next a list": lambda d: d["root"].update(next=[]),
    "answer key lower case": lambda d: d["root"]["next"].update({"1b1c": {"guess": "012"}}),
    "answer key padded": lambda d: d["root"]["next"].update({"01B1C": {"guess": "012"}}),
    "answer key no cows": lambda d: d["root"]["next"].update({"1B": {"guess": "012"}}),
    "child not a node": lambda d: d["root"]["next"].update({"1B1C": "012"}),
    "deep node broken": lambda d: _deepest(d["root"]).update(guess=None),
}


def _deepest(node: dict) -> dict:
    while node.get("next"):
        node = next(iter(node["next"].values()))
    return node


@pytest.fixture(scope="module")
def good(tmp_path_factory: pytest.TempPathFactory) -> dict:
    return json.loads(write_tree(tmp_path_factory.mktemp("schema") / "good.json", BC3).read_text())


@pytest.mark.parametrize("name", BROKEN)
def test_broken_trees_fail_the_schema(validator, good: dict, name: str) -> None:
    doc = copy.deepcopy(good)
    BROKEN[name](doc)
    assert not validator.is_valid(doc), name


def test_readme_schema_example_runs(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    text = (REPO / "docs" / "tree-format.md").read_text().split("## Tree files for other programs", 1)[1]
    code = re.search(r"```python\n(.*?)```", text, re.S).group(1)
    monkeypatch.chdir(tmp_path)
    exec(compile(code, "tree-format.md", "exec"), {})
    assert capsys.readouterr().out.count(" max ") == len(TREES)


# --- a shipped game with its symbols renamed (issue 34) ------------------------------------------------


def test_a_renamed_tree_is_the_same_strategy_for_the_renamed_game() -> None:
    doc = treefile.read_document(REPO / "trees" / "mastermind-4x6-worst-case.json")
    renamed = treefile.renamed(doc, "abcdef")
    replay = treefile.check_document(renamed, "renamed")  # every secret of 4 of 'abcdef' solved as the header says
    assert (replay.max_guesses, replay.total_guesses) == (doc["stats"]["max_guesses"], doc["stats"]["total_guesses"])
    assert renamed["game"]["symbols"] == "abcdef" and renamed["root"]["guess"] == doc["root"]["guess"].translate(str.maketrans("123456", "abcdef"))
    assert treefile.renamed(renamed, "123456") == doc
    with pytest.raises(ValueError, match="5 symbols cannot rename 6"):
        treefile.renamed(doc, "abcde")


def test_a_shipped_game_under_other_symbols_gets_its_tree_renamed() -> None:
    game = make_game("mastermind", symbols="abcdef")
    tree = load_shipped_tree(game)
    best = load_shipped_tree(make_game("mastermind"))
    assert tree.game == game and tree.stats == best.stats and tree.optimal == best.optimal
    assert tree.root["guess"] == best.root["guess"].translate(str.maketrans("123456", "abcdef"))
    assert tree.name.endswith("(symbols renamed 123456 -> abcdef)")
    assert shipped.best_shipped_tree(game) is None  # only when asked for a renamed one
    assert shipped.best_shipped_tree(make_game("bulls-cows", symbols="abcdefghijk")) is None


@pytest.mark.parametrize("command", ["walk", "play", "html"])
def test_walk_play_and_html_take_a_shipped_game_with_renamed_symbols(command: str, tmp_path: Path) -> None:
    from typer.testing import CliRunner

    from bactree.cli.main import app

    options = ["--game", "mastermind", "--symbols", "abcdef"]
    args = {
        "walk": ["walk", *options, "--secret", "fade"],
        "play": ["play", "--mode", "versus", *options, "--seed", "1"],
        "html": ["html", *options, "-o", str(tmp_path / "page.html")],
    }[command]
    result = CliRunner().invoke(app, args, input="q\n")
    assert result.exit_code == 0, result.output
    first = result.stdout.splitlines()[0]
    assert {
        "walk": "Secret fade, 4 of 'abcdef', repeats, tree mastermind-4x6-expected-max5.json (symbols renamed 123456 -> abcdef)",
        "play": "Versus, 4 of 'abcdef', repeats: I have picked a secret for you to find; think of one for me to find.",
        "html": f"wrote {tmp_path / 'page.html'}: mastermind-4x6-expected-max5.json, 1331 nodes, 96 KiB",
    }[command] == first
    extra = {"walk": [], "play": ["--mode", "versus"], "html": ["-o", str(tmp_path / "x.html")]}[command]
    result = CliRunner().invoke(app, [command, "-n", "4", "--symbols", "abcdefghijk", *extra])
    assert result.exit_code == 2
    assert result.stderr.startswith("Error: no shipped tree for bulls-cows-4x11 (4 of 'abcdefghijk', no repeats)")
