"""Headless Chromium for the page's browser tests and its benchmark: started so it makes no connection of its own.

Needs selenium and Chromium with its driver (Debian: apt-get install chromium
chromium-driver); BACTREE_CHROMIUM and BACTREE_CHROMEDRIVER name other binaries.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from typing import Any, Iterator, NoReturn

import pytest

HOW_TO_GET_A_BROWSER = (
    "the browser tests need selenium (pip install -e '.[test]') and Chromium with its driver "
    "(Debian/Ubuntu: apt-get install chromium chromium-driver; or set BACTREE_CHROMIUM and BACTREE_CHROMEDRIVER)"
)
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
)


class NoBrowser(Exception):
    """Chromium, its driver or selenium is missing, or Chromium would not start; the message says which and how to get it."""


def on_ci() -> bool:
    """Whether this run is CI's: `CI=true` (or 1), as GitHub Actions, GitLab and most CI services set it."""
    return os.environ.get("CI", "").strip().lower() in ("true", "1")


def no_browser(reason: str, module_level: bool = False) -> NoReturn:
    """Under CI the browser tests fail, saying why; elsewhere they skip with the reason (`-rs` shows it).

    CI installs Chromium (.ci/install-browser), so a browser that cannot
    start there is a broken check, not a machine without one: skipping would
    leave CI green with the page untested.
    """
    if on_ci():
        pytest.fail(f"CI=true and the browser tests cannot run: {reason}", pytrace=False)
    pytest.skip(reason, allow_module_level=module_level)


def _binary(variable: str, names: tuple[str, ...], what: str) -> str:
    """The path of `what`: from the environment variable if set (it must exist), else the first of `names` on PATH."""
    given = os.environ.get(variable)
    if given:
        if not os.path.isfile(given):
            raise NoBrowser(f"{what} not found: {variable}={given} is not a file; {HOW_TO_GET_A_BROWSER}")
        return given
    for name in names:
        found = shutil.which(name)
        if found:
            return found
    raise NoBrowser(f"{what} not found: no {' or '.join(names)} on PATH; {HOW_TO_GET_A_BROWSER}")


def browser_paths() -> tuple[str, str]:
    """Chromium and chromedriver; `NoBrowser` naming the one that is missing."""
    return (
        _binary("BACTREE_CHROMIUM", ("chromium", "chromium-browser"), "Chromium"),
        _binary("BACTREE_CHROMEDRIVER", ("chromedriver",), "chromedriver"),
    )


@contextmanager
def chromium(width: int, height: int) -> Iterator[Any]:
    """A selenium driver of headless Chromium with a fresh profile, quit and cleaned up afterwards."""
    try:
        from selenium import webdriver
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        raise NoBrowser(f"selenium is not installed; {HOW_TO_GET_A_BROWSER}") from None
    paths = browser_paths()
    profile = tempfile.mkdtemp(prefix="bactree-chromium-")
    options = webdriver.ChromeOptions()
    options.binary_location = paths[0]
    for flag in (*FLAGS, f"--user-data-dir={profile}", f"--window-size={width},{height}"):
        options.add_argument(flag)
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    try:
        driver = webdriver.Chrome(service=Service(paths[1]), options=options)
    except WebDriverException as err:
        shutil.rmtree(profile, ignore_errors=True)
        first_line = (err.msg or "no message").strip().splitlines()[0]
        raise NoBrowser(f"Chromium did not start ({first_line}); {HOW_TO_GET_A_BROWSER}") from None
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
