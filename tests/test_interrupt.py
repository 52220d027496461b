"""Builds are safe to stop: a real `bactree build` process, interrupted by a signal, then resumed.

Ctrl-C reaches a terminal's whole process group, so SIGINT goes to the
build's session (parent and workers alike); SIGTERM, as a service manager
sends it, goes to the parent alone. Either way: exit 130 or 143 with one last
line and no traceback, no tree file written and an existing one untouched,
no temporary file and no worker process left behind, finished subproblems
kept in OUTPUT.resume, and `--resume` ending with the same bytes as a build
never stopped.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from bactree.pipeline.build import build
from bactree.game import Game
from bactree.pipeline.part_tasks import _worker_report
from bactree.treefile import dumps

GAME_3X10 = Game(3, "0123456789", False)  # first guess forced: 8 subproblems, about 4 s on 2 cores
SPLIT = ["-n", "3", "--objective", "expected", "--workers", "2"]
OLD = b"an earlier tree, which must survive\n"


def interrupted_build(folder: Path, args: list[str], sig: signal.Signals, after: str) -> tuple[int, str]:
    """Run `bactree build ARGS -o out.json` in `folder`, send `sig` once a progress line matches `after`.

    SIGINT goes to the whole session, as Ctrl-C would; SIGTERM to the parent only.
    Returns the exit status and all of stderr; checks no process of the session is left.
    """
    command = [sys.executable, "-m", "bactree.cli.main", "build", *args, "-o", "out.json"]
    process = subprocess.Popen(
        command, cwd=folder, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        text=True, start_new_session=True,
    )
    assert process.stderr is not None and process.stdout is not None
    seen = []
    for line in process.stderr:
        seen.append(line)
        if re.search(after, line):
            break
    else:
        pytest.fail("the build ended before the point to interrupt it:\n" + "".join(seen))
    if sig == signal.SIGINT:
        os.killpg(process.pid, sig)
    else:
        os.kill(process.pid, sig)
    rest = process.stderr.read()
    process.stdout.read()
    status = process.wait(timeout=60)
    deadline = time.monotonic() + 10
    while _session_processes(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _session_processes(process.pid), "worker processes outlived the build"
    return status, "".join(seen) + rest


def _session_processes(session: int) -> list[str]:
    found = subprocess.run(["pgrep", "-s", str(session)], capture_output=True, text=True).stdout
    return found.split()


def kept_files(folder: Path) -> list[str]:
    """The files left in `folder`, but the workers' memo files (`out.json.resume.memo.PID`): an exact build keeps
    there, for `--resume`, the values of the sets that took a worker `memo_store.KEEP_SECONDS` or more, so whether
    any is left depends on the machine's speed, not on a clean stop."""
    return sorted(p.name for p in folder.iterdir() if not p.name.startswith("out.json.resume.memo."))


def assert_stopped_cleanly(status: int, stderr: str, sig: signal.Signals, folder: Path, resume: bool) -> None:
    assert status == {signal.SIGINT: 130, signal.SIGTERM: 143}[sig], stderr
    assert "Traceback" not in stderr, stderr
    assert stderr.splitlines()[-1] == {signal.SIGINT: "Interrupted.", signal.SIGTERM: "Terminated."}[sig]
    assert (folder / "out.json").read_bytes() == OLD
    left = kept_files(folder)
    assert left == (["out.json", "out.json.resume"] if resume else ["out.json"]), left  # no temporary file


def run_build(folder: Path, args: list[str]) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, "-m", "bactree.cli.main", "build", *args, "-o", "out.json"]
    return subprocess.run(command, cwd=folder, stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)


def test_a_worst_case_build_stops_without_output(tmp_path: Path) -> None:
    (tmp_path / "out.json").write_bytes(OLD)
    status, stderr = interrupted_build(tmp_path, [], signal.SIGTERM, r"height 6: searching")
    assert_stopped_cleanly(status, stderr, signal.SIGTERM, tmp_path, resume=False)


def test_an_expected_build_in_one_search_stops_without_output(tmp_path: Path) -> None:
    """Mastermind's first guess is not forced, so the whole game is one search, in this process."""
    (tmp_path / "out.json").write_bytes(OLD)
    options = ["--game", "mastermind", "--symbols", "1234567", "--objective", "expected"]
    status, stderr = interrupted_build(tmp_path, options, signal.SIGINT, r"minimising total")
    assert_stopped_cleanly(status, stderr, signal.SIGINT, tmp_path, resume=False)


