"""scripts/rebuild_trees.py: every shipped tree listed with the command that made it, and a changed byte caught.

The commands of the slow trees are too long to run here; each entry's
options are instead read by the real `bactree build` (its search replaced by
a recorder) and checked against what the file's header records.
"""

from __future__ import annotations

import importlib.util
import inspect
import re
import shlex
import shutil
import sys
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

import bactree.pipeline.build
from bactree.pipeline.openings import EVERY_FIRST_GUESS
from bactree.treefile import check_header
from bactree.cli.main import app
from bactree.shipped import trees_dir

_spec = importlib.util.spec_from_file_location("rebuild_trees", Path(__file__).parents[1] / "scripts" / "rebuild_trees.py")
rebuild_trees = importlib.util.module_from_spec(_spec)
sys.modules["rebuild_trees"] = rebuild_trees  # its dataclass looks its module up while it is defined
_spec.loader.exec_module(rebuild_trees)

SMALL = "mastermind-4x6-expected.json"  # about 1.5 s to build


def header(name: str) -> dict:
    return orjson.loads((trees_dir() / name).read_bytes())


def test_every_shipped_tree_is_listed_once() -> None:
    listed = [entry.file for entry in rebuild_trees.REBUILDS]
    assert len(listed) == len(set(listed))
    assert sorted(listed) == sorted(path.name for path in trees_dir().glob("*.json"))


def test_the_readme_and_results_count_the_fast_and_slow_rebuilds() -> None:
    """The README and docs/results.md say how many trees CI rebuilds and how many `--all` adds: the list's counts."""
    fast = sum(entry.fast for entry in rebuild_trees.REBUILDS)
    slow = len(rebuild_trees.REBUILDS) - fast
    for page in ("README.md", "docs/results.md"):
        text = " ".join((Path(__file__).parents[1] / page).read_text(encoding="utf-8").split())
        assert f"rebuilds the {fast} whose build is fast" in text and f"adds the {slow} slow ones" in text, page


class Recorded(Exception):
    """Raised by the recording build in place of a search."""


@pytest.mark.parametrize("entry", rebuild_trees.REBUILDS, ids=lambda entry: entry.file)
def test_each_command_builds_what_its_file_records(entry, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The CLI turns the options into the game, objective, tie-breaks, hard mode and cap of the file's header.

    A `--first CODE` is the file's `objective.first_guess` (`--first all`
    records none: the build picked among every first guess).

    Without a budget the file must claim optimality: the search proves it.
    A budget may leave a file not proven optimal, with a lower bound, or
    not (the 5 of 10 worst case: the exhaustive search proves its height
    within the budget).
    """
    calls = []
    signature = inspect.signature(bactree.pipeline.build.build)

    def record(*args, **kwargs) -> None:
        bound = signature.bind(*args, **kwargs)
        bound.apply_defaults()
        calls.append(bound.arguments)
        raise Recorded

    monkeypatch.setattr(bactree.pipeline.build, "build", record)
    result = CliRunner().invoke(app, ["build", *shlex.split(entry.options), "--quiet", "-o", str(tmp_path / entry.file)])
    assert isinstance(result.exception, Recorded), result.output
    (call,) = calls
    game, objective, tie_break, hard = call["game"], call["objective"], call["tie_break"], call["hard"]
    max_guesses, budget = call["max_guesses"], call["budget"]
    doc = header(entry.file)
    assert game == check_header(doc, entry.file)
    keys = [] if objective == "expected" or tie_break == "none" else list(bactree.pipeline.build.parse_tie_breaks(tie_break or "nodes"))
    fixed = {} if call["first_guess"] in (None, EVERY_FIRST_GUESS) else {"first_guess": call["first_guess"]}
    assert {"name": objective, "tie_breaks": keys, "hard_mode": hard, "max_guesses": max_guesses, **fixed} == doc["objective"]
    assert doc["optimal"] is ("lower_bound" not in doc["stats"])
    assert doc["optimal"] or budget is not None


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, list[str], str]:
    code = rebuild_trees.main(list(argv))
    out, err = capsys.readouterr()
    return code, out.splitlines(), err


def test_a_tree_changed_by_hand_fails_the_check(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A copy of a small shipped tree rebuilds identical; with one figure changed by hand (valid JSON still), it differs."""
    shutil.copy(trees_dir() / SMALL, tmp_path / SMALL)
    code, lines, _ = run(capsys, "--trees", str(tmp_path))  # no names: the fast trees present, this one
    assert code == 0 and lines[0].startswith(SMALL) and lines[0].endswith(" bytes  identical")
    assert lines[-1].startswith("1 of 1 rebuilt identical in ")

    text = (tmp_path / SMALL).read_text()
    assert text.count('"total_guesses": 5625') == 1
    (tmp_path / SMALL).write_text(text.replace('"total_guesses": 5625', '"total_guesses": 5624'))
    code, lines, _ = run(capsys, "--trees", str(tmp_path), SMALL)
    assert code == 1
    assert f"DIFFERENT from {tmp_path / SMALL} " in lines[0] and "first difference at line " in lines[0]
    assert lines[-1].endswith(f"differ or failed: {SMALL}")


def test_a_tree_without_a_command_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shutil.copy(trees_dir() / SMALL, tmp_path / "mastermind-4x6-mine.json")
    code, lines, err = run(capsys, "--trees", str(tmp_path))
    assert (code, lines) == (2, [])
    assert err == f"Error: {tmp_path}/mastermind-4x6-mine.json has no build command in scripts/rebuild_trees.py's REBUILDS\n"
    code, _, err = run(capsys, "--trees", str(tmp_path / "none"))
    assert code == 2 and err == f"Error: {tmp_path / 'none'} is not a folder\n"


