"""Headless Chromium for the page's browser tests and its benchmark: started so it makes no connection of its own.

Needs selenium and Chromium with its driver (Debian: apt-get install chromium
chromium-driver); BACTREE_CHROMIUM and BACTREE_CHROMEDRIVER name other binaries.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from contextlib import contextmanager
from typing import Any, Iterator

HOW_TO_GET_A_BROWSER = (
    "the browser tests need selenium (pip install -e '.[test]') and Chromium with its driver "
    "(Debian/Ubuntu: apt-get install chromium chromium-driver; or set BACTREE_CHROMIUM and BACTREE_CHROMEDRIVER)"
)
FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
)


class NoBrowser(Exception):
    """Chromium, its driver or selenium is missing, or Chromium would not start; the message says how to get one."""


def browser_paths() -> tuple[str, str] | None:
    """Chromium and chromedriver, if both are installed."""
    chromium = os.environ.get("BACTREE_CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    driver = os.environ.get("BACTREE_CHROMEDRIVER") or shutil.which("chromedriver")
    return (chromium, driver) if chromium and driver else None


@contextmanager
def chromium(width: int, height: int) -> Iterator[Any]:
    """A selenium driver of headless Chromium with a fresh profile, quit and cleaned up afterwards."""
    try:
        from selenium import webdriver
        from selenium.common.exceptions import WebDriverException
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        raise NoBrowser(HOW_TO_GET_A_BROWSER) from None
    paths = browser_paths()
    if paths is None:
        raise NoBrowser(HOW_TO_GET_A_BROWSER)
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
        raise NoBrowser(f"Chromium did not start ({err.msg}); {HOW_TO_GET_A_BROWSER}") from None
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)
