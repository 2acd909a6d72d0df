"""The print edition: each entry's PDF and the book, site/dictionary.pdf, typeset by pdflatex
from the same prose, figures and facts as the pages; byte-stable, and rebuilt in part after a
prose edit."""
import html
import json
import re
import shutil
import subprocess
import sys
import time
import unicodedata

import pytest
from conftest import REPO, build_elsewhere, build_site, copy_built, copy_repo, snakemake, tree_bytes

from glossary import batchfiles, jsonio, latex, typeset

sys.path.insert(0, str(REPO / "scripts"))
import new_entry  # noqa: E402

SITE_URL = "https://dictionaryofml.org/"
# TeX's specials in a title and a caption (YAML single quotes: the backslash is literal), and
# UTF-8 beyond ASCII in the title (the "Cite this entry" block once split its bytes).
SPECIAL_TITLE = r"Alpha & co: 50% of #1_x {y} ~z^ \ $ min–max of Rényi"
SPECIAL_CAPTION = r"Costs & 100% #2_y {z} ~w^ \ $ of the fit at each step."


def pdftotext(path):
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def words(text):
    """The text's words, one space apart, in NFC (pdftotext gives an accented letter as letter and
    combining accent)."""
    return " ".join(unicodedata.normalize("NFC", text).split())


def outline_titles(path):
    from pypdf import PdfReader
    reader = PdfReader(str(path))
    return [(item.title, reader.get_destination_page_number(item)) for item in reader.outline
            if not isinstance(item, list)]


def links(path):
    """[(page index, "URI" or "GoTo", URI or named destination)] of a PDF's link annotations."""
    from pypdf import PdfReader
    reader = PdfReader(str(path))
    found = []
    for i, page in enumerate(reader.pages):
        for annot in page.get("/Annots") or []:
            action = annot.get_object().get("/A")
            if action is None:
                continue
            action = action.get_object()
            if action["/S"] == "/URI":
                found.append((i, "URI", str(action["/URI"])))
            elif action["/S"] == "/GoTo":
                found.append((i, "GoTo", str(action["/D"])))
    return found, reader


def skeleton_repo(dst, slugs=("alpha", "beta")):
    """A copy of the repository whose entries are only new_entry skeletons (fast to build)."""
    root = copy_repo(dst)
    for folder in (root / "entries").iterdir():
        shutil.rmtree(folder)
    for slug in slugs:
        new_entry.create(slug, root=root)
    return root


def set_specials(root):
    md = root / "entries/alpha/entry.md"
    text = md.read_text()
    text = text.replace('title: "Alpha"', f"title: '{SPECIAL_TITLE}'")
    text = re.sub(r"caption: .*", f"caption: '{SPECIAL_CAPTION}'", text, count=1)
    md.write_text(text)


# --- the real entries ------------------------------------------------------------------

def test_entry_pdf_holds_headings_final_loss_and_vector_tick_labels(built):
    root, ran = built
    assert {"print", "book"} <= set(ran)
    pdf = root / "site/terms/attention.pdf"
    text = words(pdftotext(pdf))
    prose = batchfiles.read_build(root)["attention"]["latex"]
    headings = re.findall(r"\\(?:sub)*section\{([^}]*)\}", prose)
    assert headings
    for heading in headings:
        assert words(heading) in text, heading
    facts = json.loads((root / "results/attention/facts/train.json").read_text())
    page = (root / "site/terms/attention.html").read_text()
    final = f"{facts['final_loss']:.4f}"
    assert final in page and final in text
    assert "Attention" in text and "Cite this entry" in text and "@misc{glossary:attention," in text
    # The record reads as the page's BibTeX, its long lines continued with no arrow glyph.
    record = html.unescape(re.search(r"(@misc\{glossary:attention,.*?\n\})", page, re.S).group(1))
    assert words(record) in text and not re.search("[\u2192\u21aa]", text), text
    assert "See also: Multi-head attention." in text          # entry.md's see_also, linked to the site
    assert f"{SITE_URL}terms/attention.ipynb" in text
    # The figures' tick labels are text in the entry PDF (the figure PDFs included as vectors).
    for fig in ("loss", "weights"):
        ticks = set(pdftotext(root / f"site/terms/attention/figures/{fig}.pdf").split())
        assert ticks and ticks <= set(text.split()), (fig, ticks - set(text.split()))
    assert "Figure 1:" in text and "Figure 2:" in text
    for line in (root / "results/attention/checks/2-train.txt").read_text().splitlines():
        assert words(line) in text, line


