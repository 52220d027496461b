"""scripts/ray_two_nodes.py: a split build on two Ray nodes in two network namespaces gives the local bytes.

The run needs root, `ip` and Ray, and a machine that allows network
namespaces (CI's does); elsewhere it is skipped with the reason. On the
smallest split game, 3 of 0-4 (7 tasks), it takes about 16 s, Ray's start
and teardown included. Both nodes always get a task: each has one CPU, so
each holds one of the two Ray workers, and the first two tasks go one to
each.
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

_spec = importlib.util.spec_from_file_location("ray_two_nodes", Path(__file__).parents[1] / "scripts" / "ray_two_nodes.py")
ray_two_nodes = importlib.util.module_from_spec(_spec)
sys.modules["ray_two_nodes"] = ray_two_nodes  # its dataclass looks its module up while it is defined
_spec.loader.exec_module(ray_two_nodes)


@pytest.mark.timeout(300)
def test_a_build_on_two_ray_nodes_in_two_namespaces_gives_the_local_bytes():
    reason = ray_two_nodes.unavailable()
    if reason:
        pytest.skip(f"the two-node Ray run cannot run here: {reason}")
    lines: list[str] = []
    try:
        report = ray_two_nodes.run(3, "01234", say=lines.append)
    except ray_two_nodes.CannotRun as err:
        pytest.skip(f"the two-node Ray run cannot run here: {err}")
    assert report.nodes == [ray_two_nodes.HEAD_IP, ray_two_nodes.WORKER_IP]
    assert sorted(report.tasks) == report.nodes and min(report.tasks.values()) >= 1, report.tasks
    assert sum(report.tasks.values()) == 7  # one per answer to the forced first guess: no part is split further
    assert report.identical
    assert ray_two_nodes.summary(report)[-1].startswith("ok: ")
    # Torn down: both namespaces gone (their processes ended first), and the run's folder.
    torn = [line for line in lines if line.startswith("torn down: ")]
    assert len(torn) == 1, lines
    names = torn[0].removeprefix("torn down: ").split(" (")[0].split(", ")
    assert len(names) == 2 and not set(names) & set(subprocess.run(["ip", "netns", "list"], capture_output=True, text=True).stdout.split())
    folder = Path(next(line for line in lines if line.startswith("ray build: ")).split()[2].rstrip(":")).parent
    assert folder.name.startswith("bactree-ray-") and not folder.exists()


@pytest.mark.parametrize(
    "broken, message",
    [
        ("geteuid", "must run as root: it creates network namespaces"),
        ("which", "no `ip` command (iproute2) to create network namespaces"),
        ("find_spec", "Ray is not installed: pip install 'bactree[cluster]'"),
    ],
)
def test_the_script_refuses_in_one_line_where_it_cannot_run(broken, message, monkeypatch, capsys):
    if broken == "geteuid":
        monkeypatch.setattr(ray_two_nodes.os, "geteuid", lambda: 1000)
    else:
        monkeypatch.setattr(ray_two_nodes.os, "geteuid", lambda: 0)
        monkeypatch.setattr(ray_two_nodes.shutil, "which", lambda name: None if broken == "which" else "/usr/sbin/ip")
        if broken == "find_spec":
            monkeypatch.setattr(ray_two_nodes.importlib.util, "find_spec", lambda name: None)
    assert ray_two_nodes.main([]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and captured.err == f"Error: {message}\n"
