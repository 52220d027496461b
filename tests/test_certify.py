"""bactree.certify, the least-height certificate checker: held to brute force on tiny games, and shown forgeries.

The checker's table against the plain score and bactree's; its class
bounds against the most secrets of a class any tree finds, searched
exhaustively; its rule for a node against an exhaustive search of the set;
the certificates of `scripts/write_certificate.py` accepted where the
claim is true, and every forgery tried refused.
"""

from __future__ import annotations

import ast
import copy
import importlib.util
import itertools
import json
import random
import re
import subprocess
import sys
from functools import lru_cache
from pathlib import Path

import numpy as np
import pytest

from bactree import certify
from bactree.game import BactreeError, make_game
from bactree.game.codes import answer_table

ROOT = Path(__file__).parents[1]
_spec = importlib.util.spec_from_file_location("write_certificate", ROOT / "scripts" / "write_certificate.py")
write_certificate = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(write_certificate)

TINY = [
    certify.Game(2, "0123", False), certify.Game(3, "0123", False), certify.Game(3, "01234", False),
    certify.Game(2, "123", True), certify.Game(3, "123", True), certify.Game(2, "1234", True),
]
# Small games whose certificates have entries, maps and shared nodes: (game, least height).
NONTRIVIAL = [(certify.Game(3, "12345", True), 5), (certify.Game(3, "01234567", False), 6), (certify.Game(4, "0123456", False), 6)]


@lru_cache(maxsize=None)
def board_of(game: certify.Game) -> certify.Board:
    return certify.Board(game)


def bactree_game(game: certify.Game):
    return make_game("mastermind" if game.repeats else "bulls-cows", length=game.length, symbols=game.symbols)


def certificate_of(game: certify.Game, depth: int) -> dict:
    return write_certificate.Writer(bactree_game(game)).certificate(depth)


# -- brute force ----------------------------------------------------------
def exhaustive(board: certify.Board):
    """(most(S, d): the most secrets of S one tree finds within d, solvable(S, d)), both searched over every guess.

    Sets are bit masks of code indices; `classes[g]` holds each class of guess g but its all-bulls one."""
    classes = [
        [sum(1 << s for s in np.flatnonzero(board.table[g] == slot).tolist()) for slot in np.unique(board.table[g]).tolist()
         if slot != board.game.solved]
        for g in range(len(board.codes))
    ]

    @lru_cache(maxsize=None)
    def most(secrets: int, depth: int) -> int:
        if depth == 0 or not secrets:
            return 0
        return max((secrets >> g & 1) + sum(most(secrets & c, depth - 1) for c in cs if secrets & c) for g, cs in enumerate(classes))

    @lru_cache(maxsize=None)
    def solvable(secrets: int, depth: int) -> bool:
        if not secrets:
            return True
        if depth == 0:
            return False
        return any(all(solvable(secrets & c, depth - 1) for c in cs) for cs in classes)

    return most, solvable


def mask(indices) -> int:
    return sum(1 << int(i) for i in indices)


# -- the table and symmetry -------------------------------------------------
@pytest.mark.parametrize("game", TINY + [certify.Game(4, "123456", True), certify.Game(5, "01234567", False)], ids=str)
def test_table_is_the_plain_score_and_bactrees(game: certify.Game) -> None:
    board = board_of(game)
    names = board.names
    rng = random.Random(1)
    pairs = itertools.product(range(len(names)), repeat=2) if len(names) < 100 else (
        (rng.randrange(len(names)), rng.randrange(len(names))) for _ in range(3000)
    )
    for g, s in pairs:
        bulls, cows = certify.score(names[g], names[s])
        assert board.table[g, s] == bulls * (game.length + 1) + cows
    original = bactree_game(game)
    assert names == list(original.codes)
    assert np.array_equal(board.table, answer_table(original))


def test_symmetry_is_checked_tile_by_tile() -> None:
    """`is_symmetric` against the whole transpose, on sizes that the tiles do not divide, one entry changed."""
    rng = np.random.default_rng(5)
    for num, tile in [(1, 1), (7, 3), (10, 4), (12, 12), (13, 20)]:
        upper = np.triu(rng.integers(0, 30, (num, num), dtype=np.uint8))
        table = upper | np.triu(upper, 1).T
        assert certify.is_symmetric(table, tile)
        for _ in range(5):
            g, s = rng.integers(0, num, 2)
            changed = table.copy()
            changed[g, s] += 1
            assert certify.is_symmetric(changed, tile) == (g == s) == np.array_equal(changed, changed.T)