def test_every_font_is_embedded_type1(built):
    root, _ = built
    for pdf in [root / "site/dictionary.pdf", *sorted((root / "site/terms").glob("*.pdf"))]:
        fonts = subprocess.run(["pdffonts", str(pdf)], capture_output=True, text=True, check=True).stdout
        rows = fonts.splitlines()[2:]
        assert rows, pdf
        for row in rows:
            assert "Type 1" in row and " yes " in row, (pdf, row)     # embedded outlines, no bitmaps


def test_book_lists_every_term_in_order_with_outline_and_internal_links(built):
    root, _ = built
    pdf = root / "site/dictionary.pdf"
    entries = {}
    for folder in sorted((root / "entries").iterdir()):
        title = re.search(r"^title: (.*)$", (folder / "entry.md").read_text(), re.M).group(1).strip("'\"")
        entries[folder.name] = title
    order = sorted(entries, key=lambda s: (entries[s].lower(), s))
    text = words(pdftotext(pdf))
    positions = [text.index(f"{entries[slug]} ") for slug in order]
    assert positions == sorted(positions)
    assert "@misc{glossary:" not in text          # the BibTeX records are the term PDFs' alone
    outline = outline_titles(pdf)
    titles = [t for t, _ in outline]
    assert titles == ["Contents"] + [entries[s] for s in order]
    pages = dict(outline)
    # attention's prose links to multi-head attention: a link inside the book, to that term's place.
    found, reader = links(pdf)
    assert any(kind == "GoTo" and d == "term:multi-head-attention" and i >= pages["Attention"]
               for i, kind, d in found)
    target = reader.named_destinations["term:multi-head-attention"]
    assert reader.get_destination_page_number(target) == pages["Multi-head attention"]
    # and the entry PDF links to the term's page on the site
    found, _ = links(root / "site/terms/attention.pdf")
    uris = {uri for _, kind, uri in found if kind == "URI"}
    assert f"{SITE_URL}terms/multi-head-attention.html" in uris
    assert {f"{SITE_URL}terms/attention.{ext}" for ext in ("html", "py", "ipynb")} <= uris


def test_render_first_pages_for_a_reader(built):
    """PNGs of the first pages, for a person to look at (test-artifacts/print/)."""
    root, _ = built
    out = REPO / "test-artifacts" / "print"
    out.mkdir(parents=True, exist_ok=True)
    subprocess.run(["pdftoppm", "-r", "60", "-png", "-l", "2", str(root / "site/terms/attention.pdf"),
                    str(out / "attention")], check=True)
    subprocess.run(["pdftoppm", "-r", "60", "-png", "-l", "4", str(root / "site/dictionary.pdf"),
                    str(out / "dictionary")], check=True)
    assert len(list(out.glob("attention-*.png"))) == 2 and len(list(out.glob("dictionary-*.png"))) == 4


@pytest.mark.slow
def test_prose_edit_reruns_that_entrys_print_pieces_and_no_figure(built, tmp_path):
    work = copy_built(built[0], tmp_path / "edit")
    before = tree_bytes(work / "results/site/terms/attention/figures")
    md = work / "entries/multi-head-attention/entry.md"
    text = md.read_text()
    md.write_text(text.replace("A single ", "A lone ", 1))
    started = time.time()
    run, ran = snakemake(work)
    assert not {"figure", "latex_format"} & set(ran), ran
    assert ran.count("print") == 1
    # the batch compiled the edited entry's PDF only, in one run: the other one came from its cache
    compiled = sorted(p.name for p in (work / "logs/print").glob("*.tex.log") if p.stat().st_mtime > started)
    assert compiled == ["b00.tex.log"], compiled
    marks = typeset.BATCH_MARK.findall((work / "logs/print/b00.tex.log").read_text(errors="replace"))
    assert [n for n, _ in marks] == ["1", "end"], marks
    assert "book" in ran
    assert "A lone" in words(pdftotext(work / "results/site/dictionary.pdf"))
    assert "A lone" in words(pdftotext(work / "results/site/terms/multi-head-attention.pdf"))
    assert tree_bytes(work / "results/site/terms/attention/figures") == before


