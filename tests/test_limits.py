"""Size limits: a declared game too large for the work asked is refused at once, from arithmetic alone.

Every reader (walker, verify, walk, export, play, evaluate) and every command
taking game options (build, evaluate, compile, play) is tried with a game far
past its limit; each must answer with one `Error:` line (or `FAIL` for verify)
and never start listing codes, so these tests take milliseconds.
"""

from __future__ import annotations

import math
import os
from pathlib import Path
from typing import Any

import orjson
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from bactree import treefile
from bactree.cli.main import app
from bactree.game import BUILD_LIMIT, READ_LIMIT, Game, GameTooLargeError
from bactree.treefile import TreeFormatError, check_node_count, read_document
from bactree.walker import load_tree

runner = CliRunner()
HUGE = ["-n", "12", "--symbols", "0123456789", "--repeats"]  # 10**12 codes


def header_only(length: int, symbols: str, repeats: bool, root: Any = None) -> dict[str, Any]:
    """A document that declares a game and holds a one-node tree."""
    return {
        "format": "bactree-tree",
        "version": 1,
        "game": {"length": length, "symbols": symbols, "repeats": repeats},
        "objective": {"name": "x"},
        "optimal": False,
        "stats": {"secrets": 1, "max_guesses": 1, "total_guesses": 1, "mean_guesses": 1, "nodes": 1, "histogram": {}},
        "root": root or {"guess": symbols[0] * length if repeats else symbols[:length]},
    }


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@settings(max_examples=200, deadline=None)
@given(st.integers(1, 6), st.integers(1, 7), st.booleans())
def test_the_code_count_is_the_number_of_codes_listed(length: int, symbols: int, repeats: bool) -> None:
    if not repeats and length > symbols:
        return
    game = Game(length, "abcdefg"[:symbols], repeats)
    assert game.num_codes == len(game.codes)


@pytest.mark.parametrize(
    ("game", "message"),
    [
        (Game(12, "0123456789", True), "12 of '0123456789', repeats has 1,000,000,000,000 codes (at most 2,000,000)"),
        (Game(40, "".join(map(chr, range(65, 117))), False), "has about 1.7e+59 codes (at most 2,000,000)"),
        (Game(10**9, "01", True), "1000000000 positions (at most 64)"),
        (Game(10**9, "0", True), "1000000000 positions (at most 64)"),
    ],
)
def test_reading_refuses_huge_games_by_arithmetic(game: Game, message: str) -> None:
    with pytest.raises(GameTooLargeError, match="game too large for reading or playing: ") as info:
        game.check_size(READ_LIMIT)
    assert str(info.value).endswith(message)
    with pytest.raises(GameTooLargeError):
        game.codes  # the listing itself is guarded


def test_build_limit_admits_five_of_ten_and_mastermind_five_by_eight() -> None:
    Game(5, "0123456789", False).check_size(BUILD_LIMIT)  # 30240 codes
    Game(5, "12345678", True).check_size(BUILD_LIMIT)  # 32768 codes
    with pytest.raises(GameTooLargeError, match=r"has 161,051 codes \(at most 50,000\)"):
        Game(5, "0123456789a", True).check_size(BUILD_LIMIT)
    with pytest.raises(GameTooLargeError, match=r"10 positions \(at most 9\)"):
        Game(10, "01", True).check_size(BUILD_LIMIT)  # 1024 codes, but 10! permutations of positions
    with pytest.raises(GameTooLargeError, match=r"300 symbols \(at most 256\)"):
        Game(1, "".join(map(chr, range(300, 600))), False).check_size(BUILD_LIMIT)


def test_a_long_alphabet_is_checked_in_linear_time() -> None:
    symbols = "".join(map(chr, range(0x4E00, 0x4E00 + 20_000)))  # 20000 distinct symbols: quadratic would take minutes
    with pytest.raises(Exception, match="symbol '一' appears twice"):
        Game(2, symbols + symbols[0], False)
    assert Game(2, symbols, False).num_codes == 20_000 * 19_999