@pytest.mark.parametrize("game", TINY, ids=str)
def test_maps_keep_answers(game: certify.Game) -> None:
    """Lemma 1 of the checker's docstring, on every pair of codes, for random maps; `map_of` applies them as written."""
    board = board_of(game)
    rng = random.Random(7)
    for _ in range(10):
        positions = rng.sample(range(game.length), game.length)
        symbols = "".join(rng.sample(game.symbols, len(game.symbols)))
        image = board.map_of([positions, symbols])
        relabel = dict(zip(game.symbols, symbols))
        for i, name in enumerate(board.names):
            mapped = [""] * game.length
            for p, c in zip(positions, name):
                mapped[p] = relabel[c]
            assert board.names[image[i]] == "".join(mapped)
        assert np.array_equal(board.table[np.ix_(image, image)], board.table)


# -- the bounds and the rule against brute force ------------------------------
@pytest.mark.parametrize("game", TINY, ids=str)
def test_class_bounds_hold(game: certify.Game) -> None:
    """cap[d] is at least what any tree finds of every code's every class (exactly that within 2)."""
    board = board_of(game)
    most, _ = exhaustive(board)
    for depth in range(1, 5):
        caps = board.cap(depth)
        for g in range(len(board.codes)):
            for slot in np.unique(board.table[g]).tolist():
                found = most(mask(np.flatnonzero(board.table[g] == slot)), depth)
                bound = caps[board.orbit_of[g], slot]
                assert found <= bound and (depth > 2 or found == bound), (board.names[g], slot, depth)


@pytest.mark.parametrize("game", TINY, ids=str)
def test_rule_of_a_node_is_sound(game: certify.Game) -> None:
    """A set the bounds refute has no tree (for any set, not only parts); within 2 guesses, exactly those."""
    board = board_of(game)
    _, solvable = exhaustive(board)
    rng = random.Random(3)
    num = len(board.codes)
    refuted_somewhere = 0
    for _ in range(300):
        subset = np.array(sorted(rng.sample(range(num), rng.randint(1, num))))
        for depth in range(1, 5):
            refuted = bool(board.over_caps(subset, depth).all())
            has_tree = solvable(mask(subset), depth)
            assert not (refuted and has_tree)
            if depth <= 2:
                assert refuted == (not has_tree)
            refuted_somewhere += refuted
    assert refuted_somewhere


# -- certificates of the writer -----------------------------------------------
@pytest.mark.parametrize("game", TINY, ids=str)
def test_tiny_games_against_brute_force(game: certify.Game) -> None:
    """Below the least height the writer's certificate is accepted; at it the writer finds the claim false and a
    forger's best try (every guess's largest part, down to one guess) is refused."""
    _, solvable = exhaustive(board_of(game))
    every = mask(range(len(board_of(game).codes)))
    height = next(d for d in itertools.count(1) if solvable(every, d))
    report = certify.check(certificate_of(game, height - 1), board_of(game))
    assert report.guesses == height - 1
    with pytest.raises(BactreeError, match="the claim is false"):
        certificate_of(game, height)
    with pytest.raises(certify.CertificateError):
        certify.check(forged(board_of(game), height), board_of(game))


def forged(board: certify.Board, depth: int) -> dict:
    """A certificate claiming `depth` with no regard to truth: the largest part of every guess the bounds leave."""
    nodes: list[dict] = []
    named: dict[tuple[bytes, int], int] = {}

    def node(subset: np.ndarray, depth: int) -> int:
        if (subset.tobytes(), depth) in named:
            return named[subset.tobytes(), depth]
        index = named[subset.tobytes(), depth] = len(nodes)
        nodes.append({"refuted": []})
        if depth <= 1:
            return index
        for guess in np.flatnonzero(~board.over_caps(subset, depth)).tolist():
            answers = board.table[guess, subset]
            slots = [a for a in np.unique(answers).tolist() if a != board.game.solved]
            if not slots:
                continue
            slot = max(slots, key=lambda a: (answers == a).sum())
            child = node(subset[answers == slot], depth - 1)
            nodes[index]["refuted"].append([board.names[guess], board.game.answer_name(slot), child])
        return index

    node(np.arange(len(board.codes)), depth)
    return header(board.game, depth, nodes)


