"""The documentation's own checks: the CLI reference names every command and option, pages stay short, and the
tables of shipped trees say what the files hold.

The reference (docs/cli.md) is rendered when the site is built, by the
hook docs/_hooks/cli_reference.py; here the same rendering is checked
against the commands and options listed from the app itself, so a command
or option missing from it (hidden, cut off by the terminal width, a command
the hook does not reach) fails. `mkdocs build --strict` (CI: .ci/docs)
checks the links; tests/test_readme_sessions.py runs the examples.
"""

from __future__ import annotations

import importlib.util
import re
from pathlib import Path

import orjson
import pytest
import typer.main

from bactree.cli.main import app

REPO = Path(__file__).resolve().parent.parent
DOCS = REPO / "docs"


def load_hook():
    spec = importlib.util.spec_from_file_location("cli_reference", DOCS / "_hooks" / "cli_reference.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def every_command(command=None, words: tuple[str, ...] = ("bactree",)) -> dict[str, list[str]]:
    """Each command line (`bactree build`) with the names the reference must show: options, secondary options, arguments."""
    command = command or typer.main.get_command(app)
    names = []
    for param in command.params:
        if getattr(param, "hidden", False):
            continue
        if param.param_type_name == "argument":
            names.append(param.name)
        else:
            names += [*param.opts, *param.secondary_opts]
    found = {" ".join(words): names}
    for name, sub in getattr(command, "commands", {}).items():
        if not sub.hidden:
            found.update(every_command(sub, (*words, name)))
    return found


@pytest.fixture(scope="module")
def reference() -> dict[str, str]:
    """The rendered reference, one section of text per command line."""
    markdown = load_hook().reference_markdown()
    sections = re.split(r"^## `(bactree[^`]*)`$", markdown, flags=re.M)[1:]
    return dict(zip(sections[0::2], sections[1::2]))


def test_the_reference_has_a_section_per_command(reference: dict[str, str]) -> None:
    commands = every_command()
    assert len(commands) >= 10 and "bactree build" in commands and "bactree crack" in commands
    assert sorted(reference) == sorted(commands)


@pytest.mark.parametrize("command", sorted(every_command()))
def test_the_reference_names_every_option(reference: dict[str, str], command: str) -> None:
    section = reference[command]
    assert f"Usage: {command} " in section
    for name in every_command()[command]:
        assert re.search(rf"(?<![\w-]){re.escape(name)}(?![\w-])", section), f"{command}: {name} is not in the reference"


def test_the_reference_page_is_wired_into_the_site() -> None:
    config = (REPO / "mkdocs.yml").read_text()
    assert "docs/_hooks/cli_reference.py" in config and "cli.md" in config
    assert load_hook().MARKER in (DOCS / "cli.md").read_text()


def test_pages_are_short() -> None:
    """The README stays a page; every docs page but the research notes stays under about 400 lines."""
    assert len((REPO / "README.md").read_text().splitlines()) <= 250
    for page in DOCS.rglob("*.md"):
        if "notes" not in page.relative_to(DOCS).parts:
            assert len(page.read_text().splitlines()) <= 400, page


def test_the_readme_keeps_the_two_set_up_lines_first() -> None:
    """.ci/run executes the lines of the README's first sh block: install and build, install and test."""
    block = re.search(r"^```sh\n(.*?)^```", (REPO / "README.md").read_text(), re.M | re.S)
    assert block and block.group(1).splitlines() == [
        "pip install -e . && bactree build --objective worst-case",
        "pip install -e '.[test]' && pytest",
    ]


def shipped_rows(page: Path) -> dict[str, list[str]]:
    """The rows of a page's table of shipped trees (those whose first cell names a `.json` file), by file name."""
    rows = {}
    for line in page.read_text().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if line.startswith("| `") and cells[0].endswith(".json`"):
            rows[cells[0].strip("`")] = cells
    return rows


@pytest.mark.parametrize("page", [REPO / "README.md", DOCS / "results.md"], ids=lambda page: page.name)
def test_the_tables_of_shipped_trees_say_what_the_files_hold(page: Path) -> None:
    """Every shipped tree has a row, and its max, total, secrets at max, mean, nodes and proof are the file's."""
    rows = shipped_rows(page)
    files = sorted(path.name for path in (REPO / "trees").glob("*.json"))
    assert sorted(rows) == files
    for name in files:
        doc = orjson.loads((REPO / "trees" / name).read_bytes())
        stats = doc["stats"]
        _, _, _, hard, most, total, at_most, mean, nodes, proven = rows[name][:10]
        assert hard == ("yes" if doc["objective"]["hard_mode"] else "no"), name
        assert (int(most), int(total), int(at_most), int(nodes)) == (
            stats["max_guesses"], stats["total_guesses"], stats["histogram"][str(stats["max_guesses"])], stats["nodes"],
        ), name
        assert mean == f"{stats['mean_guesses']:.4f}", name
        assert proven.startswith("yes" if doc["optimal"] else "no"), name
        if not doc["optimal"] and "lower_bound" in stats and "at least" in proven:
            assert f"at least {stats['lower_bound']}" in proven, name


def fence_errors(text: str) -> list[str]:
    """Lines that close a fenced block with text after the fence: Markdown then reads the fence as no fence, and
    the block runs on over the paragraphs below it (a build does not warn). Opening fences may carry a language."""
    errors, open_fence = [], None
    for number, line in enumerate(text.splitlines(), 1):
        fence = re.match(r"\s*(`{3,}|~{3,})(.*)", line)
        if fence is None:
            continue
        marks, rest = fence.groups()
        if open_fence is None:
            open_fence = marks
        elif marks[0] == open_fence[0] and len(marks) >= len(open_fence):
            if rest.strip():
                errors.append(f"line {number}: text after a closing fence: {line.strip()[:60]!r}")
            open_fence = None
    if open_fence is not None:
        errors.append("a fenced block is never closed")
    return errors


def test_the_fence_check_catches_text_after_a_closing_fence() -> None:
    assert fence_errors("```console\n$ bactree\n```\n\nText.\n") == []
    assert fence_errors("```console\n$ bactree\n``` Text.\n") == ["line 3: text after a closing fence: '``` Text.'"]
    assert fence_errors("````\n```\n````\n") == []  # a shorter fence inside a longer one is text
    assert fence_errors("```\nx\n") == ["a fenced block is never closed"]


@pytest.mark.parametrize("page", [REPO / "README.md", *sorted(DOCS.rglob("*.md"))], ids=lambda page: page.name)
def test_no_fence_closes_with_text_after_it(page: Path) -> None:
    assert fence_errors(page.read_text()) == [], page


def nav_pages() -> dict[str, list[str]]:
    """The pages of mkdocs.yml's navigation, by section (`Guides`, ...; top-level pages under "")."""
    sections: dict[str, list[str]] = {"": []}
    section = ""
    nav = (REPO / "mkdocs.yml").read_text().split("\nnav:\n", 1)[1]
    for line in nav.splitlines():
        entry = re.fullmatch(r"(\s*)- (?:(.+?):\s*)?(\S+\.md)?\s*", line)
        if entry is None:
            break  # the navigation ends where the next setting begins
        indent, title, page = entry.groups()
        if len(indent) <= 2:  # a top-level entry: a page, or a section's title
            section = "" if page is not None else title.strip('"')
            sections.setdefault(section, [])
        if page is not None:
            sections[section].append(page)
    return sections


def test_every_page_is_in_the_navigation() -> None:
    listed = [page for pages in nav_pages().values() for page in pages]
    pages = sorted(str(page.relative_to(DOCS)) for page in DOCS.rglob("*.md") if "_hooks" not in page.parts)
    assert sorted(listed) == pages


@pytest.mark.parametrize("page", ["index.md", "cli.md"])
def test_the_home_page_and_the_cli_reference_link_every_guide(page: str) -> None:
    text = (DOCS / page).read_text()
    guides = nav_pages()["Guides"]
    assert len(guides) >= 8 and "coach.md" in guides
    missing = [guide for guide in guides if f"]({guide})" not in text]
    assert missing == [], f"{page} does not link {missing}"
