"""Test-wide settings: hypothesis explores at random locally and replays a fixed sequence in CI; slow tests on demand.

With CI=true (as CI services set it, and `.ci/run` does) every hypothesis
test draws the same examples on every run (`derandomize`), so a CI failure
is never a roll of the dice and always reproduces; locally each run tries new
examples, the search that finds what a fixed sequence never would.

Tests marked `slow` (over about 20 s each, such as checking and rewriting
5 of 10's certificate) are skipped unless pytest is given `--slow`, so the
default run, and CI's, stays fast.
"""

from __future__ import annotations

import os

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("local")
settings.load_profile("ci" if os.environ.get("CI", "").lower() == "true" else "local")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--slow", action="store_true", help="also run the tests marked slow (over about 20 s each)")


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if config.getoption("--slow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --slow")
    for item in items:
        if item.get_closest_marker("slow") is not None:
            item.add_marker(skip)


@pytest.fixture(params=["kernel", "python"])
def search_paths(request, monkeypatch):
    """Each search test twice: as shipped, and with the Python levels everywhere (the kernels' depth and set sizes at
    their least, so every set is searched by the symmetry-pruned Python code)."""
    from bactree.search.cost import search as cost
    from bactree.search.height import solver as search_height

    if request.param == "python":
        monkeypatch.setattr(search_height, "KERNEL_DEPTH", 1)
        monkeypatch.setattr(cost, "SYMMETRY_MIN_SET", 3)
        monkeypatch.setattr(cost, "KERNEL_MAX_SET", 2)
    return request.param
