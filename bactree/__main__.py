"""`python -m bactree`: the same command as `bactree`."""

from __future__ import annotations

from .command import main

main()
