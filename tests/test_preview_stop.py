"""Stopping `make serve` (issue 24, item 9): SIGTERM stops it without a traceback, also in the middle of
its first build and with Snakemake hung; the Snakemake run it started ends within STOP_WAIT seconds or
is killed with its jobs, no lock stays, and `make site` then runs and publishes the bytes of a clean
build.  A page the preview rendered from an edit is not served by a later preview once the edit is
reverted."""
import contextlib
import fcntl
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from conftest import BIN, copy_built, copy_repo, tree_bytes
from test_preview import Session, free_port, get

from glossary import build, previewmeasure, previewserver

# The bound: a Snakemake run the preview started ends within 10 s of the stop, or is killed.
STOP_WAIT = 10


def folder_processes(root):
    """The live processes (but this one) working in root: make, the server, Snakemake and its jobs."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            with contextlib.suppress(OSError):      # a zombie has no working folder
                if Path(os.readlink(entry / "cwd")) == Path(root).resolve():
                    found.append(int(entry.name))
    return found


def snakemake_pid(root):
    """The Snakemake process the preview started in root."""
    for pid in folder_processes(root):
        with contextlib.suppress(OSError):
            argv = Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")
            if any(a.endswith(b"/snakemake") for a in argv[:2]) and b"--logger" in argv:
                return pid
    raise AssertionError("no Snakemake process")


def kill_left(root):
    """Kill the process groups of what runs in root (what a failure left); returns their ids."""
    left = folder_processes(root)
    for pid in left:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(os.getpgid(pid), signal.SIGKILL)
    return left


def build_lock_free(root):
    fd = os.open(Path(root) / build.LOCK, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)     # BlockingIOError while a process holds it
        return True
    finally:
        os.close(fd)


@contextlib.contextmanager
def held_build_lock(root):
    """Hold root's build lock, as a `make site` running there does."""
    fd = os.open(Path(root) / build.LOCK, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


def make_site(root):
    env = dict(os.environ, PYTHONPATH=str(root / "src"))
    return subprocess.run([str(BIN / "python"), "-m", "glossary.build"], cwd=root, env=env,
                          capture_output=True, text=True)


@pytest.mark.slow
def test_sigterm_during_the_first_build_with_snakemake_hung(built, tmp_path):
    """`kill` of make serve while its first build runs jobs and Snakemake takes no signal (stopped, as
    hung in a futex wait): the server stops without a traceback, kills Snakemake and its jobs after
    STOP_WAIT seconds, lifts Snakemake's lock and releases the build lock; make site then publishes the
    bytes of a clean build."""
    root = copy_repo(tmp_path / "glossary")
    session = Session(root, free_port())
    try:
        session.wait_for_line(": figure ")     # the first build runs jobs
        hung = snakemake_pid(root)
        os.kill(hung, signal.SIGSTOP)
        started = time.monotonic()
        os.kill(session.proc.pid, signal.SIGTERM)   # make passes SIGTERM on to the server
        with contextlib.suppress(subprocess.TimeoutExpired):
            session.proc.wait(timeout=STOP_WAIT + 60)
        assert session.proc.poll() is not None, f"make serve did not stop:\n{session.output()}"
    finally:
        if session.proc.poll() is None:
            kill_left(root)
    took = time.monotonic() - started
    out = session.output()
    assert "Traceback" not in out and "preview: stopping" in out, out
    assert "killing Snakemake and its jobs" in out and "lifted Snakemake's lock" in out, out
    assert took < STOP_WAIT + 20, (took, out)
    time.sleep(0.5)     # the last jobs' exits reach init
    assert kill_left(root) == [], "a process of the preview stayed"
    assert not any((root / ".snakemake/locks").glob("*")), "Snakemake's lock stayed"
    assert build_lock_free(root)

    run = make_site(root)
    said = run.stdout + run.stderr
    assert run.returncode == 0, said
    assert "another build" not in said and "lifted the lock" not in said, said
    assert tree_bytes(root / "site") == tree_bytes(built[0] / "site")


@pytest.mark.slow
def test_a_reverted_edit_is_not_served_after_a_restart(built, tmp_path):
    """A prose edit rendered into the overlay, the preview stopped (SIGTERM, idle), the edit reverted:
    the next preview serves the page without the edit from its start, while its first build still
    waits (here for a build lock the test holds); SIGTERM then stops it at once, without a traceback."""
    root = copy_built(built[0], tmp_path / "glossary")
    md = root / "entries/attention/entry.md"
    page = "terms/attention.html"
    original = md.read_bytes()
    sentence = "A sentence the preview alone has seen."
    first = Session(root, free_port())
    first.wait_for_line("preview: built in")
    before = len(first.lines)
    md.write_bytes(original + f"\n{sentence}\n".encode())
    first.wait_for_line("attention: page rendered", after=before)
    assert sentence.encode() in get(first.url + page)[2]
    os.kill(first.proc.pid, signal.SIGTERM)
    first.proc.wait(timeout=30)
    assert "Traceback" not in first.output() and "preview: stopping" in first.output(), first.output()
    assert (root / "results/preview" / page).is_file()      # the overlay outlives the session

    md.write_bytes(original)
    with held_build_lock(root):
        second = Session(root, free_port())
        try:
            second.wait_for_line("preview: waiting")
            status, _, body = get(second.url + page)
            assert status == 200 and sentence.encode() not in body
            assert body.replace(previewserver.TAG, b"") == \
                (root / "results/site" / page).read_bytes()
            started = time.monotonic()
            os.kill(second.proc.pid, signal.SIGTERM)
            second.proc.wait(timeout=30)
        finally:
            previewmeasure.stop(second.proc, timeout=5)
    out = second.output()
    assert "Traceback" not in out and "preview: stopping" in out, out
    assert time.monotonic() - started < 5, out
    assert kill_left(root) == []


@pytest.mark.slow
def test_a_reverted_edit_is_not_served_while_a_build_fails(built, tmp_path):
    """Prose rendered into the overlay, then one save that puts the prose back and breaks the front
    matter: the build that save needs fails, and the page served is the staged one, not the edit."""
    root = copy_built(built[0], tmp_path / "glossary")
    md = root / "entries/attention/entry.md"
    page = "terms/attention.html"
    original = md.read_bytes()
    sentence = "A sentence the preview alone has seen."
    session = Session(root, free_port())
    try:
        session.wait_for_line("preview: built in")
        before = len(session.lines)
        md.write_bytes(original + f"\n{sentence}\n".encode())
        session.wait_for_line("attention: page rendered", after=before)
        assert sentence.encode() in get(session.url + page)[2]
        before = len(session.lines)
        md.write_bytes(original.replace(b"title: Attention", b"title: [Attention", 1))
        session.wait_for_line("preview: build failed", after=before)
        status, _, body = get(session.url + page)
        assert status == 200 and sentence.encode() not in body
    finally:
        previewmeasure.stop(session.proc)
    assert "Traceback" not in session.output(), session.output()