def header(game: certify.Game, depth: int, nodes: list[dict]) -> dict:
    return {
        "format": certify.FORMAT, "version": certify.VERSION, "guesses": depth, "nodes": nodes,
        "game": {"length": game.length, "symbols": game.symbols, "repeats": game.repeats, "rule": "bulls-cows"},
    }


@pytest.mark.parametrize("game,height", NONTRIVIAL, ids=str)
def test_small_games_with_entries(game: certify.Game, height: int) -> None:
    certificate = certificate_of(game, height - 1)
    report = certify.check(certificate, board_of(game))
    assert report.entries and report.maps and len(certificate["nodes"]) > 1
    certificate["guesses"] = height
    with pytest.raises(certify.CertificateError, match="is not refuted"):
        certify.check(certificate, board_of(game))


# -- forgeries of a real certificate -----------------------------------------------
def altered(change) -> str:
    """The error message of checking 4 of 7's certificate after `change(certificate)`."""
    game, height = NONTRIVIAL[2]
    certificate = copy.deepcopy(good_certificate())
    change(certificate)
    with pytest.raises(certify.CertificateError) as error:
        certify.check(certificate, board_of(game))
    return str(error.value)


@lru_cache(maxsize=None)
def good_certificate_json() -> str:
    game, height = NONTRIVIAL[2]
    return json.dumps(certificate_of(game, height - 1))


def good_certificate() -> dict:
    return json.loads(good_certificate_json())


def test_the_certificate_altered_is_checked_whole() -> None:
    nodes = good_certificate()["nodes"]
    assert len(nodes) == 7 and any(entry[2] is None for node in nodes for entry in node["refuted"])
    assert any(isinstance(entry[2], int) for entry in nodes[0]["refuted"]) and nodes[0].get("maps")


def test_a_missing_guess_is_refused() -> None:
    assert "is not refuted within 5" in altered(lambda c: c["nodes"][0]["refuted"].pop())
    assert "is not refuted" in altered(lambda c: c["nodes"][0].pop("maps"))


def first_inner(certificate: dict) -> list:
    return next(entry for entry in certificate["nodes"][0]["refuted"] if isinstance(entry[2], int))


def test_a_wrong_part_is_refused() -> None:
    board = board_of(NONTRIVIAL[2][0])

    def other_answer(certificate: dict) -> None:
        entry = first_inner(certificate)
        answers = board.table[board.index[entry[0]]].tolist()  # the root's set is every code
        entry[1] = board.game.answer_name(next(a for a in sorted(set(answers)) if board.game.answer_name(a) != entry[1]))

    message = altered(other_answer)  # the child checked as that part, or found to be another part
    assert "is not the part" in message or "is not refuted" in message and not message.startswith("node 0")

    def null_child(certificate: dict) -> None:
        first_inner(certificate)[2] = None

    assert "is not refuted by the bounds within 4" in altered(null_child)

    def other_child(certificate: dict) -> None:  # a second entry of node 1 naming the first one's child
        inner = [entry for entry in certificate["nodes"][1]["refuted"] if isinstance(entry[2], int)]
        inner[1][2] = inner[0][2]

    assert "node 1: node 2 is not the part" in altered(other_child)


def test_a_bound_that_does_not_hold_is_refused() -> None:
    def raised(certificate: dict) -> None:
        certificate["guesses"] += 1

    assert "is not refuted" in altered(raised)

    def leaf(certificate: dict) -> None:
        certificate["nodes"] = [{}]

    assert "node 0: guess" in altered(leaf)


def test_a_map_that_moves_the_set_is_refused() -> None:
    def moved(certificate: dict) -> None:
        node = next(node for node in certificate["nodes"][1:] if node.get("maps"))
        node["maps"].append([[0, 1, 2, 3], "1234560"])

    assert "does not send the node's set onto itself" in altered(moved)
    assert "not a permutation" in altered(lambda c: c["nodes"][0]["maps"].append([[0, 0, 1, 2], "0123456"]))
    assert "not a relabelling" in altered(lambda c: c["nodes"][0]["maps"].append([[0, 1, 2, 3], "0123455"]))


