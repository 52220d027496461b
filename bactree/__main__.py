"""`python -m bactree`: the same command as `bactree`."""

from __future__ import annotations

from .cli.command import main

main()
