"""Test-wide settings: hypothesis explores at random locally and replays a fixed sequence in CI.

With CI=true (as CI services set it, and `.ci/run` does) every hypothesis
test draws the same examples on every run (`derandomize`), so a CI failure
is never a roll of the dice and always reproduces; locally each run tries new
examples, the search that finds what a fixed sequence never would.
"""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, database=None, print_blob=True)
settings.register_profile("local")
settings.load_profile("ci" if os.environ.get("CI", "").lower() == "true" else "local")