@pytest.mark.parametrize("change,message", [
    (lambda c: c["nodes"].append({}), "no entry names it"),
    (lambda c: first_inner(c).__setitem__(0, "01234"), "invalid guess"),
    (lambda c: first_inner(c).__setitem__(1, "4B0C"), "leaves no part"),
    (lambda c: first_inner(c).__setitem__(1, "5B9C"), "invalid answer"),
    (lambda c: first_inner(c).__setitem__(2, True), "invalid child"),
    (lambda c: first_inner(c).__setitem__(2, 0), "invalid child"),
    (lambda c: first_inner(c).__setitem__(2, 99), "invalid child"),
    (lambda c: first_inner(c).pop(), "not [guess, answer, child]"),
    (lambda c: c["nodes"][0].__setitem__("parts", []), "not an object of maps and refuted"),
    (lambda c: c.__setitem__("format", "bactree-tree"), "not a certificate"),
    (lambda c: c.__setitem__("version", 2), "unsupported certificate version"),
    (lambda c: c["game"].__setitem__("rule", "wordle"), "unsupported rule"),
    (lambda c: c.__setitem__("guesses", 0), "invalid claim"),
    (lambda c: c["game"].__setitem__("symbols", "abcdefghijklmnopqrstuvwxyz"), "game too large to check: 358800 codes"),
    (lambda c: c["game"].update(symbols="a", repeats=True, length=16), "game too large to check: 1 codes of length 16"),
    (lambda c: c["game"].__setitem__("symbols", "0012345"), "invalid game"),
])
def test_malformed_certificates_are_refused(change, message: str) -> None:
    assert message in altered(change)


def test_a_node_at_two_depths_is_refused() -> None:
    """An entry naming a node that an entry one level up names too (its depth is one more there)."""
    board = board_of(NONTRIVIAL[2][0])
    certificate = good_certificate()
    nodes = certificate["nodes"]
    root_child = first_inner(certificate)[2]
    deeper = next(k for k, node in enumerate(nodes) if k > root_child and node.get("refuted"))
    nodes[deeper]["refuted"][0][2] = root_child
    with pytest.raises(certify.CertificateError, match="named at two depths|is not the part"):
        certify.check(certificate, board)


# -- the shipped certificates ----------------------------------------------------
SHIPPED = sorted((ROOT / "certificates").glob("*-height.json"))
# Over 20 s each to check and write again (5 of 10: its table has 914 M answers): run with `pytest --slow`.
SLOW = {"bulls-cows-5x10-height.json"}


def test_certificates_are_shipped() -> None:
    assert [path.name for path in SHIPPED] == [
        "bulls-cows-4x10-height.json", "bulls-cows-4x9-height.json", "bulls-cows-5x10-height.json",
        "mastermind-4x6-height.json", "mastermind-4x7-height.json",
    ]


@pytest.mark.parametrize("path", [
    pytest.param(path, id=path.name, marks=[pytest.mark.slow] if path.name in SLOW else []) for path in SHIPPED
])
def test_shipped_certificate_and_tree_prove_the_least_height(path: Path) -> None:
    """Each is accepted, its tree file (replayed by the checker) reaches one guess more, and the writer makes it again."""
    raw = certify.load(path)
    report = certify.check(raw)
    tree = certify.load(ROOT / "trees" / path.name.replace("-height.json", "-worst-case.json"))
    assert certify.tree_height(tree, report.board) == report.guesses + 1 == tree["stats"]["max_guesses"]
    game, guesses = bactree_game(report.game), report.guesses
    del report  # its board (a 914 MB table for 5 of 10) freed before the writer builds its own
    assert write_certificate.dumps(write_certificate.Writer(game).certificate(guesses)) == path.read_bytes()


