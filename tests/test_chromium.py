"""The browser tests' helper (tests/chromium.py): a missing browser skips them locally and fails them under CI.

The end-to-end tests run tests/test_page_browser.py in a child pytest with
Chromium "removed" (BACTREE_CHROMIUM naming no file), as CI would find it if
.ci/install-browser had failed, and read what a person would read.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import chromium
import pytest
from chromium import NoBrowser, browser_paths, no_browser, on_ci

ROOT = Path(__file__).resolve().parent.parent
MISSING = "/nonexistent/chromium"


@pytest.mark.parametrize(("value", "expected"), [("true", True), ("1", True), ("TRUE", True), ("", False), ("false", False)])
def test_on_ci_reads_the_ci_variable(monkeypatch: pytest.MonkeyPatch, value: str, expected: bool) -> None:
    monkeypatch.setenv("CI", value)
    assert on_ci() is expected
    monkeypatch.delenv("CI")
    assert on_ci() is False


def test_no_browser_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match=r"^CI=true and the browser tests cannot run: Chromium not found"):
        no_browser("Chromium not found")


def test_no_browser_skips_elsewhere(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match=r"^Chromium not found$"):
        no_browser("Chromium not found")


def test_missing_binaries_are_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("BACTREE_CHROMIUM", raising=False)
    monkeypatch.delenv("BACTREE_CHROMEDRIVER", raising=False)
    monkeypatch.setattr(chromium.shutil, "which", lambda name: None)
    with pytest.raises(NoBrowser, match=r"^Chromium not found: no chromium or chromium-browser on PATH; .*apt-get install"):
        browser_paths()
    monkeypatch.setattr(chromium.shutil, "which", lambda name: None if name == "chromedriver" else f"/usr/bin/{name}")
    with pytest.raises(NoBrowser, match=r"^chromedriver not found: no chromedriver on PATH; "):
        browser_paths()
    monkeypatch.setenv("BACTREE_CHROMIUM", MISSING)
    with pytest.raises(NoBrowser, match=rf"^Chromium not found: BACTREE_CHROMIUM={MISSING} is not a file; "):
        browser_paths()


def test_a_browser_that_will_not_start_is_no_browser(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Chromium and its driver are there but the start fails: the reason is kept, on one line."""
    WebDriverException = pytest.importorskip("selenium.common.exceptions").WebDriverException
    for name in ("chromium", "chromedriver"):
        (tmp_path / name).write_text("")
    monkeypatch.setenv("BACTREE_CHROMIUM", str(tmp_path / "chromium"))
    monkeypatch.setenv("BACTREE_CHROMEDRIVER", str(tmp_path / "chromedriver"))

    def refuse(**_: object) -> None:
        raise WebDriverException("session not created: Chrome failed to start: crashed.\n(stack trace)")

    monkeypatch.setattr("selenium.webdriver.Chrome", refuse)
    with pytest.raises(NoBrowser) as caught:
        with chromium.chromium(390, 844):
            pytest.fail("the context should not have been entered")
    assert str(caught.value).startswith("Chromium did not start (session not created: Chrome failed to start: crashed.); ")
    assert "\n" not in str(caught.value)


def run_browser_tests(ci: bool, no_selenium: Path | None = None) -> subprocess.CompletedProcess[str]:
    """tests/test_page_browser.py in a child pytest (the project's addopts apply) with Chromium missing.

    `no_selenium`: a folder whose `selenium` package fails to import, put first on the path.
    """
    env = {key: value for key, value in os.environ.items() if key != "CI"}
    env["BACTREE_CHROMIUM"] = MISSING
    if ci:
        env["CI"] = "true"
    if no_selenium is not None:
        env["PYTHONPATH"] = os.pathsep.join([str(no_selenium), *filter(None, [env.get("PYTHONPATH")])])
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", "tests/test_page_browser.py"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=600,
    )


def test_without_chromium_a_ci_run_fails_naming_it() -> None:
    result = run_browser_tests(ci=True)
    assert result.returncode == 1, result.stdout + result.stderr
    line = f"CI=true and the browser tests cannot run: Chromium not found: BACTREE_CHROMIUM={MISSING} is not a file; "
    errors = [row for row in result.stdout.splitlines() if row.startswith("ERROR tests/test_page_browser.py::")]
    assert errors and all(line in row for row in errors), result.stdout
    assert "passed" not in result.stdout and "skipped" not in result.stdout
    assert "During handling" not in result.stdout  # the reason alone, not chained to the NoBrowser it came from


def test_without_chromium_a_local_run_skips_saying_how_to_install() -> None:
    result = run_browser_tests(ci=False)
    assert result.returncode == 0, result.stdout + result.stderr
    summary = [row for row in result.stdout.splitlines() if row.startswith("SKIPPED [")]  # shown by -rs in addopts
    assert summary and all("Chromium not found" in row and "apt-get install chromium chromium-driver" in row for row in summary)
    count = sum(int(row.removeprefix("SKIPPED [").split("]")[0]) for row in summary)
    assert result.stdout.splitlines()[-1].startswith(f"{count} skipped"), result.stdout


def test_without_selenium_a_ci_run_fails_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "selenium").mkdir()
    (tmp_path / "selenium" / "__init__.py").write_text('raise ImportError("no selenium here")\n')
    result = run_browser_tests(ci=True, no_selenium=tmp_path)
    assert result.returncode == 2, result.stdout + result.stderr  # pytest: interrupted by a collection error
    line = "ERROR tests/test_page_browser.py - Failed: CI=true and the browser tests cannot run: selenium is not installed; "
    assert any(row.startswith(line) for row in result.stdout.splitlines()), result.stdout
    assert "Traceback" not in result.stdout and "During handling" not in result.stdout