# --- skeleton entries ------------------------------------------------------------------

@pytest.fixture(scope="module")
def skeleton_builds(tmp_path_factory):
    """Two clean builds of the same skeleton entries, the second under another time zone,
    locale, umask and hash seed."""
    base = tmp_path_factory.mktemp("print")
    first = skeleton_repo(base / "one")
    set_specials(first)
    build_site(first)
    second = skeleton_repo(base / "two")
    set_specials(second)
    build_elsewhere(second)
    return first, second


@pytest.mark.slow
def test_print_pdfs_byte_identical_across_clean_builds(skeleton_builds):
    first, second = skeleton_builds
    pdfs = ["site/dictionary.pdf", "site/terms/alpha.pdf", "site/terms/beta.pdf"]
    for name in pdfs:
        a, b = (first / name).read_bytes(), (second / name).read_bytes()
        assert a.startswith(b"%PDF") and a == b, name
        assert b"/CreationDate" not in a and str(first).encode() not in a
        # pdfTeX writes no /ID; a term PDF's is glossary.pdfpages' digest of its content (equal above)
        assert (b"/ID [" in a) == name.startswith("site/terms/"), name


@pytest.mark.slow
def test_tex_specials_in_title_and_caption_appear_literally(skeleton_builds):
    root = skeleton_builds[0]
    for pdf in ("site/terms/alpha.pdf", "site/dictionary.pdf"):
        text = words(pdftotext(root / pdf))
        assert SPECIAL_TITLE in text, pdf
        assert f"Figure 1: {SPECIAL_CAPTION}" in text, pdf
    assert [t for t, _ in outline_titles(root / "site/dictionary.pdf")] == ["Contents", SPECIAL_TITLE, "Beta"]
    for pdf in ("site/terms/alpha.pdf", "site/dictionary.pdf"):
        fonts = subprocess.run(["pdffonts", str(root / pdf)], capture_output=True, text=True, check=True).stdout
        assert "Type 3" not in fonts, fonts


BOOK_LIKE = r"""\documentclass{article}
\pdftrailerid{}\pdfsuppressptexinfo=-1
\usepackage{hyperref}
\begin{document}
\tableofcontents
\section{One}\label{one} See Section~\ref{two} on page~\pageref{two}.
\clearpage
\section{Two}\label{two} WORD, and Section~\ref{one}.
\end{document}
"""


def test_the_book_starts_from_its_settled_contents_and_ends_as_from_nothing(tmp_path):
    """rule book (glossary.bookrun): a run that starts from the last build's kept auxiliary files runs
    once after an edit that moves no page, and gives the bytes a run from nothing gives."""
    from glossary import bookrun
    tex, kept = tmp_path / "tex", tmp_path / "kept"

    def compile_(word, pdf, cache):
        piece = {"name": "book", "kind": "whole", "tex": BOOK_LIKE.replace("WORD", word), "nested": False}
        return bookrun.compile_book([piece], tex, tmp_path / pdf, tmp_path / "log", cache)[0].get("book", 0)

    assert compile_("A word", "first.pdf", kept) >= 2
    assert {".aux", ".out", ".toc"} <= {p.suffix for p in kept.iterdir()}
    assert compile_("A changed word", "again.pdf", kept) == 1
    assert compile_("A changed word", "fresh.pdf", tmp_path / "fresh") >= 2
    assert (tmp_path / "again.pdf").read_bytes() == (tmp_path / "fresh.pdf").read_bytes()
    assert (tmp_path / "again.pdf").read_bytes() != (tmp_path / "first.pdf").read_bytes()


# --- entries in one pdflatex run ------------------------------------------------------------

BATCH_SITE = {"title": "A test dictionary", "authors": ["A. Author", "B. Author"], "year": 2026}
# An entry of our own beside the built ones: a footnote, numbered equations, a heading and a label
# (counters and link targets that must start afresh in each entry of a batch).
GAMMA = r"""A term with a footnote.\footnote{Its note, linked to its mark.}

\hypertarget{a-heading}{%
\section{A heading}\label{a-heading}}

Two equations,
\begin{equation}\label{eq:one} a = b + c \end{equation}
\begin{equation} d = e \end{equation}
and a reference to the heading (Section~\ref{a-heading})."""


