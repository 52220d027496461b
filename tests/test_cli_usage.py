"""The command line as a new user meets it (issue 34): mistakes as one line, clean help, one rule for output files."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from bactree.cli.main import app
from test_cli_help import command_paths

runner = CliRunner()
SMALL = ["-n", "2", "--symbols", "0123"]
TREE = str(Path(__file__).parent.parent / "trees" / "mastermind-4x6-worst-case.json")


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["crack", "--random"], "Error: give --length N, the positions in the key (or --secret KEY)"),
        (["compile", "-o", "x.json"], "Error: missing option '--strategy' / '-s'"),
        (["verfy"], "Error: no such command 'verfy'. Did you mean 'verify'?"),
        (["verify"], "Error: missing argument 'files'"),
        (["walk", "--colour"], "Error: no such option: --colour"),
    ],
)
def test_usage_errors_are_one_error_line_and_exit_2(args: list[str], line: str) -> None:
    result = runner.invoke(app, args)
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", line + "\n")


@pytest.mark.parametrize(
    ("args", "start"),
    [
        (["crack", "-n", "x", "--random"], "Error: invalid value for '--length' / '-n': "),
        (["play", "--mode", "duel"], "Error: invalid value for '--mode' / '-m': "),
    ],
)
def test_bad_values_are_one_error_line_naming_the_option(args: list[str], start: str) -> None:
    """The reason after the option's name is typer's (its wording changes between versions)."""
    result = runner.invoke(app, args)
    assert (result.exit_code, result.stdout) == (2, "")
    assert result.stderr.startswith(start) and result.stderr.count("\n") == 1, result.stderr


def test_crack_takes_the_length_from_the_secret() -> None:
    result = runner.invoke(app, ["crack", "--secret", "hello", "-q"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("[hello] solved in ")


def _help(path: tuple[str, ...]) -> str:
    result = runner.invoke(app, [*path, "--help"])
    assert result.exit_code == 0
    return result.stdout


@pytest.mark.parametrize("path", sorted(command_paths(app)), ids=" ".join)
def test_help_shows_no_type_tags_of_typer(path: tuple[str, ...]) -> None:
    """No `<bool>` after a flag (nor after --help), no `{file}` or `<list[...]>` anywhere."""
    text = _help(path)
    for tag in ("<bool>", "{", "<list["):
        assert tag not in text, f"bactree {' '.join(path)} --help shows {tag!r}:\n{text}"


def test_usage_lines_read_like_click() -> None:
    assert "Usage: bactree verify [OPTIONS] FILES..." in _help(("verify",))
    assert "Usage: bactree export [OPTIONS] FILE" in _help(("export",))
    assert "Usage: bactree walk [OPTIONS] [FILE]" in _help(("walk",))


def test_compile_marks_its_required_options() -> None:
    rows = [line for line in _help(("compile",)).splitlines() if line.startswith("│") and ("--strategy" in line or "--output" in line)]
    assert len(rows) == 2 and all("*" in row for row in rows), rows


WRITERS = {
    "html": ["html", TREE],
    "export": ["export", TREE],
    "compile": ["compile", "-s", "knuth", *SMALL],
    "build": ["build", *SMALL, "-q"],
}


SUFFIX = {"html": ".html", "export": ".graphml", "compile": ".json", "build": ".json"}


@pytest.mark.parametrize("name", sorted(WRITERS))
@pytest.mark.parametrize("option", ["--output", "--out", "-o"])
def test_every_writer_takes_out_and_output(name: str, option: str, tmp_path: Path) -> None:
    target = tmp_path / f"written{SUFFIX[name]}"
    result = runner.invoke(app, [*WRITERS[name], option, str(target)])
    assert result.exit_code == 0, result.output
    assert target.stat().st_size > 0


@pytest.mark.parametrize("name", sorted(WRITERS))
def test_every_writer_refuses_a_missing_folder(name: str, tmp_path: Path) -> None:
    """One rule for every file bactree writes: the folder named must exist; none is made."""
    target = tmp_path / "no-such-folder" / f"file{SUFFIX[name]}"
    result = runner.invoke(app, [*WRITERS[name], "-o", str(target)])
    line = f"Error: cannot write {str(target)!r}: folder {str(target.parent)!r} does not exist\n"
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", line)
    assert list(tmp_path.iterdir()) == []


def test_an_evaluation_plot_refuses_a_missing_folder(tmp_path: Path) -> None:
    target = tmp_path / "plots" / "h.png"
    result = runner.invoke(app, ["evaluate", "-s", "knuth", *SMALL, "--plot", str(target)])
    line = f"Error: cannot write {str(target)!r}: folder {str(target.parent)!r} does not exist\n"
    assert (result.exit_code, result.stdout, result.stderr) == (2, "", line)


def test_a_build_makes_its_default_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Only the folder bactree names itself (trees/, when -o is not given) is made."""
    monkeypatch.chdir(tmp_path)
    result = runner.invoke(app, ["build", *SMALL, "-q"])
    assert result.exit_code == 0, result.output
    assert [p.name for p in (tmp_path / "trees").iterdir()] == ["bulls-cows-2x4-worst-case.json"]


