"""Tree files: a tiny tree passes the checks, and every kind of defect is caught and named."""

from __future__ import annotations

import os
import stat
from collections import Counter
from pathlib import Path
from typing import Any, Callable

import orjson
import pytest
from typer.testing import CliRunner

from bactree.cli.main import app
from bactree.game import BactreeError, Game
from bactree.treefile import (
    TreeFormatError,
    check_document,
    check_writable,
    document,
    dumps,
    json_bytes,
    read_document,
    replay_tree,
    write_atomic,
)
from tiny_trees import OBJECTIVE, build_consistent, consistent_document, count_nodes

GAMES = [Game(3, "0123", False), Game(2, "123", True)]
GAME_IDS = ["bulls-cows-3x4", "mastermind-2x3"]
BC = GAMES[0]

runner = CliRunner()


def copy(doc: dict[str, Any]) -> dict[str, Any]:
    return orjson.loads(orjson.dumps(doc))


def write(tmp_path: Path, doc: Any, name: str = "tree.json") -> Path:
    path = tmp_path / name
    path.write_bytes(dumps(doc) if isinstance(doc, dict) else doc)
    return path


# --- a good tree ------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_stats_equal_the_builders_own_count(game: Game) -> None:
    root, depths = build_consistent(game)
    doc = document(game, OBJECTIVE, False, root)
    stats = doc["stats"]
    assert set(depths) == set(game.codes)
    assert stats["secrets"] == len(game.codes)
    assert stats["total_guesses"] == sum(depths.values())
    assert stats["max_guesses"] == max(depths.values())
    assert stats["mean_guesses"] == pytest.approx(sum(depths.values()) / len(depths))
    assert stats["histogram"] == {str(k): v for k, v in sorted(Counter(depths.values()).items())}
    assert stats["nodes"] == count_nodes(root) == len(game.codes)  # one node per secret in this builder
    assert "lower_bound" not in stats
    assert check_document(doc).total_guesses == sum(depths.values())


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_written_tree_reads_back_and_verifies(tmp_path: Path, game: Game) -> None:
    doc = consistent_document(game)
    path = tmp_path / "tree.json"
    write_atomic(path, dumps(doc))
    assert read_document(path) == doc
    check_document(read_document(path), str(path))
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 0, result.output
    stats = doc["stats"]
    assert result.stdout.startswith(f"ok   {path}: {stats['secrets']} secrets, max {stats['max_guesses']}, ")
    assert "not proven optimal" in result.stdout


def test_document_layout_is_fixed() -> None:
    """Same build, same bytes; keys in the format's order; `next` ascending; final nodes bare."""
    doc = consistent_document(BC)
    assert dumps(doc) == dumps(consistent_document(BC))
    assert list(doc) == ["format", "version", "game", "objective", "optimal", "stats", "root"]
    assert doc["game"] == {"length": 3, "symbols": "0123", "repeats": False}
    assert doc["objective"] == {"name": "first-consistent", "tie_breaks": [], "hard_mode": True, "max_guesses": None}
    text = dumps(doc)
    assert text.endswith(b"}\n") and b'\n  "version": 1,\n' in text

    def walk(tree: dict[str, Any]) -> None:
        if "next" not in tree:
            return
        keys = list(tree["next"])
        assert keys and keys == sorted(keys, key=lambda k: (int(k[0]), int(k[2])))
        for child in tree["next"].values():
            walk(child)

    walk(doc["root"])


def test_lower_bound_is_written_when_given() -> None:
    root, _ = build_consistent(BC)
    doc = document(BC, OBJECTIVE, False, root, lower_bound=40)
    assert doc["stats"]["lower_bound"] == 40
    check_document(doc)


def test_empty_next_is_a_final_node() -> None:
    game = Game(1, "a", True)
    assert check_document(document(game, OBJECTIVE, True, {"guess": "a", "next": {}})).total_guesses == 1


# --- defects ----------------------------------------------------------------


def _first_inner(tree: dict[str, Any]) -> dict[str, Any]:
    """The first node, depth first, whose child is itself an inner node."""
    for child in tree["next"].values():
        if "next" in child:
            return child
    raise AssertionError("no inner child")


