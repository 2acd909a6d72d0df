"""`make serve SOURCE=... OUT=...`: the live preview of a LaTeX dictionary, on a copy of the project's
fixture tests/fixtures/texdict.  A save that changes one term's description re-renders that term's
page alone, in the preview's own process (no Snakemake run), and the served page is the build's with
the new word; a save that changes a term's name runs a build instead.  The server is
`python -m glossary.preview --source --out`, which the Makefile's serve target runs."""
import os
import re
import shutil
import subprocess
import sys
import threading
import time
import urllib.request

import pytest
from conftest import REPO

from glossary import previewmeasure, previewserver

FIXTURE = REPO / "tests" / "fixtures" / "texdict"
TERM, GLOSSARY = "matrix", "TinyDict_Math.tex"
OLD, NEW = "rectangular table", "quadrangular table"


def get(url):
    with urllib.request.urlopen(url, timeout=10) as r:
        return r.read().decode("utf-8")


def copy_fixture(dst):
    """The fixture with no demos in its YAML: a demo's training would only lengthen the build here."""
    shutil.copytree(FIXTURE, dst)
    config = dst / "dictionary.yaml"
    config.write_text(re.sub(r"^demos:\n(?:[ \t]+.*\n?)*", "", config.read_text(), flags=re.M))
    return config


class Server:
    """python -m glossary.preview --source --out on a free port; its output lines as they come."""

    def __init__(self, source, out):
        port = free_port()
        self.url, self.out, self.lines = f"http://127.0.0.1:{port}/", out, []
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "glossary.preview", "--port", str(port), "--cores", "2", "--source", str(source),
             "--out", str(out)], cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO / "src")),
            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
        threading.Thread(target=lambda: self.lines.extend(self.proc.stdout), daemon=True).start()

    def wait_for_line(self, text, after=0, timeout=300):
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for line in self.lines[after:]:
                if text in line:
                    return line
            assert self.proc.poll() is None, "the preview stopped:\n" + "".join(self.lines)
            time.sleep(0.05)
        raise AssertionError(f"no line {text!r} from the preview:\n" + "".join(self.lines))


def free_port():
    import socket
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def shown(html):
    """A served page without the preview's script tag: the page as the build wrote it."""
    return html.replace(previewserver.TAG.decode(), "")


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    base = tmp_path_factory.mktemp("preview-dictionary")
    source = copy_fixture(base / "dictionary")
    server = Server(source, base / "out")
    server.wait_for_line("preview: built in")
    server.source = source
    yield server
    previewmeasure.stop(server.proc)


def overlay(out):
    return sorted(p.name for p in (out / "results/preview/terms").glob("*.html"))


def test_a_description_edit_renders_that_page_alone_in_process(served):
    path = served.source.parent / GLOSSARY
    original = path.read_text(encoding="utf-8")
    built = {p.name: p.read_bytes() for p in (served.out / "results/site/terms").glob("*.html")}
    page = served.url + f"terms/{TERM}.html"
    before = shown(get(page))
    assert OLD in before and NEW not in before
    at = len(served.lines)
    try:
        path.write_text(original.replace(OLD, NEW, 1), encoding="utf-8")
        line = served.wait_for_line(f"{TERM}: page rendered in", after=at, timeout=30)
        assert "(prose only)" in line
        deadline = time.monotonic() + 5
        while NEW not in get(page) and time.monotonic() < deadline:
            time.sleep(0.05)
        after = shown(get(page))
        # the build's page with the one word changed: its body, and the summary its first sentence gives
        assert after == before.replace("rectangular", "quadrangular")
        assert overlay(served.out) == [f"{TERM}.html"]
        assert not any("building" in line for line in served.lines[at:])
        # the staged pages are the build's, untouched
        assert {p.name: p.read_bytes() for p in (served.out / "results/site/terms").glob("*.html")} == built
        # putting the word back renders the build's page again
        at = len(served.lines)
        path.write_text(original, encoding="utf-8")
        served.wait_for_line(f"{TERM}: page rendered in", after=at, timeout=30)
        assert shown(get(page)) == before
    finally:
        path.write_text(original, encoding="utf-8")


def rendered_with(served, text, timeout=300):
    """The preview's rendered page of TERM once it holds text: a line in the log may announce an earlier
    save's render (a test's last write of the original, which changed nothing)."""
    page = served.out / "results/preview/terms" / f"{TERM}.html"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        shown = page.read_bytes() if page.is_file() else b""
        if text.encode() in shown:
            return shown
        time.sleep(0.05)
    raise AssertionError(f"the preview's page of {TERM} never held {text!r}:\n" + "".join(served.lines))


def test_a_save_that_empties_the_file_first_is_one_edit(served):
    """An editor that saves by truncating the file and then writing it: the moment it lies empty is no
    edit (no build of a dictionary without its math terms); the edit's page is rendered in process."""
    path = served.source.parent / GLOSSARY
    original = path.read_text(encoding="utf-8")
    at = len(served.lines)
    try:
        with open(path, "w", encoding="utf-8") as f:
            time.sleep(0.3)         # ten times the watch's debounce: the empty file is seen alone
            f.write(original.replace(OLD, NEW, 1))
        rendered_with(served, NEW, timeout=30)
        line = served.wait_for_line(f"{TERM}: page rendered in", after=at, timeout=30)
        assert "(prose only)" in line
        assert not any("building" in line or "mistake" in line for line in served.lines[at:]), served.lines[at:]
    finally:
        at = len(served.lines)
        path.write_text(original, encoding="utf-8")
        served.wait_for_line(f"{TERM}: page rendered in", after=at, timeout=300)     # the server is idle again


def test_a_description_edit_shows_the_page_make_site_publishes(served):
    """The page the preview renders for a saved description edit is, byte for byte, the one `make site`
    then publishes.  (That build is not the server's: its baseline stays the last build's until the next
    test's build renews it.)"""
    path = served.source.parent / GLOSSARY
    original = path.read_text(encoding="utf-8")
    at = len(served.lines)
    try:
        path.write_text(original.replace(OLD, NEW, 1), encoding="utf-8")
        # the build the last test's edit started may finish first (minutes on a loaded 2-core machine)
        served.wait_for_line(f"{TERM}: page rendered in", after=at, timeout=300)
        shown = rendered_with(served, NEW)
        site = subprocess.run(
            [sys.executable, "-m", "glossary.build", "--cores", "2", "--source", str(served.source),
             "--out", str(served.out)], cwd=REPO, env=dict(os.environ, PYTHONPATH=str(REPO / "src")),
            capture_output=True, text=True)
        assert site.returncode == 0, site.stdout + site.stderr
        assert (served.out / "site/terms" / f"{TERM}.html").read_bytes() == shown
    finally:
        at = len(served.lines)
        path.write_text(original, encoding="utf-8")
        served.wait_for_line(f"{TERM}: page rendered in", after=at, timeout=300)    # the server is idle again


def test_a_name_edit_runs_a_build(served):
    path = served.source.parent / GLOSSARY
    original = path.read_text(encoding="utf-8")
    old, new = "{name={matrix},", "{name={matrix of numbers},"
    assert old in original
    at = len(served.lines)
    try:
        path.write_text(original.replace(old, new, 1), encoding="utf-8")
        line = served.wait_for_line("preview: building (", after=at, timeout=30)
        assert GLOSSARY in line
        served.wait_for_line("preview: built in", after=at, timeout=240)
        assert not any("page rendered" in line for line in served.lines[at:])
        assert "matrix of numbers" in get(served.url + f"terms/{TERM}.html")
        assert overlay(served.out) == []
    finally:
        path.write_text(original, encoding="utf-8")
