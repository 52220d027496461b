"""The examples of the README and of every page under docs/ are real: each is run here.

Three kinds of block are run, found by their fence:

- ```console: one or more `$ bactree ...` commands, each followed by what it
  prints. Each command runs in-process in a fresh folder; when it prompts,
  the typed line is read back from the page (the next line that starts with
  the prompt), and the whole transcript must match, with timings such as
  `1.8s` masked (they differ from run to run).
- ```pycon: a doctest.
- ```python: executed; it must not raise.

A block that a dedicated test checks more closely is preceded by
`<!-- checked by tests/FILE.py -->`, and one that cannot run here (it is
slow, or writes into the checkout) by `<!-- not run: REASON -->`; the named
test file must exist and name the page. ```sh blocks are commands to copy,
not sessions, and are not run (CI runs the README's first one).
"""

from __future__ import annotations

import doctest
import re
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bactree.cli.main import app

REPO = Path(__file__).resolve().parent.parent
PAGES = [REPO / "README.md", *sorted((REPO / "docs").rglob("*.md"))]
FENCE = re.compile(r"^(?P<indent>[ \t]*)```(?P<kind>\w+)[ \t]*\n(?P<body>.*?)^(?P=indent)```[ \t]*$", re.M | re.S)
MARK = re.compile(r"<!-- (checked by (?P<test>tests/[\w/]+\.py)[^>]*|not run: [^>]+) -->\s*$")
RUN = ("console", "pycon", "python")


@dataclass(frozen=True)
class Block:
    """One fenced example: its page, line, kind, text, and the comment before it, if any."""

    page: Path
    line: int
    kind: str
    body: str
    mark: re.Match[str] | None

    @property
    def name(self) -> str:
        return f"{self.page.relative_to(REPO)}:{self.line}"


def blocks(page: Path) -> list[Block]:
    """Every fenced block of `page` with the comment on the last non-blank line before it."""
    text = page.read_text()
    found = []
    for match in FENCE.finditer(text):
        before = text[: match.start()].rstrip().rsplit("\n", 1)[-1]
        indent = match.group("indent")
        body = "".join(line.removeprefix(indent) for line in match.group("body").splitlines(keepends=True))
        found.append(Block(page, text.count("\n", 0, match.start()) + 1, match.group("kind"), body, MARK.search(before)))
    return found


ALL = [block for page in PAGES for block in blocks(page)]
RUNNABLE = [block for block in ALL if block.kind in RUN and block.mark is None]


def by_kind(kind: str) -> list[Block]:
    return [block for block in RUNNABLE if block.kind == kind]


def mask_times(text: str) -> str:
    """Timings (`[    1.2s]`, `1.8s`) replaced by `T`: they differ from run to run."""
    return re.sub(r"\d+\.\d+s\b", "T", re.sub(r"\[\s*\d+\.\d+s\]", "[T]", text))


def sessions(body: str) -> list[tuple[list[str], str]]:
    """(arguments after `bactree`, transcript) of each `$ bactree ...` command of a console block."""
    found = []
    for chunk in re.split(r"^\$ ", body, flags=re.M)[1:]:
        command, _, transcript = chunk.partition("\n")
        args = shlex.split(command)
        assert args[0] == "bactree", f"a console block runs bactree commands only: {command!r}"
        found.append((args[1:], transcript))
    return found


def test_examples_are_found_and_marked_properly() -> None:
    kinds = {block.kind for block in RUNNABLE}
    assert {"console", "pycon"} <= kinds, kinds
    assert sum(len(sessions(block.body)) for block in by_kind("console")) >= 10
    for block in ALL:
        if block.mark is not None and block.mark.group("test"):
            test = REPO / block.mark.group("test")
            assert test.is_file(), f"{block.name} names a missing test {test}"
            assert block.page.name in test.read_text(), f"{test.name} does not read {block.page.name} ({block.name})"


@pytest.mark.parametrize("block", by_kind("console"), ids=lambda block: block.name)
def test_console_session(block: Block, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setattr("bactree.search.cost.search.REPORT_SECONDS", float("inf"))  # periodic progress depends on speed
    monkeypatch.chdir(tmp_path)  # the shipped trees are found from anywhere; files written land here
    (tmp_path / "trees").symlink_to(REPO / "trees")  # for commands that name a shipped file
    for args, transcript in sessions(block.body):
        lines = transcript.splitlines()
        cursor = 0

        def typed(prompt: str = "") -> str:
            """The player's line after `prompt`, as the page shows it; the prompt written as `input` writes it
            without a terminal, the line echoed by the command's reader (`bactree.play.line_reader`)."""
            nonlocal cursor
            while cursor < len(lines) and not lines[cursor].startswith(prompt):
                cursor += 1
            if cursor == len(lines):
                raise EOFError
            line = lines[cursor][len(prompt) :]
            cursor += 1
            sys.stdout.write(prompt)
            return line

        monkeypatch.setattr("builtins.input", typed)
        result = CliRunner().invoke(app, args)
        assert mask_times(result.output) == mask_times(transcript), args


@pytest.mark.parametrize("block", by_kind("pycon"), ids=lambda block: block.name)
def test_python_session(block: Block, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    test = doctest.DocTestParser().get_doctest(block.body, {}, block.name, str(block.page), block.line)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert runner.summarize(verbose=False).failed == 0


@pytest.mark.parametrize("block", by_kind("python"), ids=lambda block: block.name)
def test_python_example(block: Block, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.chdir(tmp_path)
    exec(compile(block.body, block.name, "exec"), {"__name__": "__example__"})