def batch_entry(root, slug, prose=None, title=None):
    """(the entry as read, its entry_fields): a built entry's section, or one set from `prose` (under
    `title`, else the slug capitalised)."""
    if prose is None:
        entry = jsonio.read(root / f"results/_entries/{slug}.json")
        text = batchfiles.read_build(root, batchfiles.SECTIONS)[slug]
    else:
        entry = {"slug": slug, "title": title or slug.capitalize(), "path": f"entries/{slug}/entry.md", "line": 1,
                 "key": slug, "body": prose, "figures": []}
        text = typeset.section(slug, dict(entry, summary="", summary_given=None, title_latex=None), prose, [],
                               REPO / "templates/print")
    return entry, typeset.entry_fields(text, entry, BATCH_SITE, SITE_URL)


def compile_batch(root, folder, entries):
    """compile_entries of `entries` ([(entry, fields)]) into folder/<slug>.pdf, each entry's own document
    written as folder/<slug>.tex, from the built format; returns its failures."""
    folder.mkdir(parents=True)
    todo = []
    for entry, fields in entries:
        tex = folder / f"{entry['slug']}.tex"
        tex.write_text(typeset.print_document([fields], BATCH_SITE, SITE_URL, REPO / "templates/print"))
        todo.append(typeset.batch_item(entry, fields, tex, folder / f"{entry['slug']}.pdf", BATCH_SITE))
    return typeset.compile_entries(
        todo, lambda fields: typeset.print_document(fields, BATCH_SITE, SITE_URL, REPO / "templates/print", batch=True),
        root / "results/print/entry.fmt", [REPO / "templates"], root / "results/site/terms", folder / "job.log")


def pixels(pdf, folder):
    """pdftoppm's PNG of each page at 72 dpi, as bytes."""
    folder.mkdir(parents=True, exist_ok=True)
    subprocess.run(["pdftoppm", "-r", "72", "-png", str(pdf), str(folder / "page")], check=True)
    return [p.read_bytes() for p in sorted(folder.glob("page-*.png"))]


def test_an_entry_compiled_in_a_batch_is_the_entry_compiled_alone(built, tmp_path):
    """A term's PDF is the same file whether its batch holds it alone or beside other entries, in any
    place; and it shows what its own document compiled alone, the way each entry was compiled before
    batches, shows."""
    root, _ = built
    entries = {slug: batch_entry(root, slug) for slug in ("attention", "multi-head-attention")}
    entries["gamma"] = batch_entry(root, "gamma", GAMMA)
    runs = {"all": ["attention", "multi-head-attention", "gamma"], "reversed": ["gamma", "multi-head-attention",
            "attention"], "attention": ["attention"], "gamma": ["gamma"], "pair": ["gamma", "attention"],
            "other pair": ["multi-head-attention", "gamma"]}
    for name, slugs in runs.items():
        assert compile_batch(root, tmp_path / name, [entries[s] for s in slugs]) == {}, name
    for slug in entries:
        made = {name: (tmp_path / name / f"{slug}.pdf").read_bytes() for name, slugs in runs.items() if slug in slugs}
        assert len(made) >= 3 and len(set(made.values())) == 1, (slug, sorted(made))
        # the old way: the entry's own document, one pdflatex run for it alone
        old = tmp_path / "old" / f"{slug}.pdf"
        old.parent.mkdir(exist_ok=True)
        latex.compile_pdf(tmp_path / "all" / f"{slug}.tex", old, tmp_path / "old" / f"{slug}.log",
                          fmt=root / "results/print/entry.fmt", inputs=[REPO / "templates"],
                          links={typeset.TERMS: root / "results/site/terms"})
        assert pixels(old, tmp_path / "png" / slug / "old") == pixels(tmp_path / "all" / f"{slug}.pdf",
                                                                      tmp_path / "png" / slug / "new"), slug
    # each PDF is its entry's alone: its title, its outline, links to the site and to its own pages only
    text = words(pdftotext(tmp_path / "all/gamma.pdf"))
    assert "Gamma" in text and "Its note" in text and "Attention" not in text
    assert [t for t, _ in outline_titles(tmp_path / "all/gamma.pdf")] == ["Gamma", "A heading"]
    found, reader = links(tmp_path / "all/gamma.pdf")
    assert any(kind == "GoTo" for _, kind, _ in found)          # the footnote mark
    for _, kind, target in found:
        if kind == "GoTo":
            assert target in reader.named_destinations, target
    assert reader.metadata["/Title"] == "Gamma" and reader.metadata["/Author"] == "A. Author, B. Author"
    assert b"/CreationDate" not in (tmp_path / "all/gamma.pdf").read_bytes()


