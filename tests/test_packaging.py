"""Packaging a user expects: one version everywhere, `python -m bactree`, a changelog that names the release."""

from __future__ import annotations

import importlib.metadata
import re
import subprocess
import sys
import tomllib
from pathlib import Path

from typer.testing import CliRunner

import bactree
from bactree.cli.main import app

REPO = Path(__file__).resolve().parent.parent


def test_version_option_matches_the_installed_metadata() -> None:
    result = CliRunner().invoke(app, ["--version"])
    assert result.exit_code == 0, result.output
    assert result.output == f"bactree {importlib.metadata.version('bactree')}\n"
    assert importlib.metadata.version("bactree") == bactree.__version__


def test_python_dash_m_runs_the_command() -> None:
    result = subprocess.run([sys.executable, "-m", "bactree", "--version"], capture_output=True, text=True, check=False)
    assert (result.returncode, result.stdout, result.stderr) == (0, f"bactree {bactree.__version__}\n", "")


def test_the_version_has_one_source() -> None:
    project = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]
    assert "version" not in project and "version" in project["dynamic"]
    assert tomllib.loads((REPO / "pyproject.toml").read_text())["tool"]["setuptools"]["dynamic"]["version"] == {
        "attr": "bactree.__version__"
    }


def test_the_changelog_starts_with_this_release() -> None:
    """The newest release named is this version; an `Unreleased` section may come before it, and only first."""
    headings = re.findall(r"^## (\S+)", (REPO / "CHANGELOG.md").read_text(), re.M)
    released = [name for name in headings if name != "Unreleased"]
    assert released and released[0] == bactree.__version__
    assert headings.count("Unreleased") <= 1 and headings[: headings.count("Unreleased")] in ([], ["Unreleased"])


def test_the_licence_is_mit_in_the_file_the_metadata_and_the_readme() -> None:
    """LICENSE holds the MIT text, pyproject.toml says so as an SPDX expression, and the README ends saying so."""
    licence = (REPO / "LICENSE").read_text()
    assert licence.startswith("MIT License\n\nCopyright (c) 2026 the bactree developers\n")
    assert "THE SOFTWARE IS PROVIDED \"AS IS\", WITHOUT WARRANTY OF ANY KIND" in licence
    pyproject = tomllib.loads((REPO / "pyproject.toml").read_text())
    assert (pyproject["project"]["license"], pyproject["project"]["license-files"]) == ("MIT", ["LICENSE"])
    assert pyproject["build-system"]["requires"] == ["setuptools>=77"]  # the first to read an SPDX expression
    assert (REPO / "README.md").read_text().splitlines()[-1] == "bactree is MIT-licensed: see [LICENSE](LICENSE)."
