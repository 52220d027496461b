"""The search code's digest (`bactree.search.provenance`): kept by comments, docstrings and moves, changed by code."""

from __future__ import annotations

from bactree.search import provenance

SOURCE = '''"""A module."""

from __future__ import annotations

import numpy as np

from ..game import Game
from .solver import KERNEL_DEPTH as DEPTH

LIMIT = 20  # most secrets


def refuted(game: Game, size: int) -> bool:
    """Whether counting refutes it."""
    return size > LIMIT * DEPTH + np.int64(1)
'''


def test_comments_docstrings_layout_and_moves_keep_the_digest() -> None:
    base = provenance.code_digest([SOURCE, "X = 1\n"])
    edits = [
        SOURCE.replace("# most secrets", "# the most secrets a set holds"),
        SOURCE.replace('"""Whether counting refutes it."""', '"""True if counting rules it out."""'),
        SOURCE.replace('"""A module."""\n', ""),
        SOURCE.replace("LIMIT * DEPTH", "LIMIT*DEPTH").replace("\n\n\ndef", "\n\ndef"),
        SOURCE.replace("from ..game import", "from ...game import").replace("from .solver", "from .height.solver"),
        SOURCE.replace("from ..game import", "from bactree.game import"),
    ]
    for edited in edits:
        assert edited != SOURCE
        assert provenance.code_digest([edited, "X = 1\n"]) == base, edited
    assert provenance.code_digest(["X = 1\n", SOURCE]) == base  # the modules' order (their file names) does not count


def test_a_code_edit_changes_the_digest() -> None:
    base = provenance.code_digest([SOURCE])
    edits = [
        SOURCE.replace("LIMIT = 20", "LIMIT = 21"),
        SOURCE.replace("size > LIMIT", "size >= LIMIT"),
        SOURCE.replace("import numpy as np", "import numpy.random as np"),
        SOURCE.replace("KERNEL_DEPTH as DEPTH", "STORE_DEPTH as DEPTH"),
        SOURCE + "\nEXTRA = 1\n",
    ]
    assert len({provenance.code_digest([edited]) for edited in edits} | {base}) == len(edits) + 1


def test_the_search_code_digest_covers_the_search_game_and_pipeline_modules() -> None:
    digest = provenance.search_code()
    assert len(digest) == 32 and digest == provenance.search_code()
    paths = sorted(p for folder in provenance.COVERED for p in (provenance.PACKAGE / folder).rglob("*.py"))
    assert {p.relative_to(provenance.PACKAGE).parts[0] for p in paths} == {"search", "game", "pipeline"}
    assert provenance.code_digest([p.read_text() for p in paths]) == digest