def test_a_title_has_the_info_its_entry_compiled_alone_had(built, tmp_path):
    """The PDF's Title is what hyperref's pdftitle wrote when each entry was its own run: TeX's dash
    ligatures as dashes, not as hyphens."""
    root, _ = built
    entry = batch_entry(root, "jl", GAMMA, title="Johnson--Lindenstrauss lemma---a test")
    assert compile_batch(root, tmp_path / "batch", [entry]) == {}
    old = tmp_path / "old.pdf"
    latex.compile_pdf(tmp_path / "batch/jl.tex", old, tmp_path / "old.log", fmt=root / "results/print/entry.fmt",
                      inputs=[REPO / "templates"], links={typeset.TERMS: root / "results/site/terms"})
    alone, batched = (links(p)[1].metadata for p in (old, tmp_path / "batch/jl.pdf"))
    assert batched["/Title"] == alone["/Title"] == "Johnson\u2013Lindenstrauss lemma\u2014a test"
    assert batched["/Author"] == alone["/Author"]


def test_an_entry_that_fails_in_a_batch_is_told_and_the_others_compile(built, tmp_path):
    root, _ = built
    bad_prose = "A first line.\n\nA second line with \\undefinedmacro{} in it."
    entries = [batch_entry(root, "attention"), batch_entry(root, "bad", bad_prose), batch_entry(root, "gamma", GAMMA),
               batch_entry(root, "worse", "An unclosed \\textbf{group.")]
    failures = compile_batch(root, tmp_path / "run", entries)
    assert sorted(failures) == ["bad", "worse"]
    assert failures["bad"].startswith("entries/bad/entry.md:1: term 'bad': its PDF does not compile: ")
    assert "Undefined control sequence" in failures["bad"] and "bad.tex:" in failures["bad"]
    assert failures["worse"].startswith("entries/worse/entry.md:1: term 'worse': its PDF does not compile: ")
    assert sorted(p.name for p in (tmp_path / "run").glob("*.pdf")) == ["attention.pdf", "gamma.pdf"]
    # the PDFs of the others are those of a batch without the failing entries
    assert compile_batch(root, tmp_path / "good", [entries[0], entries[2]]) == {}
    for slug in ("attention", "gamma"):
        assert (tmp_path / "run" / f"{slug}.pdf").read_bytes() == (tmp_path / "good" / f"{slug}.pdf").read_bytes()


def test_entries_that_clash_beside_each_other_still_compile(built, tmp_path):
    """A definition of an entry's own stays in it (each entry is a group), and one that TeX makes global
    (a counter) and that a neighbour makes again has the second entry compiled in a batch of its own."""
    root, _ = built
    local = "A \\newcommand{\\mine}{local word}\\mine{} here."
    counter = "A \\newcounter{mine}\\stepcounter{mine}counter \\arabic{mine} here."
    entries = [batch_entry(root, "one", local), batch_entry(root, "two", local), batch_entry(root, "three", counter),
               batch_entry(root, "four", counter)]
    assert compile_batch(root, tmp_path / "run", entries) == {}
    for entry, _ in entries:
        slug = entry["slug"]
        assert compile_batch(root, tmp_path / slug, [batch_entry(root, slug, entry["body"])]) == {}
        assert (tmp_path / "run" / f"{slug}.pdf").read_bytes() == (tmp_path / slug / f"{slug}.pdf").read_bytes(), slug
    assert "counter 1 here" in words(pdftotext(tmp_path / "run/four.pdf"))