@pytest.mark.parametrize(
    "args",
    [
        ["build", *HUGE],
        ["build", "-n", "5", "--symbols", "0123456789abcdef", "--repeats", "--objective", "expected"],
        ["build", "-n", "10", "--symbols", "01", "--repeats"],
        ["evaluate", "-s", "knuth", "-n", "6"],
        ["evaluate", "--all", *HUGE],
        ["compile", "-s", "knuth", "-n", "6", "-o", "never.json"],
        ["play", *HUGE],
        ["play", "--mode", "referee", *HUGE],
        ["play", "--mode", "versus", *HUGE],
    ],
)
def test_commands_refuse_huge_game_options_in_one_line(monkeypatch: pytest.MonkeyPatch, args: list[str], tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run(*args)
    assert code == 2 and out == ""
    assert err.startswith("Error: game too large for ") and err.count("\n") == 1
    assert not (tmp_path / "never.json").exists() and not (tmp_path / "trees").exists()


@pytest.fixture
def huge_header(tmp_path: Path) -> Path:
    path = tmp_path / "huge.json"
    path.write_bytes(orjson.dumps(header_only(12, "0123456789", True)))
    return path


@pytest.fixture
def lying_header(tmp_path: Path) -> Path:
    """Within the read limit (10**6 codes) but a one-node tree: refused by counting, before any listing."""
    path = tmp_path / "lying.json"
    path.write_bytes(orjson.dumps(header_only(6, "0123456789", True)))
    return path


READERS = [
    ["verify"],
    ["walk"],
    ["walk", "--secret", "000000000000"],
    ["export", "-o", "x.graphml"],
    ["play", "--mode", "versus", "--tree"],
    ["evaluate", "--strategy"],
]


@pytest.mark.parametrize("reader", READERS, ids=" ".join)
@pytest.mark.parametrize(
    ("fixture", "message"),
    [("huge_header", "game too large for reading or playing"), ("lying_header", "the tree has 1 node(s) but its game has 1,000,000 secrets")],
)
def test_every_reader_refuses_a_header_it_cannot_afford(
    monkeypatch: pytest.MonkeyPatch, reader: list[str], fixture: str, message: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    monkeypatch.chdir(tmp_path)
    path = request.getfixturevalue(fixture)
    code, out, err = run(*reader, str(path))
    text = err if reader[0] != "verify" else err + out
    if reader[0] == "evaluate":  # evaluate plays the options' game (4 of 10); it names the mismatch or the size
        assert code == 2 and (message in text or "is for" in text)
        return
    assert code == (1 if reader[0] == "verify" else 2)
    assert message in text and text.count("\n") == 1
    assert not (tmp_path / "x.graphml").exists()


def test_the_walker_refuses_both(huge_header: Path, lying_header: Path) -> None:
    with pytest.raises(TreeFormatError, match="game too large"):
        load_tree(huge_header)
    with pytest.raises(TreeFormatError, match="1 node"):
        load_tree(lying_header)


def test_node_count_stops_at_the_number_of_codes() -> None:
    game = Game(6, "0123456789", True)
    chain: dict[str, Any] = {"guess": "000000"}
    for _ in range(50):
        chain = {"guess": "000000", "next": {"0B0C": chain}}
    with pytest.raises(TreeFormatError, match="51 node"):
        check_node_count(game, chain)


def test_special_files_are_refused_without_reading(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)  # opening it would block until a writer came
    for path in (fifo, Path("/dev/zero"), tmp_path):
        with pytest.raises(TreeFormatError, match="not a regular file"):
            read_document(path)


def test_oversized_files_are_refused_before_parsing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(treefile, "MAX_FILE_BYTES", 100)
    path = tmp_path / "big.json"
    path.write_bytes(b" " * 101)
    with pytest.raises(TreeFormatError, match="101 bytes, more than the 100 a tree file may have"):
        read_document(path)
    code, _, err = run("walk", str(path))
    assert code == 2 and err.count("\n") == 1


def test_the_read_limit_covers_the_file_cap() -> None:
    """A tree has a node per code, each at least `{"guess":"..."}`: the file cap is no tighter than the code cap."""
    smallest_node = len('{"guess":""},') + 1
    assert READ_LIMIT.codes * smallest_node < treefile.MAX_FILE_BYTES
    assert math.perm(10, 5) <= BUILD_LIMIT.codes <= READ_LIMIT.codes


@pytest.mark.parametrize(
    ("option", "message"),
    [(["--workers", "-3"], "--workers must be at least 1, got -3"), (["--budget", "-5"], "--budget must be at least 0, got -5")],
)
def test_build_refuses_nonsense_counts_in_one_line(option: list[str], message: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    code, out, err = run("build", "-n", "3", "--symbols", "012345", "--objective", "expected", *option)
    assert (code, out, err) == (2, "", f"Error: {message}\n")
