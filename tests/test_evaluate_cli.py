"""`bactree evaluate` and `bactree compile` through typer's CliRunner."""

from __future__ import annotations

import sys
from pathlib import Path

import orjson
import pytest
from typer.testing import CliRunner

from bactree.cli.main import app
from bactree.evaluate import DEFAULT_MAX_GUESSES, DEFAULT_MAX_NODES

runner = CliRunner()
SMALL = ["--length", "2", "--symbols", "0123", "--repeats"]  # Mastermind 2x4: 16 codes
FIELDS = {"name", "plays", "total_guesses", "max_guesses", "mean_guesses", "histogram", "failures", "seconds", "optimal"}


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_evaluate_prints_the_figures() -> None:
    code, out, _ = run("evaluate", "--strategy", "first-consistent", *SMALL)
    assert code == 0
    assert out.splitlines()[0] == "first-consistent on 2 of '0123', repeats: 16 games"
    assert out.splitlines()[1].startswith("mean ")
    assert out.splitlines()[2].startswith("histogram: 1:1 ")


def test_evaluate_json_has_the_documented_fields() -> None:
    code, out, _ = run("evaluate", "-s", "knuth", *SMALL, "--json")
    assert code == 0
    data = orjson.loads(out)
    assert set(data) == FIELDS
    assert data["name"] == "knuth" and data["failures"] == 0 and data["plays"] == 16
    assert sum(data["histogram"].values()) == 16
    assert data["total_guesses"] == sum(int(k) * v for k, v in data["histogram"].items())
    assert data["mean_guesses"] == data["total_guesses"] / 16
    assert data["max_guesses"] == max(int(k) for k in data["histogram"])


def test_evaluate_runs_random_strategies_several_times() -> None:
    code, out, _ = run("evaluate", "-s", "random", *SMALL, "--runs", "3", "--max-guesses", "4", "--json")
    assert code == 0
    data = orjson.loads(out)
    assert data["plays"] == 48
    assert data["failures"] + sum(data["histogram"].values()) == 48
    assert max(int(k) for k in data["histogram"]) <= 4


def test_evaluate_all_is_a_table_best_last_with_tree_files(tmp_path: Path) -> None:
    trees = tmp_path / "trees"
    trees.mkdir()
    assert run("compile", "-s", "entropy", *SMALL, "-o", str(trees / "entropy-2x4.json"))[0] == 0
    # A tree of another game and a file that is no tree are left out.
    assert run("compile", "-s", "knuth", "-n", "2", "--symbols", "012", "-o", str(trees / "other.json"))[0] == 0
    (trees / "notes.json").write_text("[]")
    code, out, _ = run("evaluate", "--all", *SMALL, "--trees", str(trees), "--seed", "4")
    assert code == 0
    lines = out.splitlines()
    assert lines[0] == "2 of '0123', repeats; by failures, then mean, best last; proven-optimal trees at the end"
    names = [line.split()[0] for line in lines[2:]]
    assert sorted(names) == sorted(
        ["random", "enumerate", "cows-score", "random-consistent", "first-consistent", "least-frequent",
         "separator", "knuth", "most-parts", "entropy", "expected-size", "tree:entropy-2x4"]
    )
    means = [float(line.split()[2]) for line in lines[2:] if int(line.split()[5]) == 0]
    assert means == sorted(means, reverse=True)

    code, out, _ = run("evaluate", "--all", *SMALL, "--trees", str(trees), "--json")
    data = orjson.loads(out)
    assert isinstance(data, list) and len(data) == 12
    assert all(set(item) == FIELDS for item in data)
    tree = next(item for item in data if item["name"] == "tree:entropy-2x4")
    entropy = next(item for item in data if item["name"] == "entropy")
    assert tree["histogram"] == entropy["histogram"]


def test_compile_writes_a_verified_tree_byte_identical_on_rebuild(tmp_path: Path) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    code, out, _ = run("compile", "--strategy", "knuth", *SMALL, "-o", str(first))
    assert code == 0 and out.startswith(f"wrote {first}: 16 secrets")
    assert run("compile", "--strategy", "knuth", *SMALL, "-o", str(second))[0] == 0
    assert first.read_bytes() == second.read_bytes()
    code, out, _ = run("verify", str(first))
    assert code == 0 and "not proven optimal" in out
    doc = orjson.loads(first.read_bytes())
    assert doc["optimal"] is False and doc["objective"]["name"] == "knuth"


