"""scripts/wordle_side_by_side.py reads both provers' totals and flags any disagreement (fake provers: no g++, no lists)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "scripts" / "wordle_side_by_side.py"

# A fake of Selby's `wordle -a ALL -h HIDDEN -w WORD`: prints his summary line with the value given for the word.
FAKE_SELBY = """\
import sys
values = {"salet": 7920, "reast": 7923}
word = sys.argv[sys.argv.index("-w") + 1]
assert sys.argv[1:5] == ["-a", "wordlist_orig_all", "-h", "wordlist_orig_hidden"], sys.argv
print("Commit fake\\nFirst guess " + word + " = " + str(values[word]))
print("Best first guess = " + word + "\\nBest first guess score = " + str(values[word]) + "\\nTime taken = 0.01s")
"""

# A fake of `bactree build ... --first WORD -o OUT`: writes a tree file's header with the total given for the word.
FAKE_BACTREE = """\
import json, sys
values = {"salet": 7920, "reast": %d}
args = sys.argv[1:]
assert args[:3] == ["build", "--rule", "wordle"] and "--guesses" in args, args
word, out = args[args.index("--first") + 1], args[args.index("-o") + 1]
tree = {"objective": {"name": "expected", "first_guess": word}, "optimal": %s,
        "stats": {"secrets": 2315, "total_guesses": values[word]}}
open(out, "w").write(json.dumps(tree))
"""


def fake(path: Path, text: str) -> Path:
    path.write_text(f"#!{sys.executable}\n{text}")
    path.chmod(0o755)
    return path


def selby_folder(tmp_path: Path) -> Path:
    folder = tmp_path / "wordle"
    folder.mkdir()
    (folder / "wordlist_orig_hidden").write_text("salet\nreast\n")
    (folder / "wordlist_orig_all").write_text("reast\nsalet\n")
    (folder / "normal.top105.proven").write_text("salet 7920\nreast 7923\ncrate 7926\n")
    fake(folder / "wordle", FAKE_SELBY)
    return folder


def side_by_side(folder: Path, bactree: Path, *options: str) -> subprocess.CompletedProcess:
    command = [sys.executable, str(SCRIPT), "--selby", str(folder), "--bactree", str(bactree), "--no-warm-up", *options]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def test_agreeing_provers_give_a_row_per_word_and_the_ratio(tmp_path: Path) -> None:
    folder = selby_folder(tmp_path)
    done = side_by_side(folder, fake(tmp_path / "bactree", FAKE_BACTREE % (7923, "True")), "--words", "salet,reast")
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line for line in done.stdout.splitlines() if line.startswith("| salet") or line.startswith("| reast")]
    assert [row.split(" | ")[1:4] for row in rows] == [["7,920", "7,920", "7,920"], ["7,923", "7,923", "7,923"]]
    for row in rows + [line for line in done.stdout.splitlines() if line.startswith("| all 2 proven by both |")]:
        cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
        selby, ours = float(cells[-3].removesuffix(" s")), float(cells[-2].removesuffix(" s"))
        low, high = (ours - 0.005) / (selby + 0.005), (ours + 0.005) / (selby - 0.005)  # the CPU shown is rounded
        assert low - 0.005 <= float(cells[-1]) <= high + 0.005, row
    assert done.stdout.splitlines()[-1] == "2 of 2 first words proven with the same total by both and as in normal.top105.proven"


def test_a_different_total_or_an_unproven_tree_is_a_disagreement(tmp_path: Path) -> None:
    folder = selby_folder(tmp_path)
    done = side_by_side(folder, fake(tmp_path / "wrong", FAKE_BACTREE % (7924, "True")), "--words", "salet,reast")
    assert done.returncode == 1
    assert "DISAGREE reast: totals differ (7923 against bactree's 7924); bactree's 7924 is not the file's 7923" in done.stdout
    unproven = side_by_side(folder, fake(tmp_path / "unproven", FAKE_BACTREE % (7923, "False")), "--words", "salet")
    assert unproven.returncode == 1 and "DISAGREE salet: bactree: not proven (total 7920" in unproven.stdout
    assert "| salet | 7,920 | 7,920 | - |" in unproven.stdout and " s | - |" in unproven.stdout  # no ratio without both


def test_the_default_words_are_the_files_best_and_missing_pieces_are_one_line_errors(tmp_path: Path) -> None:
    folder = selby_folder(tmp_path)
    bactree = fake(tmp_path / "bactree", FAKE_BACTREE % (7923, "True"))
    done = side_by_side(folder, bactree)  # the file's three words: the fakes know no crate
    assert done.returncode == 1 and "DISAGREE crate: Selby: exit 1" in done.stdout
    unknown = side_by_side(folder, bactree, "--words", "qajaq")
    assert (unknown.returncode, unknown.stderr) == (2, f"Error: qajaq: not in {folder / 'normal.top105.proven'}\n")
    (folder / "wordle").unlink()
    no_binary = side_by_side(folder, bactree)
    assert no_binary.returncode == 2 and no_binary.stderr.startswith(f"Error: no executable {folder / 'wordle'}: ")
    assert no_binary.stderr.count("\n") == 1
    no_folder = side_by_side(tmp_path / "absent", bactree)
    assert no_folder.returncode == 2 and no_folder.stderr.startswith(f"Error: no folder {tmp_path / 'absent'}: ")
    assert no_folder.stdout == ""
