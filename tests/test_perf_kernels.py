"""`scripts/perf_kernels.py` names numba's compiled functions for perf: the map covers a kernel that ran, by its name."""

from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "perf_kernels.py"


def load_script():
    spec = importlib.util.spec_from_file_location("perf_kernels", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_numba_names_read_as_dotted_paths() -> None:
    script = load_script()
    mangled = "_ZN7bactree6search4cost13_base_kernels11_guess_baseB4v232B38c8tJTIeFIjxB2IKSgI4E5ArrayIhLi1E1C8readonly"
    assert script.readable(mangled) == "bactree.search.cost._base_kernels._guess_base"
    assert script.readable("_ZN5numba4misc9mergesort12_3clocals_3e5innerB4v1E") == "numba.misc.mergesort.<locals>.inner"
    assert script.readable("NRT_decref") == "NRT_decref"


def test_the_map_covers_a_kernel_that_ran_with_its_name() -> None:
    """In a fresh interpreter, as the script runs: its hook must see the kernels load (this one may have them already)."""
    check = f"""
import importlib.util
import numpy as np
spec = importlib.util.spec_from_file_location("perf_kernels", {str(SCRIPT)!r})
script = importlib.util.module_from_spec(spec)
spec.loader.exec_module(script)
script.keep_objects()
from bactree.search._partition_kernels import _popcount, _split
_split(np.arange(16, dtype=np.uint8).reshape(4, 4)[0] % 3, np.arange(4, dtype=np.int64), 3)
_popcount(np.uint64(5))
spans = [(int(a, 16), int(b, 16), n) for a, b, n in (line.split(" ", 2) for line in script.jit_map_lines())]
for kernel in (_split, _popcount):
    (result,) = kernel.overloads.values()
    for symbol in (result.fndesc.llvm_func_name, result.fndesc.llvm_cpython_wrapper_name):
        at = result.library.get_pointer_to_function(symbol)
        print(*[n for start, size, n in spans if start <= at < start + size])
for name in ("NRT_incref", "NRT_decref"):
    at = result.library.get_pointer_to_function(name)
    print(*[n for start, size, n in spans if start <= at < start + size])
"""
    result = subprocess.run([sys.executable, "-c", check], capture_output=True, text=True, timeout=300, check=True)
    assert result.stdout.splitlines() == [
        "bactree.search._partition_kernels._split", "cpython.bactree.search._partition_kernels._split",
        "bactree.search._partition_kernels._popcount", "cpython.bactree.search._partition_kernels._popcount",
        "NRT_incref", "NRT_decref",
    ]  # the function and its wrapper from Python: two places in one object, so its offsets are read right; and the
    # runtime's reference counts, which every kernel's library calls
    with pytest.raises(ValueError):
        load_script().elf_functions(b"not an object")


@pytest.mark.skipif(shutil.which("perf") is None, reason="perf is not installed")
def test_a_small_build_is_sampled_and_its_kernels_named() -> None:
    result = subprocess.run(
        [sys.executable, str(SCRIPT), "-n", "3", "--symbols", "012345", "--top", "40"],
        capture_output=True, text=True, timeout=300,
    )
    if result.returncode and "perf record failed" in result.stderr:
        pytest.skip(f"perf cannot sample here: {result.stderr.strip()}")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("3 of '012345', no repeats expected:") and "compiled functions mapped" in lines[0]


def test_a_height_decision_reads_its_path_and_its_guesses_left(capsys: pytest.CaptureFixture[str]) -> None:
    """`--height PATH --left D`'s task on the 252 secrets 4 of 0-6 leaves after 0123 with 0B2C: a tree within 5 (the
    game's least height is 6, so every part of the first guess has one) but none within 4."""
    from bactree.game import Game

    script = load_script()
    game = Game(4, "0123456", False)
    script.height_task(game, "0123/0B2C", 4)
    script.height_task(game, "0123/0B2C", 5)
    assert capsys.readouterr().out.splitlines() == [
        "0123/0B2C: 252 secrets, no tree within 4", "0123/0B2C: 252 secrets, a tree within 5",
    ]


def _dumped(record: bytes, ip: int, stack_offset: int) -> list[str]:
    """One sample as `perf report -D` prints it: the record's bytes in hex, 16 a line, then the decoded fields."""
    lines = [
        f".  {at:04x}:  " + " ".join(f"{byte:02x}" for byte in record[at : at + 16]) + "  ................"
        for at in range(0, len(record), 16)
    ]
    return lines + [
        f"69180012083454 0x18db8 [0x{len(record):x}]: PERF_RECORD_SAMPLE(IP, 0x2): 7/7: 0x{ip:x} period: 1 addr: 0",
        "... user regs: mask 0xff0fff ABI 64-bit",
        f"... ustack: size 64, offset 0x{stack_offset:x}",
    ]


def test_reference_count_callers_are_read_from_the_stack_dump() -> None:
    """A sample inside NRT_incref is charged to the function its return address (the word after the stack's size)
    falls in; a sample elsewhere only counts as a sample."""
    script = load_script()
    map_lines = ["1000 10 NRT_incref", "1010 20 NRT_decref", "2000 100 bactree.search.caller", "3000 80 other"]
    offset = 0xE0
    record = bytearray(offset + 24)
    record[offset : offset + 8] = (64).to_bytes(8, "little")  # the dumped stack's size
    record[offset + 8 : offset + 16] = (0x2050).to_bytes(8, "little")  # the return address on top of the stack
    record[offset + 16 : offset + 24] = (0x3010).to_bytes(8, "little")  # a deeper word: not the caller
    dump = _dumped(bytes(record), 0x1004, offset) + _dumped(bytes(record), 0x2010, offset)
    samples, counted, callers = script.refcount_callers(dump, map_lines)
    assert (samples, counted, dict(callers)) == (2, 1, {"bactree.search.caller": 1})