def test_a_tree_file_plays_as_a_strategy(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    run("compile", "-s", "most-parts", *SMALL, "-o", str(path))
    by_file = orjson.loads(run("evaluate", "-s", str(path), *SMALL, "--json")[1])
    by_prefix = orjson.loads(run("evaluate", "-s", f"tree:{path}", *SMALL, "--json")[1])
    direct = orjson.loads(run("evaluate", "-s", "most-parts", *SMALL, "--json")[1])
    assert by_file["histogram"] == by_prefix["histogram"] == direct["histogram"]
    assert by_file["name"] == "tree:t"


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["evaluate", "-s", "nope"], "Error: unknown strategy 'nope': choose one of random, enumerate,"),
        (["evaluate", "-s", "knuth", "--game", "chess"], "Error: unknown game 'chess': choose one of"),
        (["evaluate", "-s", "knuth", "--length", "5", "--symbols", "0123"], "Error: invalid game: 5 positions"),
        (["evaluate", *SMALL], "Error: give --strategy NAME (or several), or --all"),
        (["evaluate", "-s", "random", *SMALL, "--runs", "0"], "Error: invalid runs 0: must be at least 1"),
        (["evaluate", "-s", "random", *SMALL, "--max-guesses", "0"], "Error: invalid max guesses 0"),
        (["evaluate", "-s", "tree:missing.json", *SMALL], "Error: no tree file or shipped tree named 'missing.json': bactree trees lists"),
        (["evaluate", "-s", "tree:no/missing.json", *SMALL], "Error: no/missing.json: cannot read"),
        (["evaluate", "--all", *SMALL, "--trees", "no-such-folder"], "Error: --trees 'no-such-folder' is not a folder"),
        (["evaluate", "-s", "knuth", *SMALL, "--trees", "."], "Error: --trees is for --all"),
        (["compile", "-s", "random", *SMALL, "-o", "x.json"], "Error: strategy 'random' is randomised"),
        (["compile", "-s", "knuth", *SMALL], "Error: missing option '--output' / '-o'"),
        (["compile", "-s", "enumerate", *SMALL, "-o", "x.json", "--max-nodes", "5"], "Error: the tree of 'enumerate' has more than 5 nodes"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], message: str) -> None:
    code, out, err = run(*args)
    assert code == 2
    assert out == ""
    assert err.startswith(message) and err.count("\n") == 1


def test_a_tree_of_another_game_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "t.json"
    run("compile", "-s", "knuth", *SMALL, "-o", str(path))
    code, _, err = run("evaluate", "-s", str(path), "-n", "2", "--symbols", "012", "--repeats")
    assert code == 2
    assert err == f"Error: tree file {str(path)!r} is for 2 of '0123', repeats, not 2 of '012', repeats\n"


MATPLOTLIB = "matplotlib comes with the test extra: pip install -e '.[test]'"


def test_plot_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib", reason=MATPLOTLIB)
    path = tmp_path / "h.png"
    code, _, err = run("evaluate", "-s", "knuth", "-s", "random", *SMALL, "--plot", str(path))
    assert (code, err) == (0, f"wrote {path}\n")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_a_plot_is_not_written_over_a_file_unasked(tmp_path: Path) -> None:
    path = tmp_path / "h.png"
    path.write_bytes(b"mine")
    code, out, err = run("evaluate", "-s", "knuth", *SMALL, "--plot", str(path))
    assert (code, out, err) == (2, "", f"Error: {str(path)!r} exists: pass --force to replace it\n")
    assert path.read_bytes() == b"mine"
    pytest.importorskip("matplotlib", reason=MATPLOTLIB)
    code, _, _ = run("evaluate", "-s", "knuth", *SMALL, "--plot", str(path), "--force")
    assert code == 0 and path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_an_unwritable_plot_is_one_line_and_exit_2() -> None:
    pytest.importorskip("matplotlib", reason=MATPLOTLIB)
    code, out, err = run("evaluate", "-s", "knuth", *SMALL, "--plot", "/dev/null/x.png")
    assert (code, out) == (2, "")
    assert err == "Error: cannot write '/dev/null/x.png': '/dev/null' is not a folder\n"


def test_plot_without_matplotlib_says_how_to_get_it(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # makes `import matplotlib` fail
    code, _, err = run("evaluate", "-s", "knuth", *SMALL, "--plot", str(tmp_path / "h.png"))
    assert code == 2
    assert err == "Error: plotting needs matplotlib: pip install 'bactree[plot]'\n"


def test_help_states_the_library_defaults() -> None:
    assert f"Default {DEFAULT_MAX_GUESSES}." in " ".join(run("evaluate", "--help")[1].split())
    assert f"Default {DEFAULT_MAX_NODES}." in " ".join(run("compile", "--help")[1].split())


def test_a_strategy_named_beside_all_is_not_played_twice(tmp_path: Path) -> None:
    code, out, _ = run("evaluate", "--all", "-s", "knuth", *SMALL, "--trees", str(tmp_path), "--json")
    assert code == 0
    assert [item["name"] for item in orjson.loads(out)].count("knuth") == 1


def test_proven_optimal_trees_are_the_last_rows(tmp_path: Path) -> None:
    """A tree marked optimal ranks after every heuristic, even one with a lower mean."""
    trees = tmp_path / "trees"
    trees.mkdir()
    run("compile", "-s", "first-consistent", *SMALL, "-o", str(trees / "marked.json"))
    doc = orjson.loads((trees / "marked.json").read_bytes())
    doc["optimal"] = True  # not true, but only the flag matters for the ranking
    (trees / "marked.json").write_bytes(orjson.dumps(doc))
    data = orjson.loads(run("evaluate", "--all", *SMALL, "--trees", str(trees), "--json")[1])
    assert data[-1]["name"] == "tree:marked" and data[-1]["optimal"] is True
    assert not any(item["optimal"] for item in data[:-1])
    assert min(item["mean_guesses"] for item in data) < data[-1]["mean_guesses"]