def test_a_tree_of_another_game_or_leaving_a_secret_is_refused() -> None:
    board = board_of(certify.Game(4, "123456", True))
    tree = certify.load(ROOT / "trees" / "mastermind-4x6-expected.json")
    assert certify.tree_height(tree, board) == 6
    del tree["root"]["next"]["0B0C"]
    with pytest.raises(certify.CertificateError, match="unfound"):
        certify.tree_height(tree, board)
    with pytest.raises(certify.CertificateError, match="another game"):
        certify.tree_height(certify.load(ROOT / "trees" / "mastermind-4x7-worst-case.json"), board)


# -- the checker stands alone -------------------------------------------------------
def test_the_checker_imports_numpy_and_the_standard_library_only() -> None:
    tree = ast.parse((ROOT / "bactree" / "certify.py").read_text())
    imported = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported <= {"__future__", "argparse", "dataclasses", "functools", "itertools", "json", "math", "pathlib", "sys",
                        "time", "numpy"}


def test_command_line_as_a_plain_file(tmp_path: Path) -> None:
    """`python bactree/certify.py` runs with nothing of bactree importable: a line and exit 0, or REFUSED and 1."""
    script = ROOT / "bactree" / "certify.py"
    good = ROOT / "certificates" / "mastermind-4x7-height.json"
    tree = ROOT / "trees" / "mastermind-4x7-worst-case.json"
    run = subprocess.run([sys.executable, "-I", str(script), str(good), "--tree", str(tree)], capture_output=True,
                         text=True, cwd=tmp_path)
    assert run.returncode == 0, run.stderr
    assert "proven: no tree finds every secret of 4 of '1234567' (repeats) within 5 guesses" in run.stdout
    assert "finds every secret within 6 guesses: the least height is 6" in run.stdout
    bad = tmp_path / "bad.json"
    raw = json.loads(good.read_text())
    raw["nodes"][0]["refuted"].pop()
    bad.write_text(json.dumps(raw))
    run = subprocess.run([sys.executable, "-I", str(script), str(bad)], capture_output=True, text=True, cwd=tmp_path)
    assert run.returncode == 1 and run.stderr.startswith("REFUSED: node 0: guess ") and not run.stdout


def test_the_session_of_the_docs_page_is_real() -> None:
    """docs/certificates.md's console block: the command run from the checkout prints what the page shows."""
    page = (ROOT / "docs" / "certificates.md").read_text()
    block = re.search(r"^```console\n\$ (.*?)\n(.*?)^```", page, re.M | re.S)
    command, shown = block.group(1), block.group(2)
    assert command.startswith("python -m bactree.certify ")
    run = subprocess.run([sys.executable, *command.split()[1:]], capture_output=True, text=True, cwd=ROOT)
    assert run.returncode == 0, run.stderr
    masked = [re.sub(r"\d+\.\ds\)", "?s)", text) for text in (run.stdout, shown)]
    assert masked[0] == masked[1]


def test_the_writers_command_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "mm.json"
    assert write_certificate.main(["--game", "mastermind", "-o", str(out)]) == 0
    assert out.read_bytes() == (ROOT / "certificates" / "mastermind-4x6-height.json").read_bytes()
    assert capsys.readouterr().out.startswith(f"{out}: no tree within 4 guesses; 1 nodes, 0 entries, 169 bytes, ")
    assert write_certificate.main(["--game", "mastermind", "--guesses", "5", "-o", str(out)]) == 1
    assert "the claim is false" in capsys.readouterr().err


def test_the_benchmark_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    spec = importlib.util.spec_from_file_location("bench_certify", ROOT / "scripts" / "bench_certify.py")
    bench = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(bench)
    assert bench.main(["--runs", "1", str(ROOT / "certificates" / "mastermind-4x6-height.json")]) == 0
    assert bench.main(["--runs", "1", "--board", "-n", "3", "--symbols", "1234", "--repeats", "--depth", "3"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert re.fullmatch(r"mastermind-4x6-height.json: no tree within 4; 169 bytes, 1 nodes, 0 entries; "
                        r"write \d+\.\d\ds \([\d,]+ MB peak\), check \d+\.\d\ds \([\d,]+ MB peak\) CPU \(medians of 1\)", lines[0])
    assert re.fullmatch(r"3 of 1234: table \d+\.\d\ds, board \(table and joint counts\) \d+\.\d\ds, bounds to 3 "
                        r"\d+\.\d\ds CPU \(medians of 1\)", lines[1])
