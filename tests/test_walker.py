"""The walker: loading tree files, walking them, refusing bad answers and bad files."""

from __future__ import annotations

import itertools
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from bactree import treefile
from bactree.game import Answer, BactreeError, Game, InvalidAnswerError, make_game
from bactree.walker import (
    InconsistentAnswerError,
    MissingTreeError,
    TreeFormatError,
    WalkStateError,
    conflicting_answers,
    load_shipped_tree,
    load_tree,
    shipped_tree_path,
)
from walker_trees import probe_pick, write_tree

REPO = Path(__file__).resolve().parent.parent
BC3 = Game(3, "0123", False)
MM2 = Game(2, "123", True)


@pytest.fixture(params=[BC3, MM2], ids=["bulls-cows-3x4", "mastermind-2x3"])
def tree_file(request: pytest.FixtureRequest, tmp_path: Path) -> Path:
    return write_tree(tmp_path / "tree.json", request.param)


def naive_candidates(game: Game, history: list[tuple[str, Answer]]) -> list[str]:
    return [c for c in game.codes if all(game.score(g, c) == a for g, a in history)]


def test_import_pulls_in_no_solver() -> None:
    code = (
        "import sys, bactree.walker\n"
        "heavy = [m for m in sys.modules if m.split('.')[0] in ('numpy', 'numba')\n"
        "         or m.startswith(('bactree.search', 'bactree.pipeline.build', 'bactree.game._answer_kernels', 'bactree.game.codes'))]\n"
        "print(heavy)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_tree_format_error_is_the_treefile_one() -> None:
    assert TreeFormatError is treefile.TreeFormatError
    assert issubclass(TreeFormatError, ValueError)
    assert issubclass(InconsistentAnswerError, BactreeError)
    assert issubclass(InconsistentAnswerError, InvalidAnswerError)


def test_load_reads_header(tree_file: Path) -> None:
    doc = json.loads(tree_file.read_text())
    tree = load_tree(tree_file)
    assert tree.game == Game(**doc["game"])
    assert tree.stats == doc["stats"]
    assert tree.optimal is False and tree.objective["name"] == "worst-case"
    walk = tree.start()
    assert walk.guess == doc["root"]["guess"]
    assert walk.history == [] and not walk.solved
    assert walk.candidates == list(tree.game.codes)


def test_every_secret_walks_to_itself(tree_file: Path) -> None:
    tree = load_tree(tree_file)
    game = tree.game
    total = 0
    for secret in game.codes:
        walk = tree.start()
        while not walk.solved:
            assert walk.candidates == naive_candidates(game, walk.history)
            assert secret in walk.candidates
            answer = game.score(walk.guess, secret)
            walk.answer(answer.bulls, answer.cows)
        assert walk.guess == secret and walk.candidates == [secret]
        assert [a for _, a in walk.history] == [game.score(g, secret) for g, _ in walk.history]
        total += len(walk.history)
    assert total == tree.stats["total_guesses"]


def test_inconsistent_answer_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    game = Game(3, "012345", False)
    walk = load_tree(write_tree(tmp_path / "t.json", game)).start()
    first = walk.guess
    walk.answer(0, 0)  # the secret is made of the three other symbols
    others = set(game.symbols) - set(first)
    assert set(walk.guess) & others, "a greedy second guess tries some of the other symbols"
    before = (walk.guess, walk.history, walk.candidates)
    with pytest.raises(InconsistentAnswerError) as caught:
        walk.answer(0, 0)
    assert (walk.guess, walk.history, walk.candidates) == before
    assert caught.value.conflicts == (0,)
    assert str(caught.value) == (
        f"no secret fits 0B0C to {walk.guess} together with the answers to guess 1 ({first}: 0B0C)"
    )


def test_impossible_answer_gives_the_games_reason(tree_file: Path) -> None:
    walk = load_tree(tree_file).start()
    n = walk.game.length
    said = {  # Mastermind in key pegs, Bulls and Cows in bulls and cows
        BC3: ("impossible answer 2B1C: 2 bulls leave one symbol, which cannot be a cow",
              "impossible answer 3B1C: bulls plus cows cannot exceed 3"),
        MM2: ("impossible answer 1 black, 1 white: 1 black peg leaves one peg, which cannot be white",
              "impossible answer 2 black, 1 white: black and white pegs cannot exceed 2 together"),
    }[walk.game]
    with pytest.raises(InconsistentAnswerError) as caught:
        walk.answer(n - 1, 1)
    assert str(caught.value) == said[0]
    with pytest.raises(InconsistentAnswerError) as caught:
        walk.answer(n, 1)
    assert str(caught.value) == said[1]
    assert walk.history == []


def test_all_bulls_on_a_guess_that_cannot_be_the_secret(tmp_path: Path) -> None:
    tree = load_tree(write_tree(tmp_path / "t.json", Game(3, "01234", False), probe_pick))
    game = tree.game
    probes = []
    for secret in game.codes:
        walk = tree.start()
        while not walk.solved:
            if walk.guess not in walk.candidates:
                probes.append([(g, a) for g, a in walk.history])
            answer = game.score(walk.guess, secret)
            walk.answer(answer.bulls, answer.cows)
    assert probes, "probe_pick makes nodes whose guess cannot be the secret"
    walk = tree.start()
    for _, answer in probes[0]:
        walk.answer(answer.bulls, answer.cows)
    with pytest.raises(InconsistentAnswerError, match=f"no secret fits 3B0C to {walk.guess} together with"):
        walk.answer(3, 0)
    assert not walk.solved


def test_undo_and_the_walks_ends(tree_file: Path) -> None:
    tree = load_tree(tree_file)
    walk = tree.start()
    with pytest.raises(WalkStateError, match="nothing to undo"):
        walk.undo()
    secret = tree.game.codes[-1]
    seen = []
    while not walk.solved:
        seen.append((walk.guess, walk.candidates))
        answer = tree.game.score(walk.guess, secret)
        walk.answer(answer.bulls, answer.cows)
    with pytest.raises(WalkStateError, match=f"the walk is over: the secret is {secret}"):
        walk.answer(0, 0)
    for guess, candidates in reversed(seen):
        assert walk.undo()[0] == guess
        assert (walk.guess, walk.candidates) == (guess, candidates)
    assert walk.history == []


def test_answer_takes_integers_only(tree_file: Path) -> None:
    walk = load_tree(tree_file).start()
    with pytest.raises(TypeError):
        walk.answer("1", "0")  # type: ignore[arg-type]


@pytest.mark.parametrize("game", [BC3, Game(3, "01234", False), MM2, Game(3, "12", True)], ids=str)
def test_conflicts_are_a_smallest_contradicting_set(game: Game) -> None:
    """Compare with a brute force over every subset, on random consistent histories of 1 to 4 answers."""
    rng = random.Random(4)
    checked = 0
    for _ in range(60):
        secret = rng.choice(game.codes)
        history = [(g, game.score(g, secret)) for g in rng.sample(game.codes, rng.randint(1, min(4, len(game.codes))))]
        for guess in rng.sample(game.codes, min(3, len(game.codes))):
            for answer in game.answers:
                if naive_candidates(game, [*history, (guess, answer)]):
                    continue
                checked += 1
                found = conflicting_answers(game, history, guess, answer)
                chosen = [history[i] for i in found]
                assert not naive_candidates(game, [*chosen, (guess, answer)])
                smaller = [
                    s
                    for size in range(len(found))
                    for s in itertools.combinations(history, size)
                    if not naive_candidates(game, [*s, (guess, answer)])
                ]
                assert smaller == []
    assert checked > 50


def test_conflicts_demand_a_contradiction() -> None:
    with pytest.raises(ValueError, match="fits some secret"):
        conflicting_answers(BC3, [], "012", Answer(1, 1))


def good_doc(tmp_path: Path) -> dict:
    return json.loads(write_tree(tmp_path / "good.json", BC3).read_text())


def first_inner(doc: dict) -> dict:
    return doc["root"]["next"][next(iter(doc["root"]["next"]))]


def break_keys_order(doc: dict) -> None:
    doc["root"]["next"] = dict(reversed(list(doc["root"]["next"].items())))


BAD_FILES = {
    "not JSON": (lambda d: None, b"{oops", "not valid JSON"),
    "format": (lambda d: d.update(format="other"), None, "not a bactree tree file"),
    "version": (lambda d: d.update(version=3), None, "unsupported version 3"),
    "no root": (lambda d: d.pop("root"), None, "missing field 'root'"),
    "no game symbols": (lambda d: d["game"].pop("symbols"), None, "game.symbols must be a string"),
    "node without guess": (lambda d: first_inner(d).pop("guess"), None, "is not an object with a 'guess'"),
    "node is a list": (lambda d: d["root"]["next"].update({next(iter(d["root"]["next"])): []}), None, "is not an object with a 'guess'"),
    "bad guess": (lambda d: first_inner(d).update(guess="011"), None, "symbol '1' repeats"),
    "guess not a string": (lambda d: d["root"].update(guess=12), None, "guess 12 is not a string"),
    "guess a list": (lambda d: first_inner(d).update(guess=["0", "1"]), None, "guess ['0', '1'] is not a string"),
    "guess padded": (lambda d: first_inner(d).update(guess=" 012"), None, "guess ' 012' has spaces around it"),
    "next not object": (lambda d: d["root"].update(next=[1]), None, "'next' is not an object"),
    "extra field": (lambda d: d["root"].update(note="hi"), None, "unknown field(s) ['note']"),
    "key spelling": (
        lambda d: d["root"].update(next={k.lower(): v for k, v in d["root"]["next"].items()}),
        None,
        "is not written as",
    ),
    "impossible key": (lambda d: d["root"]["next"].update({"2B1C": {"guess": "012"}}), None, "invalid answer key '2B1C'"),
    "all-bulls key": (lambda d: d["root"]["next"].update({"3B0C": {"guess": "012"}}), None, "has no child"),
    "key order": (break_keys_order, None, "not in ascending order"),
}


@pytest.mark.parametrize("defect", list(BAD_FILES))
def test_bad_file_names_the_file_and_problem(tmp_path: Path, defect: str) -> None:
    change, raw, problem = BAD_FILES[defect]
    doc = good_doc(tmp_path)
    change(doc)
    path = tmp_path / "bad.json"
    path.write_bytes(raw if raw is not None else json.dumps(doc).encode())
    with pytest.raises(TreeFormatError) as caught:
        load_tree(path)
    assert str(caught.value).startswith(f"{path}: ")
    assert problem in str(caught.value)


def test_missing_file() -> None:
    with pytest.raises(TreeFormatError, match="nowhere.json: cannot read"):
        load_tree("nowhere.json")


def test_missing_branch_is_found_on_the_way(tmp_path: Path) -> None:
    doc = good_doc(tmp_path)
    dropped = next(iter(doc["root"]["next"]))
    del doc["root"]["next"][dropped]
    path = tmp_path / "holey.json"
    path.write_text(json.dumps(doc))
    walk = load_tree(path).start()  # the shape is fine: the hole shows when a walk gets there
    answer = Answer.from_str(next(iter(doc["root"]["next"])))
    with pytest.raises(TreeFormatError, match=rf"holey.json: node at root \(guess {walk.guess}\) lacks answer {dropped}"):
        walk.answer(answer.bulls, answer.cows)
    assert walk.history == []


def test_spare_branch_is_found_on_the_way(tmp_path: Path) -> None:
    doc = good_doc(tmp_path)
    path_keys, final = [], doc["root"]
    while "next" in final:  # follow the first answers down to a final node
        key = next(iter(final["next"]))
        path_keys.append(key)
        final = final["next"][key]
    spare = str(next(a for a in BC3.answers if a != BC3.solved))
    final["next"] = {spare: {"guess": final["guess"]}}
    path = tmp_path / "spare.json"
    path.write_text(json.dumps(doc))
    walk = load_tree(path).start()
    for key in path_keys:
        answer = Answer.from_str(key)
        walk.answer(answer.bulls, answer.cows)
    with pytest.raises(TreeFormatError, match=rf"\(guess {final['guess']}\) has answer {spare}, which no still-possible"):
        walk.answer(3, 0)


def test_shipped_tree_path_and_missing_tree() -> None:
    assert shipped_tree_path(make_game(), "worst-case") == REPO / "trees" / "bulls-cows-4x10-worst-case.json"
    assert shipped_tree_path(make_game("mastermind"), "expected").name == "mastermind-4x6-expected.json"
    with pytest.raises(MissingTreeError, match=r"no shipped tree for bulls-cows-3x7 .* in .*; pass a tree file"):
        load_shipped_tree(Game(3, "0123456", False))
    with pytest.raises(MissingTreeError, match=r"no shipped crazy tree for bulls-cows-4x10 .*does not exist"):
        load_shipped_tree(make_game(), "crazy")


def readme_python_block() -> str:
    section = (REPO / "docs" / "playing.md").read_text()
    match = re.search(r"```python\n(.*?)```", section, re.S)
    assert match, "docs/playing.md has no python example"
    return match.group(1)


def test_readme_example_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    """Run the example of docs/playing.md from a folder far from the checkout: the shipped trees are found anyway."""
    code = readme_python_block()
    monkeypatch.chdir(tmp_path)
    namespace: dict = {}
    exec(compile(code, "playing.md", "exec"), namespace)
    walk = namespace["walk"]
    assert walk.guess == namespace["secret"] and not walk.solved  # solved, then the last answer undone
    assert "no secret fits 0B4C to 5817 together with the answers to guess 3 (4530: 0B1C) and guess 5" in capsys.readouterr().out