def _with_spare_answer(doc: dict[str, Any]) -> str:
    """Add to the root's first inner child an answer none of its secrets give; return it."""
    inner = _first_inner(doc["root"])
    possible = [str(a) for a in BC.answers if a != BC.solved]
    spare = next(a for a in possible if a not in inner["next"])
    inner["next"][spare] = {"guess": "012"}
    inner["next"] = dict(sorted(inner["next"].items()))
    return spare


def _set(path: tuple[str, ...], value: Any) -> Callable[[dict[str, Any]], str]:
    def mutate(doc: dict[str, Any]) -> str:
        target = doc
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
        return ""

    return mutate


def _drop_first_answer(doc: dict[str, Any]) -> str:
    first = next(iter(doc["root"]["next"]))
    del doc["root"]["next"][first]
    return first


def _cut_root(doc: dict[str, Any]) -> str:
    del doc["root"]["next"]
    return ""


def _reverse_root_keys(doc: dict[str, Any]) -> str:
    doc["root"]["next"] = dict(reversed(doc["root"]["next"].items()))
    return ""


def _lowercase_key(doc: dict[str, Any]) -> str:
    nxt = doc["root"]["next"]
    doc["root"]["next"] = {k.lower() if i == 0 else k: v for i, (k, v) in enumerate(nxt.items())}
    return next(iter(nxt)).lower()


def _solved_answer_in_next(doc: dict[str, Any]) -> str:
    doc["root"]["next"]["3B0C"] = {"guess": "012"}
    return ""


def _bump(field: str, by: Any) -> Callable[[dict[str, Any]], str]:
    def mutate(doc: dict[str, Any]) -> str:
        doc["stats"][field] = by(doc["stats"][field])
        return ""

    return mutate


DEFECTS: dict[str, tuple[Callable[[dict[str, Any]], str], str]] = {
    "wrong format": (_set(("format",), "other-tree"), "not a bactree tree file (format is 'other-tree'"),
    "wrong version": (_set(("version",), 3), "unsupported version 3 (this reader knows versions 1 and 2)"),
    "version as boolean": (_set(("version",), True), "unsupported version True"),
    "version as float": (_set(("version",), 1.0), "unsupported version 1.0"),
    "missing field": (lambda d: str(d.pop("stats") and ""), "missing field 'stats'"),
    "bad game": (_set(("game", "symbols"), "0120"), "invalid game: symbol '0' appears twice"),
    "invalid guess": (_set(("root", "guess"), "001"), "node at root: invalid code '001': symbol '0' repeats"),
    "guess not a string": (_set(("root", "guess"), 12), "node at root: guess 12 is not a string"),
    "guess padded with space": (_set(("root", "guess"), "012 "), "node at root: guess '012 ' is not written as '012'"),
    "unknown node field": (_set(("root", "note"), "hi"), "node at root has unknown field(s) ['note']"),
    "missing answer in next": (_drop_first_answer, "'next' lacks answer {}"),
    "spare answer in next": (_with_spare_answer, "answer {} is in 'next' but no still-possible secret gives it"),
    "all-bulls answer in next": (_solved_answer_in_next, "answer 3B0C is in 'next' but no still-possible secret"),
    "final node with several secrets": (_cut_root, "node at root (guess 012): final node lacks answer"),
    "answer key not canonical": (_lowercase_key, "answer key '{0}' is not written as {0!u}"),
    "next out of order": (_reverse_root_keys, "node at root: 'next' keys are not in ascending order"),
    "stats.total_guesses": (_bump("total_guesses", lambda v: v + 1), "stats.total_guesses is {t1} but a replay of every secret gives {t}"),
    "stats.max_guesses": (_bump("max_guesses", lambda v: v - 1), "stats.max_guesses is"),
    "stats.nodes": (_bump("nodes", lambda v: v * 2), "stats.nodes is 48 but a replay of every secret gives 24"),
    "stats.histogram": (_bump("histogram", lambda h: {**h, "1": 2}), "stats.histogram is"),
    "stats.mean_guesses": (_bump("mean_guesses", lambda v: v + 0.01), "stats.mean_guesses is"),
    "stats.secrets": (_bump("secrets", lambda v: v + 1), "stats.secrets is 25 but a replay"),
    "first guess not the root's": (_set(("objective", "first_guess"), "210"),
                                   "objective.first_guess '210' is not the root's guess '012'"),
}


