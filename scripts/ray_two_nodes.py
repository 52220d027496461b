"""Run a split build on a two-node Ray cluster made of two network namespaces of this machine.

Usage: python scripts/ray_two_nodes.py [-n LENGTH] [--symbols SYMBOLS]   (as root: it makes namespaces)

It makes two network namespaces (bactree-head-PID, bactree-worker-PID)
joined by a veth pair with private addresses (10.77.0.1/24 and 10.77.0.2/24)
and no other link or route, so the cluster reaches nothing outside and
nothing outside reaches it. `ray start --head` runs in the first and
`ray start --address` in the second, one CPU each (so one bactree worker
each), no dashboard, Ray's files in a folder of this run and a token of
this run. Then, in the head's namespace, `bactree build -O expected
--executor ray --address 10.77.0.1:6380` of the game (default: 4 of 0-9,
about half a minute), whose progress says how many tasks ended on each
node; then the same build with `--executor local`, and the two tree files
are compared byte for byte.

It is two Ray nodes, each with its own raylet, object store and address,
whose tasks and objects travel over TCP between namespaces; it is not two
machines: both share this machine's cores, memory and files.

Everything is torn down at the end, also on failure, Ctrl-C or SIGTERM:
the processes of each namespace are ended (SIGTERM, then SIGKILL after
3 s: Ray 2.60's GCS server was seen to hang for over 10 s on SIGTERM), the
namespaces deleted (the veth pair with them), and the run's folder removed
(kept on failure, with Ray's logs and the builds' progress). `ray stop` is
not used: it ends every Ray process of the machine, not only this run's.

Exit 0 when tasks ended on both nodes and the two files are identical, 1
otherwise, 2 (one line) when it cannot run here: not root, no `ip`, no Ray.
The bactree and Ray of this Python's environment run everywhere.
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import importlib.util
import json
import os
import re
import secrets
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterator

HEAD_IP, WORKER_IP = "10.77.0.1", "10.77.0.2"
PREFIX = 24
# Every port Ray opens, in 6380-6499, in each namespace (nothing else listens there). Ray's defaults are spread
# from 6379 to 65535, the workers' included.
GCS_PORT = 6380
RAY_PORTS = (
    "--node-manager-port=6381", "--object-manager-port=6382", "--dashboard-agent-listen-port=6383",
    "--dashboard-agent-grpc-port=6384", "--metrics-export-port=6385", "--runtime-env-agent-port=6386",
    "--min-worker-port=6400", "--max-worker-port=6499",
)
STORE_BYTES = 128 << 20  # each node's object store: the answer table of 4 of 0-9 is 25 MB
START_SECONDS = 120.0  # for a node to start and join
STOP_SECONDS = 3.0  # for a namespace's processes to end after SIGTERM, before SIGKILL (Ray 2.60's GCS server hangs on it)


class Failure(Exception):
    """A step that went wrong: the run ends, everything torn down, exit 1."""


class CannotRun(Failure):
    """This machine cannot run it (not root, no `ip`, no Ray, no namespaces): exit 2."""


def unavailable() -> str | None:
    """Why this cannot run here, in one line, or None."""
    if os.geteuid() != 0:
        return "must run as root: it creates network namespaces"
    if shutil.which("ip") is None:
        return "no `ip` command (iproute2) to create network namespaces"
    if importlib.util.find_spec("ray") is None:
        return "Ray is not installed: pip install 'bactree[cluster]'"
    return None


def _run(command: list[str], what: str, timeout: float = 60.0, log: Path | None = None, **options) -> subprocess.CompletedProcess:
    """Run `command`, its output kept; a non-zero exit or a timeout is a `Failure` saying `what` failed.

    With `log`, its stderr goes to that file as it comes (there after a
    failure or Ctrl-C too), not into the result.
    """
    with open(log, "w") if log else contextlib.nullcontext(subprocess.PIPE) as stderr:
        try:
            done = subprocess.run(command, check=False, stdout=subprocess.PIPE, stderr=stderr, text=True, timeout=timeout,
                                  stdin=subprocess.DEVNULL, **options)
        except subprocess.TimeoutExpired:
            raise Failure(f"{what}: no end after {timeout:.0f} s") from None
    if done.returncode != 0:
        lines = (log.read_text() if log else done.stderr or done.stdout).strip().splitlines()
        raise Failure(f"{what}: exit {done.returncode}: {lines[-1] if lines else 'no message'}")
    return done


def _in(namespace: str, command: list[str]) -> list[str]:
    return ["ip", "netns", "exec", namespace, *command]


def _pids(namespace: str) -> list[int]:
    """The live processes of a network namespace (a zombie no longer holds it)."""
    done = subprocess.run(["ip", "netns", "pids", namespace], check=False, capture_output=True, text=True)
    live = []
    for pid in map(int, done.stdout.split()):
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue  # gone meanwhile
        if state not in ("Z", "X"):
            live.append(pid)
    return live


def _signal_all(pids: list[int], number: int) -> None:
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, number)


def _end_processes(namespace: str) -> None:
    """End every process of `namespace` (all of them this run's): SIGTERM, then SIGKILL after `STOP_SECONDS`."""
    for number, seconds in ((signal.SIGTERM, STOP_SECONDS), (signal.SIGKILL, STOP_SECONDS)):
        deadline = time.monotonic() + seconds
        while (pids := _pids(namespace)) and time.monotonic() < deadline:
            _signal_all(pids, number)  # again each round: a raylet may have started a worker meanwhile
            time.sleep(0.2)
        if not pids:
            return
    raise Failure(f"processes {pids} of namespace {namespace} outlived SIGKILL")


@contextlib.contextmanager
def _teardown_uninterrupted() -> Iterator[None]:
    """Ctrl-C and SIGTERM wait until the teardown is done (it is bounded), so that it leaves nothing behind."""
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@dataclass
class Report:
    """What a run showed."""

    nodes: list[str]  # the addresses of the cluster's live nodes before the build
    tasks: dict[str, int]  # tasks that ended on each node, by address, as the build said
    ray_seconds: float
    local_seconds: float
    identical: bool
    size: int  # bytes of the Ray build's tree file
    sha256: str


# Run in the head's namespace with ADDRESS COUNT SECONDS: waits up to SECONDS for COUNT live nodes, prints their addresses.
_NODES_SCRIPT = """
import json, logging, sys, time
import ray
ray.init(address=sys.argv[1], logging_level=logging.ERROR, log_to_driver=False)
deadline = time.monotonic() + float(sys.argv[3])
while True:
    alive = sorted(node["NodeManagerAddress"] for node in ray.nodes() if node["Alive"])
    if len(alive) >= int(sys.argv[2]) or time.monotonic() > deadline:
        break
    time.sleep(0.2)
print(json.dumps(alive))
"""


class TwoNodes:
    """The two namespaces, the veth pair between them and a Ray node in each; `close` undoes whatever was made."""

    def __init__(self, folder: Path, say: Callable[[str], None]) -> None:
        tag = str(os.getpid())
        self.head, self.worker = f"bactree-head-{tag}", f"bactree-worker-{tag}"
        self.folder, self.say = folder, say
        self.address = f"{HEAD_IP}:{GCS_PORT}"
        # A token of this run for every Ray process (Ray checks it on each connection); nothing read from ~/.ray.
        self.env = {**os.environ, "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN": secrets.token_hex(32)}
        self.env.pop("RAY_AUTH_TOKEN_PATH", None)
        self.env.pop("RAY_ADDRESS", None)  # every command names its cluster
        self._made: list[str] = []  # namespaces created, in order

    def open(self) -> list[str]:
        """Make the namespaces and the link, start both nodes; the addresses of the live nodes."""
        self._namespaces()
        for namespace, ip, role in ((self.head, HEAD_IP, "head"), (self.worker, WORKER_IP, "worker")):
            started = time.perf_counter()
            self._start_node(namespace, ip, role)
            self.say(f"{role} node started at {ip} in namespace {namespace} ({time.perf_counter() - started:.1f} s)")
        started = time.perf_counter()
        done = _run(
            _in(self.head, [sys.executable, "-c", _NODES_SCRIPT, self.address, "2", str(START_SECONDS)]),
            "waiting for both nodes", START_SECONDS + 60, env=self.env, cwd=self.folder,
        )
        nodes = json.loads(done.stdout.strip().splitlines()[-1])
        if nodes != sorted([HEAD_IP, WORKER_IP]):
            raise Failure(f"the cluster's live nodes are {nodes}, not {HEAD_IP} and {WORKER_IP}")
        self.say(f"the head sees both nodes live ({time.perf_counter() - started:.1f} s)")
        return nodes

    def _namespaces(self) -> None:
        head_link, worker_link = f"btr{os.getpid()}h", f"btr{os.getpid()}w"  # at most 15 characters
        for namespace in (self.head, self.worker):
            try:
                _run(["ip", "netns", "add", namespace], f"ip netns add {namespace}")
            except Failure as err:
                if not self._made and re.search(r"not permitted|Permission denied", str(err)):
                    raise CannotRun(f"cannot create a network namespace here: {err}") from None
                raise
            self._made.append(namespace)
        # Each end is made inside its namespace: neither appears among this machine's own links.
        _run(["ip", "link", "add", head_link, "netns", self.head, "type", "veth", "peer", "name", worker_link,
              "netns", self.worker], "creating the veth pair")
        for namespace, link, ip in ((self.head, head_link, HEAD_IP), (self.worker, worker_link, WORKER_IP)):
            _run(["ip", "-n", namespace, "link", "set", "lo", "up"], f"loopback up in {namespace}")
            _run(["ip", "-n", namespace, "addr", "add", f"{ip}/{PREFIX}", "dev", link], f"address {ip} on {link}")
            _run(["ip", "-n", namespace, "link", "set", link, "up"], f"{link} up")

    def _start_node(self, namespace: str, ip: str, role: str) -> None:
        temp = self.folder / role  # Ray's sockets live here: the path must stay short (Unix sockets: 107 bytes)
        temp.mkdir()
        joins = ["--head", f"--port={GCS_PORT}", "--include-dashboard=false"] if role == "head" else [f"--address={self.address}"]
        command = [
            sys.executable, "-m", "ray.scripts.scripts", "start", *joins, f"--node-ip-address={ip}", "--num-cpus=1",
            f"--object-store-memory={STORE_BYTES}", f"--temp-dir={temp}", "--disable-usage-stats", *RAY_PORTS,
        ]
        _run(_in(namespace, command), f"ray start ({role}, {namespace})", START_SECONDS, env=self.env, cwd=self.folder)

    def build(self, name: str, args: list[str], executor: list[str], namespace: str | None) -> tuple[float, str, Path]:
        """Run `bactree build ARGS EXECUTOR -o FOLDER/NAME.json` (in `namespace`, if given): (seconds, its progress, the file).

        From the run's folder, so that `python -m` imports bactree from the
        environment, as Ray's workers do, and not from the current folder.
        """
        output, log = self.folder / f"{name}.json", self.folder / f"{name}.log"
        command = [sys.executable, "-m", "bactree", "build", *args, *executor, "-o", str(output)]
        started = time.perf_counter()
        done = _run(_in(namespace, command) if namespace else command, f"the {name} build", 3600, log, env=self.env,
                    cwd=self.folder)
        seconds = time.perf_counter() - started
        self.say(f"{name} build: {done.stdout.strip()} ({seconds:.1f} s wall)")
        return seconds, log.read_text(), output

    def close(self) -> None:
        """End the processes of both namespaces, then delete them (and the veth pair): nothing left running."""
        with _teardown_uninterrupted():
            started = time.perf_counter()
            problems, gone = [], []
            for namespace in reversed(self._made):
                try:
                    _end_processes(namespace)
                    _run(["ip", "netns", "delete", namespace], f"ip netns delete {namespace}")
                    gone.append(namespace)
                except Failure as err:
                    problems.append(str(err))
            self._made = []
            if gone:
                self.say(f"torn down: {', '.join(gone)} (their processes ended, the namespaces and the veth pair deleted; "
                         f"{time.perf_counter() - started:.1f} s)")
            if problems:
                raise Failure("; ".join(problems))


def tasks_per_node(progress: str) -> dict[str, int]:
    """The build's "tasks per node: ADDRESS COUNT, ..." line, read back."""
    lines = re.findall(r"tasks per node: (.*)$", progress, re.MULTILINE)
    if len(lines) != 1:
        raise Failure(f"the Ray build printed {len(lines)} 'tasks per node' lines, not one")
    return {node: int(count) for node, count in (item.rsplit(" ", 1) for item in lines[0].split(", "))}


def run(length: int, symbols: str, say: Callable[[str], None] = lambda line: print(line, flush=True)) -> Report:
    """Build 'LENGTH of SYMBOLS' (expected) on two Ray nodes in two namespaces and locally; what it showed.

    Raises `Failure` (`CannotRun` when this machine cannot) after tearing
    everything down; the run's folder, with Ray's logs, is then kept.
    """
    reason = unavailable()
    if reason:
        raise CannotRun(reason)
    folder = Path(tempfile.mkdtemp(prefix="bactree-ray-"))
    kept = True
    try:
        cluster = TwoNodes(folder, say)
        try:
            nodes = cluster.open()
            args = ["-O", "expected", "-n", str(length), "--symbols", symbols]
            ray_seconds, progress, on_ray = cluster.build("ray", args, ["--executor", "ray", "--address", cluster.address],
                                                          cluster.head)
        finally:
            cluster.close()
        local_seconds, _, local = cluster.build("local", args, ["--executor", "local"], None)
        made = on_ray.read_bytes()
        report = Report(nodes, tasks_per_node(progress), ray_seconds, local_seconds, made == local.read_bytes(), len(made),
                        hashlib.sha256(made).hexdigest())
        kept = False
        return report
    finally:
        if kept and any(folder.iterdir()):
            say(f"Ray's logs and the builds' progress kept in {folder}")
        else:
            shutil.rmtree(folder)


def summary(report: Report) -> list[str]:
    """The report's lines, the verdict last."""
    spread = all(report.tasks.get(node, 0) > 0 for node in report.nodes)
    lines = [
        f"nodes:          {HEAD_IP} (head, the build's driver and one worker), {WORKER_IP} (one worker)",
        "tasks per node: " + ", ".join(f"{node} {report.tasks.get(node, 0)}" for node in report.nodes),
        f"ray build:      {report.ray_seconds:.1f} s wall (Ray's start not counted)",
        f"local build:    {report.local_seconds:.1f} s wall",
        f"tree files:     {'identical' if report.identical else 'DIFFERENT'} ({report.size} bytes, sha256 {report.sha256[:16]}...)",
    ]
    if spread and report.identical:
        lines.append("ok: tasks ended on both nodes, and the Ray build's file is the local build's, byte for byte")
    else:
        lines.append("FAILED: " + ("the files differ" if not report.identical else "a node ran no task"))
    return lines


def _terminated(number: int, frame: object) -> None:
    """SIGTERM ends the run as Ctrl-C does, through the teardown, with exit 143."""
    raise SystemExit(128 + number)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0], epilog="Example: sudo python scripts/ray_two_nodes.py -n 3 --symbols 01234")
    parser.add_argument("-n", "--length", type=int, default=4, help="positions in a code (default 4)")
    parser.add_argument("--symbols", default="0123456789", help="the alphabet, no repeats (default 0123456789)")
    args = parser.parse_args(argv)
    reason = unavailable()
    if reason:
        print(f"Error: {reason}", file=sys.stderr)
        return 2
    signal.signal(signal.SIGTERM, _terminated)
    began = time.perf_counter()
    try:
        report = run(args.length, args.symbols)
    except CannotRun as err:
        print(f"Error: {err}", file=sys.stderr)
        return 2
    except Failure as err:
        print(f"FAILED: {err}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    lines = summary(report)
    print("\n".join(lines))
    print(f"whole run:      {time.perf_counter() - began:.1f} s wall")
    return 0 if lines[-1].startswith("ok:") else 1


if __name__ == "__main__":
    sys.exit(main())