def test_unknown_or_absent_names_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "--trees", str(tmp_path), "mine.json")
    assert code == 2 and err.startswith("Error: unknown tree 'mine.json': REBUILDS lists bulls-cows-4x10-worst-case.json, ")
    code, _, err = run(capsys, "--trees", str(tmp_path), SMALL)
    assert code == 2 and err == f"Error: {tmp_path / SMALL} does not exist\n"


def test_list_prints_every_command(capsys: pytest.CaptureFixture[str]) -> None:
    code, lines, _ = run(capsys, "--list")
    assert code == 0 and len(lines) == len(rebuild_trees.REBUILDS)
    assert lines[0].split() == ["fast", "2.5", "s", "bactree", "build", "-o", "trees/bulls-cows-4x10-worst-case.json"]
    assert sum(line.startswith("slow ") for line in lines) == sum(not entry.fast for entry in rebuild_trees.REBUILDS) > 0


def test_a_listed_tree_missing_from_trees_is_refused(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """trees/ must hold every listed file (a copy folder may hold a few, as above)."""
    monkeypatch.setattr(rebuild_trees, "TREES", tmp_path.resolve())
    shutil.copy(trees_dir() / SMALL, tmp_path / SMALL)
    code, _, err = run(capsys, "--trees", str(tmp_path))
    assert code == 2
    assert err == f"Error: {tmp_path.resolve()}/bulls-cows-4x10-worst-case.json, listed in REBUILDS, does not exist\n"


def test_files_of_runs_are_copied_never_written_and_from_scratch_not_read(tmp_path: Path) -> None:
    """A rebuild saves its refutations into a copy of the runs/ file; from scratch it starts a new file and drops
    `--exact-from`, so no proof comes from runs/."""
    entry = rebuild_trees.BY_FILE["mastermind-5x8-worst-case.json"]
    source = "runs/mastermind-5x8-height6.refutations.json"
    assert source in shlex.split(entry.options)
    copied = entry.inputs_moved(tmp_path, from_scratch=False)
    assert str(tmp_path / "mastermind-5x8-height6.refutations.json") in copied and source not in copied
    assert (tmp_path / "mastermind-5x8-height6.refutations.json").read_bytes() == (
        rebuild_trees.TREES.parent / source).read_bytes()
    (tmp_path / "mastermind-5x8-height6.refutations.json").unlink()
    fresh = entry.inputs_moved(tmp_path, from_scratch=True)
    assert fresh == copied and not any(tmp_path.iterdir())
    expected = rebuild_trees.BY_FILE["bulls-cows-5x10-expected.json"]
    assert "--exact-from" in expected.options and "--exact-from" not in expected.inputs_moved(tmp_path, True)
    assert not any(token.startswith("runs/") for token in expected.inputs_moved(tmp_path, True))


def test_from_scratch_rebuilds_an_optimal_tree_and_skips_one_not_proven(tmp_path: Path, capsys) -> None:
    shutil.copy(trees_dir() / SMALL, tmp_path / SMALL)
    shutil.copy(trees_dir() / "mastermind-5x8-expected.json", tmp_path / "mastermind-5x8-expected.json")
    code, lines, _ = run(capsys, "--trees", str(tmp_path), "--from-scratch", SMALL, "mastermind-5x8-expected.json")
    assert code == 0 and lines[0].startswith(SMALL) and lines[0].endswith(" bytes  identical")
    assert lines[1] == f"{'mastermind-5x8-expected.json':38} skipped: not optimal, nothing to re-prove"


def test_from_scratch_takes_another_tree_of_the_claimed_total_as_re_proved(tmp_path: Path, capsys) -> None:
    """From scratch a build may prove the file's least total at other bytes (here: a node count changed by hand, the
    total kept): `re-proved`, exit 0; the ordinary rebuild calls it different, and a changed total fails both."""
    text = (trees_dir() / SMALL).read_text()
    nodes = re.search(r'"nodes": (\d+)', text)
    assert nodes is not None and text.count(nodes.group(0)) == 1
    (tmp_path / SMALL).write_text(text.replace(nodes.group(0), f'"nodes": {int(nodes.group(1)) + 1}'))
    code, lines, _ = run(capsys, "--trees", str(tmp_path), "--from-scratch", SMALL)
    assert code == 0 and "  re-proved: total_guesses 5625 optimal, at another tree (first difference at line " in lines[0]
    assert lines[-1].startswith("1 of 1 rebuilt identical or re-proved in ")
    code, lines, _ = run(capsys, "--trees", str(tmp_path), SMALL)
    assert code == 1 and f"DIFFERENT from {tmp_path / SMALL} " in lines[0]
    (tmp_path / SMALL).write_text(text.replace('"total_guesses": 5625', '"total_guesses": 5624'))
    code, lines, _ = run(capsys, "--trees", str(tmp_path), "--from-scratch", SMALL)
    assert code == 1 and f"DIFFERENT from {tmp_path / SMALL} " in lines[0]


def test_from_scratch_runs_the_entry_s_own_options_where_it_has_them(tmp_path: Path) -> None:
    """The 5 of 10 worst case's budget finds the shipped tree only with its runs/ file: from scratch, no budget."""
    entry = rebuild_trees.BY_FILE["bulls-cows-5x10-worst-case.json"]
    assert "--budget" in entry.options
    assert entry.inputs_moved(tmp_path, from_scratch=True) == ["-n", "5", "--tie-break", "none", "-j", "1"]
    assert "--budget" in entry.inputs_moved(tmp_path, from_scratch=False)
