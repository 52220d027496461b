"""The README's terminal sessions of `bactree walk` and `bactree play` are real: each is replayed here.

A session's typed lines are read back from the README itself: when the
command prompts, the next README line must start with that prompt, and the
rest of it is what the player typed. The whole transcript must then match.
"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from bactree.cli import app

README = Path(__file__).resolve().parent.parent / "README.md"


def sessions() -> list[tuple[list[str], str]]:
    """(arguments, transcript) of every console block of the walk and play section."""
    text = README.read_text()
    section = text.split("## Playing and walking trees", 1)[1].split("\n## ", 1)[0]
    found = []
    for block in re.findall(r"```console\n(.*?)```", section, re.S):
        command, transcript = block.split("\n", 1)
        args = shlex.split(command.removeprefix("$ "))
        assert args[0] == "bactree", command
        found.append((args[1:], transcript))
    return found


SESSIONS = sessions()


def test_the_section_has_sessions() -> None:
    assert {args[0] for args, _ in SESSIONS} == {"walk", "play"} and len(SESSIONS) >= 5


@pytest.mark.parametrize("args, transcript", SESSIONS, ids=[" ".join(a) for a, _ in SESSIONS])
def test_readme_session(args: list[str], transcript: str, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    lines = transcript.splitlines()
    cursor = 0

    def typed(prompt: str = "") -> str:
        """The player's line after `prompt`, as the README shows it; echoed like a terminal would."""
        nonlocal cursor
        while cursor < len(lines) and not lines[cursor].startswith(prompt):
            cursor += 1
        if cursor == len(lines):
            raise EOFError
        line = lines[cursor][len(prompt):]
        cursor += 1
        sys.stdout.write(prompt + line + "\n")
        return line

    monkeypatch.setattr("builtins.input", typed)
    monkeypatch.chdir(tmp_path)  # the shipped trees are found from anywhere
    result = CliRunner().invoke(app, args)
    assert result.output == transcript
