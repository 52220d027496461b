"""MkDocs hook: the CLI reference is each command's own `--help`, rendered at build time.

`docs/cli.md` holds a marker that this hook replaces with the help of
`bactree` and of every command, read from the typer app itself, so the
reference cannot drift from the commands and picks up new ones unaided
(as sqlite-utils does with cog, without a generated file to keep in step).
`tests/test_docs.py` checks that the result names every command and option.
"""

from __future__ import annotations

from typing import Any, Iterator

import typer.main
from typer.testing import CliRunner

MARKER = "<!-- cli-reference -->"
WIDTH = 100  # columns of the rendered help: wide enough that option names are never wrapped


def command_paths(group: Any, prefix: tuple[str, ...] = ()) -> Iterator[tuple[tuple[str, ...], Any]]:
    """Every visible command under the click group `group`, as its words after `bactree`, in the order `--help` lists them.

    Groups are told by their `commands` (typer may carry its own copy of
    click, so `isinstance` against the installed click would not do).
    """
    for name, command in group.commands.items():
        if command.hidden:
            continue
        yield prefix + (name,), command
        if hasattr(command, "commands"):
            yield from command_paths(command, prefix + (name,))


def root_command() -> Any:
    """The click group behind `bactree`."""
    from bactree.cli.main import app

    return typer.main.get_command(app)


def help_text(path: tuple[str, ...]) -> str:
    """`bactree PATH --help` as a terminal WIDTH columns wide shows it, trailing spaces dropped."""
    from bactree.cli.main import app

    result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": str(WIDTH)}, terminal_width=WIDTH)
    if result.exit_code != 0:
        raise RuntimeError(f"bactree {' '.join(path)} --help exited {result.exit_code}: {result.output}")
    return "\n".join(line.rstrip() for line in result.output.splitlines()).strip("\n")


def reference_markdown() -> str:
    """The reference: one section per command, its help in a text block."""
    sections = [("bactree",), *(("bactree", *path) for path, _ in command_paths(root_command()))]
    parts = []
    for words in sections:
        parts += [f"## `{' '.join(words)}`", "", "```text", help_text(words[1:]), "```", ""]
    return "\n".join(parts)


def on_page_markdown(markdown: str, **kwargs: Any) -> str:
    """Put the reference in place of the marker (only `cli.md` has one)."""
    return markdown.replace(MARKER, reference_markdown()) if MARKER in markdown else markdown