@pytest.mark.parametrize(
    ("budget", "sig"), [(None, signal.SIGINT), (40, signal.SIGTERM)], ids=["split-SIGINT", "budgeted-SIGTERM"]
)
def test_a_split_build_stops_and_resumes_to_the_same_bytes(tmp_path: Path, budget: int | None, sig: signal.Signals) -> None:
    options = SPLIT if budget is None else [*SPLIT, "--budget", str(budget)]
    (tmp_path / "out.json").write_bytes(OLD)
    status, stderr = interrupted_build(tmp_path, options, sig, r"\] 1/8 ")
    assert_stopped_cleanly(status, stderr, sig, tmp_path, resume=True)

    resumed = run_build(tmp_path, [*options, "--resume"])
    assert resumed.returncode == 0, resumed.stderr
    done = re.search(r"resuming: (\d+) of 8 subproblems already done", resumed.stderr)
    assert done and 1 <= int(done.group(1)) < 8, resumed.stderr
    never_stopped = build(GAME_3X10, "expected", budget=budget, workers=2).document
    assert (tmp_path / "out.new.json").read_bytes() == dumps(never_stopped)  # beside the old file, kept
    assert (tmp_path / "out.json").read_bytes() == OLD
    assert sorted(p.name for p in tmp_path.iterdir()) == ["out.json", "out.new.json"]


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")
def test_a_signal_lost_in_a_finalizer_still_stops_the_build() -> None:
    """Python drops an exception raised while a finalizer runs; `stop_on_signals` remembers the signal anyway."""
    from bactree.cli.exits import Terminated, stop_on_signals

    class SignalsWhileCollected:
        def __init__(self, sig: signal.Signals) -> None:
            self.sig = sig

        def __del__(self) -> None:
            os.kill(os.getpid(), self.sig)  # the handler's exception is raised here, and dropped

    for sig, raised in ((signal.SIGINT, KeyboardInterrupt), (signal.SIGTERM, Terminated)):
        with pytest.raises(raised), stop_on_signals() as raise_if_signalled:
            SignalsWhileCollected(sig)  # collected at once: the signal's exception is lost
            raise_if_signalled()
        with pytest.raises(raised), stop_on_signals():
            SignalsWhileCollected(sig)
            raise SystemError("what numba makes of an exception raised in Python code it called")


@pytest.mark.parametrize("signal_error,status,line", [("KeyboardInterrupt", 130, "Interrupted."), ("Terminated", 143, "Terminated.")])
def test_a_finalizer_failing_after_a_signal_prints_no_traceback(signal_error: str, status: int, line: str) -> None:
    """A signal landing while an object is half built (as in numba's compiler) leaves its finalizer failing later."""
    script = f"""
import typer
from bactree.cli.exits import Terminated, cli_errors

class HalfBuilt:
    def __del__(self):
        raise AttributeError("no _ptr")

def compile_kernel():
    half = HalfBuilt()
    raise {signal_error}

try:
    with cli_errors():
        compile_kernel()
except typer.Exit as stop:
    raise SystemExit(stop.exit_code)
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stderr) == (status, line + "\n")


def test_a_signal_landing_in_a_finalizer_prints_no_traceback() -> None:
    """The build's handler raises inside a finalizer: Python drops that exception, and must not print it."""
    script = """
import os, signal
import typer
from bactree.cli.exits import cli_errors

class SignalsWhileCollected:
    def __del__(self):
        os.kill(os.getpid(), signal.SIGINT)

try:
    with cli_errors() as raise_if_signalled:  # as every command runs
        SignalsWhileCollected()
        raise_if_signalled()
except typer.Exit as stop:
    raise SystemExit(stop.exit_code)
"""
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)
    assert (result.returncode, result.stderr) == (130, "Interrupted.\n")


def test_a_workers_progress_line_goes_out_in_one_write(monkeypatch: pytest.MonkeyPatch) -> None:
    """stderr writes through, so a line written in two parts could lose its newline to a worker killed between them."""
    writes: list[str] = []

    class Recorder:
        def write(self, text: str) -> int:
            writes.append(text)
            return len(text)

        def flush(self) -> None:
            pass

    monkeypatch.setattr(sys, "stderr", Recorder())
    _worker_report("012 1B1C")("greedy tree: total 153")
    assert len(writes) == 1 and writes[0].startswith("  [012 1B1C] greedy tree: total 153 (") and writes[0].endswith(
        "s of CPU)\n"), writes


@pytest.mark.timeout(300)  # the pool of issue 34 replaced the dead worker and waited for its task forever
def test_a_worker_killed_mid_build_ends_it_with_one_line_and_resume_finishes(tmp_path: Path) -> None:
    """A worker killed under a task (as the out-of-memory killer does): one Error line, the file kept, --resume ends it."""
    (tmp_path / "out.json").write_bytes(OLD)
    command = [sys.executable, "-m", "bactree.cli.main", "build", *SPLIT, "-o", "out.json"]
    process = subprocess.Popen(command, cwd=tmp_path, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    assert process.stderr is not None
    seen = []
    for line in process.stderr:
        seen.append(line)
        if re.search(r"\] 1/8 ", line):
            break
    else:
        pytest.fail("the build ended before a worker could be killed:\n" + "".join(seen))
    workers = subprocess.run(["pgrep", "-P", str(process.pid)], capture_output=True, text=True).stdout.split()
    assert workers, "no worker process found"
    os.kill(int(workers[0]), signal.SIGKILL)
    stderr = "".join(seen) + process.stderr.read()
    assert process.wait(timeout=60) == 2, stderr
    assert re.fullmatch(r"Error: a local worker was killed by signal SIGKILL (during its task|before its task began)",
                        stderr.splitlines()[-1]), stderr
    assert "Traceback" not in stderr
    assert (tmp_path / "out.json").read_bytes() == OLD
    assert kept_files(tmp_path) == ["out.json", "out.json.resume"]
    deadline = time.monotonic() + 10
    while _session_processes(process.pid) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _session_processes(process.pid), "worker processes outlived the build"
    resumed = run_build(tmp_path, [*SPLIT, "--resume", "--force"])  # asked to replace the old file
    assert resumed.returncode == 0, resumed.stderr
    assert (tmp_path / "out.json").read_bytes() == dumps(build(GAME_3X10, "expected", workers=2).document)
