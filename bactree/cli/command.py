"""The `bactree` console script and `python -m bactree`: the process set up for one command, then `bactree.cli.main.main`.

What must be settled before numpy loads lives here, ahead of every import
that brings numpy in, and applies only to a process of the command's own:
a program that imports bactree as a library keeps its own settings.

numpy's wheels load OpenBLAS, which starts a thread per core that spins
while it waits for work: about 0.1 s of CPU on this project's 2-core
machine for every command, more with more cores. bactree multiplies no
floating-point matrices (its kernels count, bound and search on
integers), so the command asks OpenBLAS for one thread, unless the user
chose a number.
"""

from __future__ import annotations

import os


def main() -> None:
    """Run the `bactree` command with OpenBLAS kept to one thread (unless `OPENBLAS_NUM_THREADS` is set)."""
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    from .main import main as run_command  # numpy loads here, after the setting

    run_command()
