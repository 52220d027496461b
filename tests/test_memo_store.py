"""The cost search's values of sets on disk (`bactree.search.cost.memo_store`): kept, reloaded, merged, refused when bad."""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np
import pytest
from typer.testing import CliRunner

from bactree.pipeline import subproblems
from bactree.pipeline.build import build
from bactree.cli.main import app
from bactree.game import BactreeError, Game
from bactree.search import TOTAL_GUESSES, CostSearch, Solver
from bactree.search.cost import _memo, search as cost, memo_store
from bactree.treefile import dumps

GAME = Game(3, "0123456", False)  # 210 codes: big enough for the Python-level search above the kernel's 30


@pytest.fixture()
def keep_everything(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every set the Python-level search settles is kept (the real threshold is a second of CPU)."""
    monkeypatch.setattr(memo_store, "KEEP_SECONDS", 0.0)


def searched(solver: Solver, keeper_path: Path | None = None) -> CostSearch:
    search = CostSearch(solver, TOTAL_GUESSES)
    if keeper_path is not None:
        search.keeper = memo_store.MemoKeeper(search, keeper_path)
    return search


def test_values_written_and_read_back_give_the_same_value_and_tree_with_less_search(
    tmp_path, keep_everything, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(cost, "KERNEL_MAX_SET", 10)  # more sets searched at the Python levels, so more kept
    solver = Solver(GAME)
    depth = solver.num_codes
    path = tmp_path / "out.json.resume.memo"
    first = searched(solver, path)
    value = first.solve(solver.all_guesses, depth)
    tree = first.tree(solver.all_guesses, depth)
    first.keeper.save()
    entries = memo_store.read_memo(path, GAME, TOTAL_GUESSES.name, False)
    assert entries == memo_store.entries_of(first, first.keeper.keys) and len(entries) > 10
    again = searched(solver)
    memo_store.restore(again, entries)
    assert again.solve(solver.all_guesses, depth) == value
    assert again.tree(solver.all_guesses, depth) == tree
    assert again.nodes_searched < first.nodes_searched


def test_a_refutation_written_and_read_back_is_a_bound_the_next_search_starts_from(tmp_path, keep_everything) -> None:
    """A search below the optimum proves a lower bound only; reloaded, it settles the same question at once."""
    solver = Solver(GAME)
    depth, everything = solver.num_codes, solver.all_guesses
    optimum = searched(solver).solve(everything, depth)
    path = tmp_path / "out.json.resume.memo"
    first = searched(solver, path)
    proven = first.solve(everything, depth, optimum - 3)
    first.keeper.save()
    entries = memo_store.read_memo(path, GAME, TOTAL_GUESSES.name, False)
    assert entries[(everything.tobytes(), depth)] == (proven, -1) and optimum - 3 <= proven <= optimum
    again = searched(solver)
    memo_store.restore(again, entries)
    assert again.memo_bound(everything, depth) == proven
    assert again.solve(everything, depth, optimum - 3) == proven and again.nodes_searched == 0

def test_merging_keeps_an_exact_value_over_a_bound_and_the_higher_bound() -> None:
    a = {(b"x", 3): (10, -1), (b"y", 3): (7, -1), (b"z", 2): (5, 4)}
    b = {(b"x", 3): (12, 9), (b"y", 3): (8, -1), (b"z", 2): (3, -1)}
    assert memo_store.merged(a, b) == {(b"x", 3): (12, 9), (b"y", 3): (8, -1), (b"z", 2): (5, 4)}
    assert memo_store.merged(b, a) == memo_store.merged(a, b)


def rewritten(path: Path, change) -> None:
    """Rewrite the npz at `path` with `change(arrays)` applied (the digest left as it was unless `change` sets it)."""
    with np.load(path) as data:
        arrays = {name: data[name].copy() for name in data.files}
    change(arrays)
    buffer = io.BytesIO()
    np.savez_compressed(buffer, **arrays)
    path.write_bytes(buffer.getvalue())


def _out_of_range(arrays) -> None:
    arrays["sets"][0] = 10_000
    header = arrays["header"].tobytes()
    parts = [arrays[name] for name in ("sets", "offsets", "depths", "values", "guesses")]
    arrays["digest"] = np.frombuffer(memo_store._digest(header, parts).encode(), np.uint8)


CORRUPTIONS = {
    "truncated": (lambda path: path.write_bytes(path.read_bytes()[:100]), "not a bactree memo file"),
    "garbage": (lambda path: path.write_bytes(b"not a zip"), "not a bactree memo file"),
    "array missing": (lambda path: rewritten(path, lambda a: a.pop("values")), "not a bactree memo file"),
    "value edited": (lambda path: rewritten(path, lambda a: a["values"].__setitem__(0, a["values"][0] + 1)),
                     "digest does not match"),
    "set out of the game": (lambda path: rewritten(path, _out_of_range), "sets do not fit the game"),
}


@pytest.mark.parametrize("corruption", list(CORRUPTIONS))
def test_a_damaged_memo_file_is_refused_in_one_line(tmp_path, keep_everything, corruption: str) -> None:
    solver = Solver(GAME)
    path = tmp_path / "out.json.resume.memo"
    search = searched(solver, path)
    search.solve(solver.all_guesses, solver.num_codes)
    search.keeper.save()
    damage, message = CORRUPTIONS[corruption]
    damage(path)
    with pytest.raises(BactreeError, match=message) as caught:
        memo_store.read_memo(path, GAME, TOTAL_GUESSES.name, False)
    assert str(path) in str(caught.value) and "\n" not in str(caught.value)


def test_a_memo_of_another_game_or_mode_is_refused(tmp_path, keep_everything) -> None:
    solver = Solver(GAME)
    path = tmp_path / "out.json.resume.memo"
    search = searched(solver, path)
    search.solve(solver.all_guesses, solver.num_codes)
    search.keeper.save()
    for game, hard in ((Game(3, "0123457", False), False), (GAME, True)):
        with pytest.raises(BactreeError, match="another game, cost or mode"):
            memo_store.read_memo(path, game, TOTAL_GUESSES.name, hard)


def split_build(checkpoint: Path, monkeypatch: pytest.MonkeyPatch, resume: bool, messages: list[str] | None = None):
    monkeypatch.setattr(subproblems, "BRANCH_MIN_SECRETS", 5)
    progress = messages.append if messages is not None else None
    return build(GAME, "expected", workers=2, checkpoint=checkpoint, resume=resume, progress=progress)


def test_a_split_build_keeps_its_workers_values_and_a_resumed_one_starts_from_them(
    tmp_path, monkeypatch, keep_everything
) -> None:
    """Each worker writes its own file; a resumed build merges them into one, reloads it, and gives the same bytes
    with less search (here the resume file is gone, as if the build had been stopped before any part ended)."""
    checkpoint = tmp_path / "out.json.resume"
    first = split_build(checkpoint, monkeypatch, resume=False)
    own = [path for path in memo_store.memo_files(checkpoint) if path.name != checkpoint.name + ".memo"]
    assert own, "no worker wrote its values"
    checkpoint.unlink()
    messages: list[str] = []
    again = split_build(checkpoint, monkeypatch, resume=True, messages=messages)
    assert dumps(again.document) == dumps(first.document)
    assert any("proven values of sets reloaded" in message for message in messages)
    assert again.searched < first.searched
    assert checkpoint.with_name(checkpoint.name + ".memo") in memo_store.memo_files(checkpoint)
    assert not any(path in memo_store.memo_files(checkpoint) for path in own)  # merged, then removed


def test_a_fresh_build_drops_an_old_memo_unread(tmp_path, monkeypatch) -> None:
    checkpoint = tmp_path / "out.json.resume"
    stale = checkpoint.with_name(checkpoint.name + ".memo")
    stale.write_bytes(b"left by another build")
    split_build(checkpoint, monkeypatch, resume=False)  # the stale file, read, would be refused
    assert not stale.exists()  # nothing took a second to prove here, so no worker wrote one again


def test_the_command_removes_the_memo_files_with_the_resume_file(tmp_path, monkeypatch, keep_everything) -> None:
    monkeypatch.setattr(subproblems, "BRANCH_MIN_SECRETS", 5)
    output = tmp_path / "tree.json"
    result = CliRunner().invoke(app, ["build", "-n", "3", "--symbols", "0123456", "-O", "expected", "-j", "2",
                                      "--quiet", "-o", str(output)])
    assert result.exit_code == 0, result.output
    assert output.exists()
    assert list(tmp_path.iterdir()) == [output]


def test_a_kept_set_settled_again_is_written_again(tmp_path) -> None:
    """A set kept for a bound and later solved exactly (quickly, from the memo) gets its exact value in the next
    write, though no new set was kept."""
    solver = Solver(GAME)
    path = tmp_path / "memo"
    search = searched(solver, path)
    key = (solver.all_guesses[:40].tobytes(), 5)
    search.lower[key] = 130
    search.keeper.searched(key, started=float("-inf"))  # slow: kept
    search.keeper.save()
    assert memo_store.read_memo(path, GAME, TOTAL_GUESSES.name, False) == {key: (130, -1)}
    search.exact[key] = (134, 7)
    search.keeper.searched(key, started=float("inf"))  # quick this time
    search.keeper.save()
    assert memo_store.read_memo(path, GAME, TOTAL_GUESSES.name, False) == {key: (134, 7)}


def test_a_two_deep_bound_is_kept_too(tmp_path, keep_everything) -> None:
    """The screen's bounds of parts two guesses deep (`deep.deeper_bound`) are what a long exact task spends its time
    on: they are kept and written like searched sets."""
    from bactree.search.cost import deep

    solver = Solver(GAME)
    path = tmp_path / "memo"
    search = searched(solver, path)
    part = max(solver.split(solver.all_guesses, 0), key=len)
    depth, history, need = solver.num_codes - 1, (0,), 10**6  # a bound it cannot reach: the whole search is done
    bound = deep.deeper_bound(search, part, depth, history, need)
    assert bound < need
    search.keeper.save()
    assert memo_store.read_memo(path, GAME, TOTAL_GUESSES.name, False)[(part.tobytes(), depth)] == (bound, -1)


def test_a_capped_memo_forgets_bounds_but_not_values_nor_what_the_file_keeps(
    tmp_path, keep_everything, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Past its caps the search forgets bounds (the kernel's all, its own but the kept ones): the value and tree stay
    those of an uncapped search, and every set the keeper noted still has its value or bound for the file."""
    solver = Solver(Game(3, "01234567", False))  # 336 codes: some sets searched here end as bounds only
    depth = solver.num_codes
    monkeypatch.setattr(cost, "KERNEL_MAX_SET", 10)  # more sets searched at the Python levels, so more bounds there
    plain = searched(solver)
    value, tree = plain.solve(solver.all_guesses, depth), plain.tree(solver.all_guesses, depth)
    monkeypatch.setattr(cost, "MEMO_CHECK_FROM_SETS", 0)
    monkeypatch.setattr(cost, "MEMO_CAP_KERNEL_BOUNDS", 20)
    monkeypatch.setattr(cost, "MEMO_CAP_BOUNDS", 2)
    capped = searched(solver, tmp_path / "out.json.resume.memo")
    assert capped.solve(solver.all_guesses, depth) == value
    assert capped.tree(solver.all_guesses, depth) == tree
    assert capped.kernel_bounds_forgotten > 0  # the kernel's bounds were forgotten at least once
    assert len(capped.lower) < len(plain.lower)
    kept = capped.keeper.keys
    assert any(key not in capped.exact for key in kept)
    assert all(key in capped.exact or key in capped.lower for key in kept)


def test_the_memo_cap_is_counted_after_each_guess_of_a_set_whose_parts_the_kernel_values(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A search that enters the Python levels once (every part of its set within the kernel's reach) still forgets the
    kernel's bounds past their cap: between its guesses, not only when a set begins (an exact 5 of 9 worker spent
    minutes on one such set while the kernel's memo grew by gigabytes)."""
    solver = Solver(Game(3, "01234567", False))
    subset = solver.split(solver.all_guesses, 0)[5]  # 1B1C after 012: 30 codes
    monkeypatch.setattr(cost, "KERNEL_MAX_SET", 29)  # this set at the Python levels, its parts (29 at most) in the kernel
    monkeypatch.setattr(cost, "MEMO_CHECK_FROM_SETS", 0)
    monkeypatch.setattr(cost, "MEMO_CAP_KERNEL_BOUNDS", 5)
    plain = CostSearch(solver, TOTAL_GUESSES)
    plain.memo_caps = False
    value = plain.solve(subset, solver.num_codes, history=(0,))
    search = CostSearch(solver, TOTAL_GUESSES)
    assert search.solve(subset, solver.num_codes, history=(0,)) == value
    assert search.nodes_searched == 1
    assert search.kernel_bounds_forgotten > 0


def test_after_the_kernel_bounds_are_forgotten_the_kernels_fill_the_table_the_cap_counts(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The kernels reach the memo table through the search's context (`_context`): the cap must empty the table the
    context holds, or the kernels would fill a table the cap no longer counts."""
    solver = Solver(Game(3, "01234567", False))
    search = CostSearch(solver, TOTAL_GUESSES)
    monkeypatch.setattr(cost, "MEMO_CAP_KERNEL_BOUNDS", -1)
    search._cap_memo()  # the kernel's bounds dropped (none yet)
    monkeypatch.setattr(cost, "MEMO_CAP_KERNEL_BOUNDS", 10**9)
    search.solve(solver.all_guesses, solver.num_codes)
    assert _memo._memo_bounds(search.kernel_memo) > 0
    values = _memo._memo_size(search.kernel_memo) - _memo._memo_bounds(search.kernel_memo)
    monkeypatch.setattr(cost, "MEMO_CAP_KERNEL_BOUNDS", 0)
    search._cap_memo()
    assert _memo._memo_bounds(search.kernel_memo) == 0
    assert _memo._memo_size(search.kernel_memo) == values  # the values stay


def test_a_memo_of_other_search_code_is_not_loaded_and_proves_nothing(tmp_path, monkeypatch, keep_everything) -> None:
    """Values written under other search code (here forged: each 3 below what was proven) are not read: the resumed
    build searches again and writes what a fresh build writes, and says so in one line."""
    checkpoint = tmp_path / "out.json.resume"
    first = split_build(checkpoint, monkeypatch, resume=False)
    own = [path for path in memo_store.memo_files(checkpoint) if path.name != checkpoint.name + ".memo"]
    entries = memo_store.merged(*(memo_store.read_memo(path, GAME, TOTAL_GUESSES.name, False) for path in own))
    assert entries
    for path in own:
        path.unlink()
    checkpoint.unlink()
    base = checkpoint.with_name(checkpoint.name + ".memo")
    with monkeypatch.context() as other:
        other.setattr(memo_store, "search_code", lambda: "0" * 32)
        memo_store.write_memo(base, GAME, TOTAL_GUESSES.name, False, {k: (v - 3, g) for k, (v, g) in entries.items()})
    assert memo_store.read_memo(base, GAME, TOTAL_GUESSES.name, False) is None
    messages: list[str] = []
    again = split_build(checkpoint, monkeypatch, resume=True, messages=messages)
    assert dumps(again.document) == dumps(first.document)
    assert ("1 memo file(s) beside out.json.resume were made by other search code: not loaded, their sets are "
            "searched again") in messages
    assert not any("proven values of sets reloaded" in message for message in messages)
