"""Every CLI command, including ones added later, has working help ending with an example.

The commands are found from `app.registered_commands` (and the commands of
any sub-app in `app.registered_groups`), so a new command is checked
without touching this file.
"""

from __future__ import annotations

import inspect
import re

import pytest
import typer
from typer.main import get_command_name
from typer.testing import CliRunner

from bactree.cli.main import app

runner = CliRunner()


def command_paths(tree: typer.Typer, prefix: tuple[str, ...] = ()) -> dict[tuple[str, ...], str]:
    """Every command of `tree` as its words after `bactree`, with its help text."""
    found: dict[tuple[str, ...], str] = {}
    for info in tree.registered_commands:
        if info.hidden:
            continue
        callback = info.callback
        assert callback is not None
        name = info.name or get_command_name(callback.__name__)
        found[prefix + (name,)] = inspect.cleandoc(info.help or callback.__doc__ or "")
    for group in tree.registered_groups:
        sub = group.typer_instance
        assert sub is not None
        name = group.name or sub.info.name
        assert isinstance(name, str), f"sub-app without a name under {prefix}"
        found.update(command_paths(sub, prefix + (name,)))
    return found


def _squash(text: str) -> str:
    """Help text with rich's box drawing and line wrapping taken out."""
    return " ".join(re.sub(r"[│╭╮╰╯─]", " ", text).split())


def help_problems(tree: typer.Typer, path: tuple[str, ...], doc: str) -> list[str]:
    """What is wrong with one command's help; empty when it is fine."""
    problems = []
    lines = [line for line in doc.splitlines() if line.strip()]
    if not lines:
        return [f"{' '.join(path)}: no docstring"]
    example = lines[-1].strip()
    if not example.startswith(f"Example: bactree {' '.join(path)}"):
        problems.append(f"{' '.join(path)}: help does not end with 'Example: bactree {' '.join(path)} ...': {example!r}")
    result = runner.invoke(tree, [*path, "--help"])
    if result.exit_code != 0:
        return problems + [f"{' '.join(path)} --help exits {result.exit_code}: {result.output}"]
    # The description is what comes before the first panel or section of options.
    description = re.split(r"\n\s*(?:╭|Arguments:|Options:)", result.stdout, maxsplit=1)[0]
    if not _squash(description).endswith(_squash(example)):
        problems.append(f"{' '.join(path)} --help: the description does not end with {example!r}")
    return problems


COMMANDS = command_paths(app)


def test_there_are_commands() -> None:
    """Guards the parametrised test below against finding nothing to check."""
    assert ("verify",) in COMMANDS and ("export",) in COMMANDS


@pytest.mark.parametrize("path", list(COMMANDS), ids=[" ".join(p) for p in COMMANDS])
def test_command_help_ends_with_an_example(path: tuple[str, ...]) -> None:
    assert help_problems(app, path, COMMANDS[path]) == []


def test_top_level_help_lists_every_command() -> None:
    result = runner.invoke(app, ["--help"])
    assert result.exit_code == 0
    for path in COMMANDS:
        assert re.search(rf"\b{re.escape(path[0])}\b", result.stdout), path[0]


def test_the_checker_catches_a_missing_example() -> None:
    """The check itself fails on commands without an example or with a wrong one."""
    demo = typer.Typer(add_completion=False)

    @demo.command()
    def good() -> None:
        """Do a thing.

        Example: bactree good
        """

    @demo.command()
    def bare() -> None:
        """Do a thing, without an example."""

    @demo.command("wrong-name")
    def wrong_name() -> None:
        """Do a thing.

        Example: bactree other
        """

    found = command_paths(demo)
    assert set(found) == {("good",), ("bare",), ("wrong-name",)}
    assert help_problems(demo, ("good",), found[("good",)]) == []
    assert help_problems(demo, ("bare",), found[("bare",)])
    assert help_problems(demo, ("wrong-name",), found[("wrong-name",)])