@pytest.mark.parametrize("name", sorted(set(WRITERS) - {"build"}))  # build keeps the old file and writes NAME.new.json
def test_every_writer_keeps_a_different_file_unless_forced(name: str, tmp_path: Path) -> None:
    target = tmp_path / f"mine{SUFFIX[name]}"
    target.write_bytes(b"mine\n")
    refused = runner.invoke(app, [*WRITERS[name], "-o", str(target)])
    line = f"Error: {str(target)!r} exists and holds something else: pass --force to replace it\n"
    assert (refused.exit_code, refused.stdout, refused.stderr) == (2, "", line)
    assert target.read_bytes() == b"mine\n"
    assert runner.invoke(app, [*WRITERS[name], "-o", str(target), "--force"]).exit_code == 0
    written = target.read_bytes()
    again = runner.invoke(app, [*WRITERS[name], "-o", str(target)])  # the same bytes again: no harm, no error
    assert again.exit_code == 0 and target.read_bytes() == written != b"mine\n"


def test_a_page_is_never_written_over_its_own_tree(tmp_path: Path) -> None:
    tree = tmp_path / "t.json"
    tree.write_bytes(Path(TREE).read_bytes())
    result = runner.invoke(app, ["html", str(tree), "-o", str(tree)])
    assert result.exit_code == 2 and "exists and holds something else" in result.stderr
    assert tree.read_bytes() == Path(TREE).read_bytes()


@pytest.mark.parametrize("command", ["walk", "build", "play"])
def test_an_unknown_game_lists_every_preset(command: str) -> None:
    result = runner.invoke(app, [command, "--game", "foo"])
    assert (result.exit_code, result.stderr) == (2, "Error: unknown game 'foo': choose one of bulls-cows, mastermind, words\n")


def test_a_cap_of_guesses_beyond_the_secrets_is_refused(tmp_path: Path) -> None:
    out = tmp_path / "t.json"
    result = runner.invoke(app, ["build", *SMALL, "--max-guesses", "99999999999999999999", "-o", str(out)])
    line = ("Error: --max-guesses 99999999999999999999 is more than the game's 12 secrets: no tree needs more guesses "
            "than there are secrets (leave it out for no cap)\n")
    assert (result.exit_code, result.stderr) == (2, line)
    assert not out.exists()
    assert runner.invoke(app, ["build", *SMALL, "--max-guesses", "12", "-q", "-o", str(out)]).exit_code == 0


def test_a_game_of_one_code_is_counted_in_the_singular(tmp_path: Path) -> None:
    out = tmp_path / "one.json"
    built = runner.invoke(app, ["build", "-n", "1", "--symbols", "0", "-o", str(out)])
    assert built.exit_code == 0, built.output
    assert "minimising nodes within 1 guess\n" in built.stderr
    assert built.stdout.startswith(f"{out}: height 1, 1 node, total 1, ")
    verified = runner.invoke(app, ["verify", str(out)])
    assert verified.stdout.startswith(f"ok   {out}: 1 secret, max 1, total 1, mean 1.0000, 1 node, ")
    walked = runner.invoke(app, ["walk", "-n", "1", "--symbols", "0123", "--secret", "23"])
    assert (walked.exit_code, walked.stderr) == (2, "Error: invalid code '23': expected 1 symbol, got 2\n")


def test_a_page_of_a_game_with_no_shipped_tree_names_the_build(tmp_path: Path) -> None:
    out = tmp_path / "page.html"
    result = runner.invoke(app, ["html", "-n", "3", "-o", str(out)])
    line = (f"Error: no shipped tree for bulls-cows-3x10 (3 of '0123456789', no repeats): bactree build -n 3 --tie-break "
            f"none -o bulls-cows-3x10.json, then bactree html bulls-cows-3x10.json -o {out}\n")
    assert (result.exit_code, result.stderr) == (2, line)
    assert not out.exists()
