"""`make serve` on a LaTeX dictionary with mistakes: a draft.  Every term that builds is served, as the
build makes it; each term that does not has a page listing its mistakes with the source lines (escaped),
linked from the index; `make site` still publishes nothing.  On a copy of tests/fixtures/texdict."""
import html
import os
import signal
import subprocess
import sys
import urllib.error
import urllib.request

import pytest
from conftest import REPO
from test_preview_dictionary import Server, copy_fixture, get

from glossary import dictionary

# The mistakes: an undefined key in 'learningrate' (its source line holds "<" and "&" to escape), and
# braces that do not close in 'model'.
BREAKS = [("TinyDict_Models.tex", "\\gls{learningrate}\\index", "\\gls{learningrat}$a<b$ \\& \\index"),
          ("TinyDict_Models.tex", "{name={model},", "{name={model,")]


@pytest.fixture(scope="module")
def draft(tmp_path_factory):
    base = tmp_path_factory.mktemp("draft-preview")
    source = copy_fixture(base / "dictionary")
    for name, old, new in BREAKS:
        path = source.parent / name
        text = path.read_text(encoding="utf-8")
        assert old in text
        path.write_text(text.replace(old, new, 1), encoding="utf-8")
    server = Server(source, base / "out")
    try:
        server.wait_for_line("preview: built in", timeout=900)
        server.source = source
        yield server
    finally:
        os.killpg(server.proc.pid, signal.SIGTERM)
        server.proc.wait(timeout=60)


def test_the_terms_that_build_are_served(draft):
    read, found = dictionary.check(draft.source)
    assert {"learningrate", "model"} <= set(read["left_out"]) and found
    for slug in read["entries"]:
        page = get(draft.url + f"terms/{slug}.html")
        assert "This term does not build yet" not in page
    staged = draft.out / "results" / "site" / "terms"
    assert sorted(p.stem for p in staged.glob("*.html")) == sorted(read["entries"])


def test_each_term_that_does_not_build_has_a_page_of_its_mistakes(draft):
    read, found = dictionary.check(draft.source)
    page = get(draft.url + "terms/learningrate.html")
    assert "This term does not build yet" in page
    m = next(m for m in found if m.term == "learningrate")
    assert html.escape(f"{m.file}:{m.line}:{m.column}") in page and html.escape(m.what) in page
    line = (draft.source.parent / m.file).read_text(encoding="utf-8").splitlines()[m.line - 1]
    assert html.escape(line) in page and "$a<b$" not in page and "$a&lt;b$ \\&amp;" in page
    assert "braces of this entry do not close" in get(draft.url + "terms/model.html")


def test_the_index_links_to_them(draft):
    index = get(draft.url + "index.html")
    assert 'id="draft-mistakes"' in index
    assert 'href="terms/learningrate.html"' in index and 'href="terms/model.html"' in index
    # the staged site itself is the build's: the notice is the preview's own
    assert 'draft-mistakes' not in (draft.out / "results" / "site" / "index.html").read_text(encoding="utf-8")


def test_make_site_still_publishes_nothing(draft, tmp_path):
    run = subprocess.run([sys.executable, "-m", "glossary.build", "--cores", "1", "--source", str(draft.source),
                          "--out", str(tmp_path / "out")], capture_output=True, text=True, timeout=300,
                         env=dict(os.environ, PYTHONPATH=str(REPO / "src")))
    assert run.returncode == 1 and "learningrat" in run.stderr, run.stderr
    assert not (tmp_path / "out" / "site").exists()
    with pytest.raises(urllib.error.HTTPError):
        urllib.request.urlopen(draft.url + "terms/no-such-term.html", timeout=10)