def _expected_message(template: str, found: str, doc: dict[str, Any]) -> str:
    total = doc["stats"]["total_guesses"]
    return (
        template.replace("{0!u}", found.upper())
        .replace("{0}", found)
        .replace("{}", found)
        .replace("{t1}", str(total + 1))
        .replace("{t}", str(total))
    )


@pytest.mark.parametrize("defect", list(DEFECTS))
def test_each_defect_is_caught_and_named(tmp_path: Path, defect: str) -> None:
    mutate, template = DEFECTS[defect]
    good = consistent_document(BC)
    doc = copy(good)
    found = mutate(doc)
    message = _expected_message(template, found, good)
    assert dumps(doc) != dumps(good)
    with pytest.raises(TreeFormatError) as info:
        check_document(doc, "bad.json")
    assert message in str(info.value)
    assert str(info.value).startswith("bad.json: ")

    path = write(tmp_path, doc)
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 1, result.output
    assert result.stderr.startswith(f"FAIL {path}: ")
    assert message in result.stderr
    assert result.stderr.count("\n") == 1 and "Traceback" not in result.output


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b'{"format": "bactree-tree", ', "not valid JSON"),
        (b"\xff\xfe", "not valid JSON: its bytes are not UTF-8 text"),
        (b'{"format": "\xff"}', "not valid JSON: its bytes are not UTF-8 text"),
        (b"[1, 2]", "the top level is not a JSON object"),
    ],
)
def test_unreadable_files_are_named(tmp_path: Path, content: bytes, message: str) -> None:
    path = write(tmp_path, content)
    with pytest.raises(TreeFormatError, match=message):
        read_document(path)
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 1
    assert result.stderr.startswith(f"FAIL {path}: {message}")


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "absent.json"
    with pytest.raises(TreeFormatError, match=r"absent\.json: cannot read: No such file"):
        read_document(path)
    result = runner.invoke(app, ["verify", str(path)])
    assert result.exit_code == 1
    assert result.stderr == f"FAIL {path}: cannot read: No such file or directory\n"


def test_verify_stops_at_the_first_bad_file(tmp_path: Path) -> None:
    good = write(tmp_path, consistent_document(BC), "good.json")
    bad = write(tmp_path, b"{", "bad.json")
    result = runner.invoke(app, ["verify", str(good), str(bad), str(good)])
    assert result.exit_code == 1
    assert result.stdout.count("ok   ") == 1
    assert "FAIL" in result.stderr and "bad.json" in result.stderr


def test_secret_never_reached_is_caught() -> None:
    """A tree that re-asks the same guess forever cannot exist in JSON, but one that ends early can."""
    root, _ = build_consistent(BC)
    child = _first_inner(root)
    child["next"] = {}  # its secrets other than the guess are now unsolved
    with pytest.raises(TreeFormatError, match=r"final node lacks answer"):
        replay_tree(BC, root)


# --- write_atomic -----------------------------------------------------------


def test_write_atomic_leaves_no_temp_file(tmp_path: Path) -> None:
    path = tmp_path / "tree.json"
    write_atomic(path, b"hello\n")
    assert path.read_bytes() == b"hello\n"
    assert os.listdir(path.parent) == ["tree.json"]


def test_write_atomic_replaces_by_rename(tmp_path: Path) -> None:
    """A reader holding the old file keeps the old bytes: the new file is renamed over it."""
    path = tmp_path / "tree.json"
    path.write_bytes(b"old contents\n")
    with open(path, "rb") as reader:
        old_inode = os.fstat(reader.fileno()).st_ino
        write_atomic(path, b"new\n")
        assert reader.read() == b"old contents\n"
    assert path.read_bytes() == b"new\n"
    assert os.stat(path).st_ino != old_inode
    assert os.listdir(tmp_path) == ["tree.json"]


def test_write_atomic_failure_keeps_the_old_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "tree.json"
    path.write_bytes(b"old\n")

    def broken_replace(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(BactreeError, match=f"cannot write {str(path)!r}: No space left on device"):
        write_atomic(path, b"new\n")
    assert path.read_bytes() == b"old\n"
    assert os.listdir(tmp_path) == ["tree.json"]


@pytest.mark.parametrize("write", [lambda path: write_atomic(path, b"x"), check_writable], ids=["write_atomic", "check_writable"])
def test_unwritable_paths_are_one_line_errors(write, tmp_path: Path) -> None:
    """A folder, or a path through a file, is refused with the reason; nothing is left behind."""
    (tmp_path / "plain").write_text("old")
    with pytest.raises(BactreeError, match="it is a folder"):
        write(tmp_path)
    with pytest.raises(BactreeError, match=f"{str(tmp_path / 'plain')!r} is not a folder"):
        write(tmp_path / "plain" / "deeper" / "tree.json")
    assert os.listdir(tmp_path) == ["plain"] and (tmp_path / "plain").read_text() == "old"


@pytest.mark.parametrize("write", [lambda path: write_atomic(path, b"x"), check_writable], ids=["write_atomic", "check_writable"])
def test_a_missing_folder_is_refused_not_made(write, tmp_path: Path) -> None:
    """One rule for every file bactree writes: the folder must exist (a typo makes no folder)."""
    missing = tmp_path / "new" / "folders"
    with pytest.raises(BactreeError, match=f"^cannot write {str(missing / 'tree.json')!r}: folder {str(missing)!r} does not exist$"):
        write(missing / "tree.json")
    assert os.listdir(tmp_path) == []


def test_write_atomic_file_mode_follows_umask(tmp_path: Path) -> None:
    """Tree files are for sharing: not the private 0600 of a temporary file."""
    old = os.umask(0o022)
    try:
        write_atomic(tmp_path / "tree.json", b"{}\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(tmp_path / "tree.json").st_mode) == 0o644


def test_write_atomic_relative_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    write_atomic("plain.json", b"x")
    assert (tmp_path / "plain.json").read_bytes() == b"x"
    assert os.listdir(tmp_path) == ["plain.json"]


def test_hard_mode_file_with_a_guess_not_still_possible_is_refused():
    from bactree.pipeline.build import build
    from bactree.game import Game

    game = Game(2, "12345", True)
    doc = build(game).document  # free: uses guesses that are not still possible (height 4 < 5 in hard mode)
    assert doc["stats"]["nodes"] > doc["stats"]["secrets"]
    doc["objective"]["hard_mode"] = True
    with pytest.raises(TreeFormatError, match="hard_mode is true but"):
        check_document(doc)
    hard = build(game, hard=True).document
    assert check_document(hard).nodes == len(game.codes)


def test_json_bytes_are_orjsons_and_reach_past_its_nesting_limit(tmp_path: Path) -> None:
    """A value orjson writes is written as orjson writes it; one nested past orjson's 255 levels (a tree of 200
    guesses: n = 1 over 200 symbols) as the same bytes by the standard library, and read back."""
    shallow = {"a": [1, "é", None, True, {"b": []}], "c": {}}
    assert json_bytes(shallow) == orjson.dumps(shallow)
    assert json_bytes(shallow, indent=True) == orjson.dumps(shallow, option=orjson.OPT_INDENT_2)
    deep: dict[str, Any] = {"guess": "z"}
    for depth in range(200):
        deep = {"guess": chr(0x100 + depth), "next": {"0B0C": deep}}
    with pytest.raises(TypeError):
        orjson.dumps(deep)
    for indent in (False, True):
        assert orjson.loads(json_bytes(deep, indent=indent)) == deep
    for depth in range(400):
        deep = {"guess": "z", "next": {"0B0C": deep}}
    with pytest.raises(TreeFormatError, match="too deeply nested"):
        json_bytes(deep)
    symbols = "".join(chr(0x100 + i) for i in range(200))
    out = tmp_path / "deep.json"
    result = CliRunner().invoke(app, ["build", "-n", "1", "--symbols", symbols, "--tie-break", "none", "-q", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert CliRunner().invoke(app, ["verify", str(out)]).exit_code == 0
    assert orjson.loads(out.read_bytes())["stats"]["max_guesses"] == 200
