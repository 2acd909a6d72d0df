"""The site audit (glossary.audit, `make audit`) on the fixture dictionary, built once: it passes, and
each of its checks fails, naming the page and the problem, on a copy of the built site broken on
purpose (an over-wide element, a reference showing another number than its target, a figure
number shown twice, "??" in a page, a figure whose strokes are faint in the dark scheme, TeX in a
description, an image without alt text).  The fidelity to the authors' book (glossary.fidelity):
the fixture's own book (pdflatex, bibtex, as latexmk runs them) split into its entries, each term
compared with its page; an entry whose heading the book lost is still found."""
import json
import os
import re
import shutil
import subprocess
import sys

import numpy as np
import pytest
from conftest import REPO, made_once
from PIL import Image, ImageDraw

from glossary import audit, auditpage, fidelity, mathml, texdict

FIXTURE = REPO / "tests" / "fixtures" / "texdict"


def fixture_site(tmp_path_factory):
    """One build per test run (shared by the xdist workers) of the fixture dictionary, as
    `make site SOURCE= OUT=` does it."""
    return made_once(tmp_path_factory, "audit", build_fixture)[0] / "out" / "site"


def build_fixture(folder):
    run = subprocess.run([sys.executable, "-m", "glossary.build", "--cores", "2", "--source",
                          str(FIXTURE / "dictionary.yaml"), "--out", str(folder / "out")], cwd=REPO,
                         capture_output=True, text=True, timeout=1500,
                         env=dict(os.environ, PYTHONPATH=str(REPO / "src")))
    assert run.returncode == 0, f"build failed:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return fixture_site(tmp_path_factory)


@pytest.fixture(scope="module")
def audited(site):
    return audit.run(site, jobs=1)


def cli(site, *args):
    return subprocess.run([sys.executable, "-m", "glossary.audit", "--site", str(site), *args], cwd=REPO,
                          capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(REPO / "src")))


@pytest.mark.slow
def test_the_fixture_passes_the_audit(site, audited):
    figures, failures = audited
    assert failures == [], audit.report(site, figures, failures, show=200)


@pytest.mark.slow
def test_the_audit_looks_at_every_page_reference_and_picture(site, audited):
    figures, _ = audited
    assert figures["pages"] == len(list(site.rglob("*.html"))) >= 20
    # every \ref and \eqref of the terms' prose (pictures aside) is a reference the audit compared
    terms = texdict.read(FIXTURE / "TinyDict_Main.tex")["entries"]
    picture = re.compile(r"\\begin\{tikzpicture\}.*?\\end\{tikzpicture\}", re.S)
    prose = [picture.sub("", t["body"]) for t in terms.values()]
    refs = sum(len(re.findall(r"\\(?:eq)?ref\{", body)) for body in prose)
    assert figures["refs"]["shown"] >= refs >= 15
    pictures = sum(len(re.findall(r'<img src="[^"]+\.svg"', p.read_text())) for p in (site / "terms").glob("*.html"))
    assert figures["contrast"]["figures"] == pictures >= 7
    assert figures["pdfs"] == len(list(site.rglob("*.pdf")))
    # every numbered figure's caption label on a term page (not a subfigure's "(a)"), checked in its PDF
    label = re.compile(r'class="figure-label">(?:<a [^>]*>)?<strong>[^(<]|<span class="label">')
    labels = sum(len(label.findall(p.read_text())) for p in (site / "terms").glob("*.html"))
    assert figures["captions"] == {"labels": labels, "unlike": 0} and labels >= 5


# --- each check fails on a site broken on purpose ----------------------------------------------

# Strokes drawn for a dark page (light grey, no background of their own): faint on the light panel
# the site puts behind a picture.
FAINT = ('<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100" viewBox="0 0 200 100">'
         '<path d="M10 90 L190 10 M10 10 L190 90" stroke="#eeeeee" stroke-width="4"/></svg>')


def edit(path, old, new, count=1):
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{path.name}: {old!r} is not there; update this test"
    path.write_text(text.replace(old, new, count), encoding="utf-8")


@pytest.fixture(scope="module")
def broken(site, tmp_path_factory):
    """A copy of the built site with one mistake per check, and the audit's JSON report of it."""
    copy = tmp_path_factory.mktemp("broken") / "site"
    shutil.copytree(site, copy)
    terms = copy / "terms"
    edit(terms / "vector.html", "<body>", '<body>\n<div id="audit-wide" style="width: 2000px; height: 4px"></div>')
    edit(terms / "learningrate.html", '<a href="gd.html#fig:gd-steps" class="ref">1 of gradient descent (GD)</a>',
         '<a href="gd.html#fig:gd-steps" class="ref">7 of gradient descent (GD)</a>')
    figure = re.search(r'<figure id="fig:datapoint-photo".*?</figure>', (terms / "datapoint.html").read_text(), re.S)
    edit(terms / "datapoint.html", figure.group(0), figure.group(0) + figure.group(0).replace(
        'id="fig:datapoint-photo"', 'id="fig:datapoint-again"'))
    edit(terms / "feature.html", '<div class="prose">', '<div class="prose">\n<p>As Fig. ?? shows.</p>'
         '<p>It is an <a href="gd.html" class="xref">gradient descent (GD)</a> step, as w<a href="#ref-feature-1" '
         'class="citation">[1]</a> says, not an <a href="gd.html" class="xref">GD</a> one.</p>'
         # what a summary read before its citations went with their tie and their "(see ...)"
         '<p>A data point conveys information\u00a0. It bounds the gap (see ).</p>')
    (terms / "gd" / "pictures" / "1.svg").write_text(FAINT)
    description = re.search(r'<meta name="description" content="([^"]*)"', (terms / "function.html").read_text())
    edit(terms / "function.html", description.group(0),
         '<meta name="description" content="A function maps x to \\frac{1}{2} x.">')
    edit(terms / "matrix.html", '<div class="prose">', '<div class="prose">\n<img src="../favicon.svg">')
    # a rule that sizes every photo by itself, whatever share of the line its source gives it
    edit(terms / "datapoint.html", "</head>", "<style>a.picture { width: auto !important }</style></head>")
    edit(terms / "vector.html", '<div class="prose">', '<div class="prose">\n<p><math><semantics><msubsup><mi>x</mi>'
         '<mspace width="0.1667em"></mspace><mn>2</mn><mn>2</mn></msubsup>'
         '<annotation encoding="application/x-tex">x_{2}^{2}</annotation></semantics></math></p>')
    # a stop after a formula as the prose had it, in a box too narrow for any two words, and as
    # glossary.mathml.tidy keeps it (style.css: .math-stops)
    formula = '<math display="inline"><semantics><mi>x</mi><annotation encoding="application/x-tex">x</annotation>' \
              '</semantics></math>'
    edit(terms / "matrix.html", '<div class="prose">', '<div class="prose">\n'
         f'<p style="width: 0">a {formula}.</p>\n'
         f'<p style="width: 0">b {mathml.tidy(formula + ",")}</p>')
    # a formula wider than its side-by-side panel: the stylesheet widens the panel (matrix.html); a rule
    # that holds every panel at its share makes it scroll there (function.html)
    edit(terms / "matrix.html", '<div class="prose">', f'<div class="prose">\n{WIDE_PANELS}')
    edit(terms / "function.html", '<div class="prose">', f'<div class="prose">\n{WIDE_PANELS}')
    edit(terms / "function.html", "</head>",
         "<style>.prose figure .minipage[style] { width: calc(var(--share) * 100% - 1rem) !important }</style></head>")
    # a formula's table cells at the start of their cells, whatever their columns say (Chromium's own
    # setting where a stylesheet gives text-align a standard value)
    edit(terms / "norm.html", "</head>", "<style>math mtd[columnalign] { text-align: start !important }</style></head>")
    # a table wider than a phone, whose caption the stylesheet keeps in view (matrix.html); a rule that
    # sets it as a plain table caption, which scrolls with the table, cuts it (function.html)
    edit(terms / "matrix.html", '<div class="prose">', f'<div class="prose">\n{WIDE_TABLE}')
    edit(terms / "function.html", '<div class="prose">', f'<div class="prose">\n{WIDE_TABLE}')
    edit(terms / "function.html", "</head>",
         "<style>table > caption { display: table-caption !important; position: static !important }</style></head>")
    # a page that names its figure otherwise than its PDF ("Fig. 1." there, as the main file sets it)
    edit(terms / "gd.html", "<strong>Fig.\u00a01.</strong>", "<strong>Figure\u00a01.</strong>")
    # the pages broken here, alone in the browser (the others are the fixture's, which passes the audit)
    run = cli(copy, "--json", *(f"--page=terms/{name}.html" for name in BROKEN))
    assert run.returncode == 1, run.stdout[-2000:] + run.stderr[-2000:]
    return json.loads(run.stdout)


# Two panels of 0.4 of the line (221 px of the 555 px column), the first with a display formula of some 470 px.
WIDE_PANELS = ('<figure><div class="center"><div class="minipage" style="--share: 0.4"><p>'
               '<span class="math-display" tabindex="0" role="group" aria-label="Formula">'
               '<math display="block"><semantics><mrow>'
               + "<mo>+</mo>".join(f"<msub><mi>x</mi><mn>{i}</mn></msub>" for i in range(1, 13))
               + '</mrow><annotation encoding="application/x-tex">x_1 + \\dots + x_{12}</annotation></semantics>'
               '</math></span></p></div><div class="minipage" style="--share: 0.4"><p>(b)</p></div></div></figure>')
# A table of 700 px or so under a caption of some 120 characters.
WIDE_TABLE = ("<table><caption>A caption long enough to run past a phone's window: the relation of the dataset "
              "shown in the figure of the dataset</caption><tbody><tr>"
              + "".join(f"<td>column{i}column</td>" for i in range(8)) + "</tr></tbody></table>")
BROKEN = ("vector", "learningrate", "datapoint", "feature", "gd", "function", "matrix", "norm")


def failed(report, check, page):
    return [f["what"] for f in report["failures"] if f["check"] == check and f["page"] == page]


@pytest.mark.slow
def test_a_formula_scrolling_in_its_side_by_side_panel_is_named(broken):
    found = failed(broken, "share", "terms/function.html")
    assert any("x_{12}" in w and "side-by-side panel" in w for w in found), found
    # where the stylesheet lets the panel widen to its formula, as TeX lets it stick out of its minipage
    assert failed(broken, "share", "terms/matrix.html") == []


@pytest.mark.slow
def test_a_formulas_table_cell_not_set_as_its_column_says_is_named(broken):
    found = failed(broken, "math", "terms/norm.html")
    assert any("column's cell set left in" in w for w in found), found
    # the fixture's own tables (a matrix, an align) are set as their columns say
    assert not [f for f in broken["failures"] if f["check"] == "math" and f["page"] != "terms/norm.html"
                and "column's cell" in f["what"]]


@pytest.mark.slow
def test_a_tables_caption_cut_by_its_scrolling_box_is_named(broken):
    found = failed(broken, "width", "terms/function.html")
    assert any("A caption long enough" in w and "at 390 px" in w for w in found), found
    # where the stylesheet keeps it in view and as wide as the window
    assert not [w for w in failed(broken, "width", "terms/matrix.html") if "caption" in w]


@pytest.mark.slow
def test_an_over_wide_element_is_named(broken):
    found = failed(broken, "width", "terms/vector.html")
    assert any("at 390 px, light" in w and "div#audit-wide" in w for w in found), found
    assert any("at 1280 px, dark" in w for w in found), found
    assert broken["figures"]["wider"]["390 light"] >= 1


@pytest.mark.slow
def test_a_reference_showing_another_number_is_named(broken):
    found = failed(broken, "refs", "terms/learningrate.html")
    assert any("'7 of gradient descent (GD)'" in w and "terms/gd.html#fig:gd-steps" in w and "figure 1" in w
               for w in found), found


@pytest.mark.slow
def test_a_photo_not_at_its_share_of_the_line_is_named(broken):
    found = failed(broken, "share", "terms/datapoint.html")
    assert any("the photo datapoint/graphics/1.png" in w and "where its source gives 0.3" in w for w in found), found
    assert not [f for f in broken["failures"]
                if f["check"] == "share" and f["page"] not in ("terms/datapoint.html", "terms/function.html")]


@pytest.mark.slow
def test_a_number_shown_twice_is_named(broken):
    assert "figure 1 is numbered 2 times on the page" in failed(broken, "numbers", "terms/datapoint.html")
    assert broken["figures"]["duplicates"] >= 1


@pytest.mark.slow
def test_a_caption_label_unlike_its_pdfs_is_named(broken):
    found = failed(broken, "captions", "terms/gd.html")
    assert len(found) == 1 and found[0].startswith("its caption label 'Figure 1.' is not its PDF's"), found
    assert "Fig. 1." in found[0]
    assert broken["figures"]["captions"]["unlike"] == 1


@pytest.mark.parametrize("pdf_text, unlike", [
    ("Fig. 1. A step.\nFig. 2: Two steps.", []),
    # the caption package's other separators: a space, a quad, an en dash, a new line
    ("Fig. 1 A step.\nFig. 2 – Two steps.", []),
    ("Fig. 1\nA step.\nFig. 2\tTwo steps.", []),
    # a reference in the text is no caption; LaTeX's own label where the page says "Fig."
    ("as Fig. 1 shows.\nFigure 1: A step.\nFigure 2: Two steps.", ["Fig. 1.", "Fig. 2."]),
])
def test_caption_labels_against_the_pdfs_text(tmp_path, pdf_text, unlike):
    """A term page's labels against its PDF's text, in any edition (de/terms/)."""
    found = audit.Audit(tmp_path)
    for prefix in ("", "de/"):
        found.captions[f"{prefix}terms/gd.html"] = ["Fig. 1.", "Fig. 2."]
        found.caption_labels(tmp_path / f"{prefix}terms/gd.pdf", pdf_text)
    said = [what for check, page, what in found.failures if check == "captions"]
    assert said == [f"its caption label {label!r} is not its PDF's" + (" (Figure 1:)" if label == "Fig. 1." else
                                                                         " (Figure 2:)")
                    for _ in ("", "de/") for label in unlike]
    assert found.files["captions"] == 4


def test_a_figures_number_is_its_labels_in_any_language(tmp_path):
    """A translation's page numbers its figures "Abbildung 2.": the audit takes the number from the label,
    whatever its word, so its references and repeated numbers are checked as an English page's."""
    from playwright.sync_api import sync_playwright

    from glossary import auditpage
    (tmp_path / "de.html").write_text(
        '<!DOCTYPE html><html lang="de"><body><main><figure id="fig:a"><img alt="a" src="a.svg">'
        '<figcaption><span class="figure-label"><a class="self" href="#fig:a"><strong>Abbildung\u00a02.</strong>'
        '</a> </span>Zwei Schritte.</figcaption></figure><p>Siehe <a href="#fig:a">2</a>.</p></main></body></html>',
        encoding="utf-8")
    with sync_playwright() as p:
        browser = auditpage.launch(p)
        try:
            page = browser.new_page()
            page.goto((tmp_path / "de.html").as_uri())
            found = auditpage.collect(page)
        finally:
            browser.close()
    assert found["numbers"] == [["figure", "2"]] and found["targets"]["fig:a"] == [["figure", "2"]]
    assert found["captions"] == ["Abbildung 2."]


@pytest.mark.slow
def test_question_marks_are_named(broken):
    assert any("Fig. ?? shows" in w for w in failed(broken, "qq", "terms/feature.html"))


@pytest.mark.slow
def test_a_stop_starting_the_line_after_its_formula_is_named(broken):
    """What 20 pages of the real dictionary showed at 390 or 1280 px ("f(·)" then ". A natural ..."); the
    stop kept with its formula as the pages now write it is not."""
    assert failed(broken, "stops", "terms/matrix.html") == [
        f"'. after x' starts a line at {width} px, {scheme}" for width, scheme in audit.PASSES]
    assert broken["figures"]["stranded"] == {f"{w} {s}": 1 for w, s in audit.PASSES}


@pytest.mark.slow
def test_a_wrong_article_and_a_glued_citation_are_named(broken):
    """What the real dictionary's first uses read before ("an machine learning (ML)"), and its List of
    Symbols ("w_j[2, Ch. 9]"); the authors' own "an GD", before the term's usual form, is theirs."""
    assert failed(broken, "article", "terms/feature.html") == [
        "'an' before the term 'gradient descent (GD)': 'a' reads right"]
    cite = failed(broken, "cite", "terms/feature.html")
    assert cite[0] == "citation [1] glued to the word before it: ', as w'"
    assert [w.startswith("what a citation taken out left: ") for w in cite[1:]] == [True, True], cite
    assert cite[1].endswith("conveys information .'") and cite[2].endswith("It bounds the gap (see )'"), cite


@pytest.mark.slow
def test_a_script_element_with_a_child_too_many_is_named(broken):
    assert failed(broken, "math", "terms/vector.html") == ["MathML <msubsup> of 4 in x_{2}^{2}"]
    assert broken["figures"]["math"] == {"malformed": 1, "pages": 1}


@pytest.mark.slow
def test_faint_strokes_in_the_dark_are_named(broken):
    found = failed(broken, "contrast", "terms/gd.html")
    assert any(w.startswith("gd/pictures/1.svg: strokes at 1.") for w in found), found
    assert broken["figures"]["contrast"]["lowest"] < 1.5


@pytest.mark.slow
def test_tex_in_a_description_is_named(broken):
    assert any("'\\\\frac'" in w and "meta description" in w for w in failed(broken, "tex", "terms/function.html"))


def test_texs_dashes_and_quotes_are_tex_a_reader_should_not_see():
    """What the real dictionary's names showed on every page that listed them (Karush--Kuhn--Tucker)."""
    assert audit.tex_in("Karush--Kuhn--Tucker conditions") == "--"
    assert audit.tex_in("the ``kernel trick''") == "``"
    assert audit.tex_in("Karush\u2013Kuhn\u2013Tucker, a -- b, --cores, x - y") is None


@pytest.mark.slow
def test_axe_violations_are_named(broken):
    assert any(w.startswith("axe-core, light: image-alt") for w in failed(broken, "axe", "terms/matrix.html"))


@pytest.mark.slow
def test_the_report_prints_figures_and_failures_and_exits_1(broken, site, tmp_path):
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    edit(copy / "terms" / "learningrate.html",
         '<a href="gd.html#fig:gd-steps" class="ref">1 of gradient descent (GD)</a>',
         '<a href="gd.html#fig:gd-steps" class="ref">7 of gradient descent (GD)</a>')
    run = cli(copy, "--no-axe", "--show", "1", "--page", "terms/learningrate.html", "--page", "terms/gd.html")
    assert run.returncode == 1
    lines = run.stdout.splitlines()
    assert lines[0].startswith(f"audit of {copy}: 2 pages at ") and any("references:" in line for line in lines)
    at = next(i for i, line in enumerate(lines) if line.startswith("failures: "))
    assert len([line for line in lines[at + 1:] if not line.startswith("... and ")]) == 1
    missing = cli(tmp_path / "nothing")
    assert missing.returncode == 2 and "no index.html" in missing.stderr and "Traceback" not in missing.stderr
    unknown = cli(copy, "--page", "terms/learningrat.html")
    assert unknown.returncode == 2 and unknown.stderr.startswith("audit: ") and "Traceback" not in unknown.stderr
    assert "no page terms/learningrat.html" in unknown.stderr, unknown.stderr


@pytest.mark.slow
def test_only_the_named_pages_are_looked_at_and_their_links_to_the_others_are_not_failed(broken, site):
    """--page: the broken pages alone in the browser; their references to the pages left out are not
    taken for references without a target, while the one to a page looked at is still compared."""
    assert broken["figures"]["pages"] == len(BROKEN)
    # learningrate refers to an equation of gradient, a page left out
    assert 'href="gradient.html#eq:gradient"' in (site / "terms/learningrate.html").read_text()
    assert broken["figures"]["refs"]["left_out"] >= 1
    refs = [f for f in broken["failures"] if f["check"] == "refs"]
    assert [f["page"] for f in refs] == ["terms/learningrate.html"], refs


# --- the contrast measure --------------------------------------------------------------------

def png(background, stroke, width=3):
    image = Image.new("RGB", (120, 60), background)
    ImageDraw.Draw(image).line([(5, 55), (115, 5)], fill=stroke, width=width)
    out = __import__("io").BytesIO()
    image.save(out, "PNG")
    return out.getvalue()


def test_stroke_contrast_is_wcag_on_the_pixels():
    assert auditpage.contrast((0, 0, 0), (255, 255, 255)) == pytest.approx(21)
    assert auditpage.contrast((119, 119, 119), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)
    ratio, stroke, background = auditpage.stroke_contrast(png("#16171a", "#e6e6e1"))
    assert background == [22, 23, 26] and stroke == [230, 230, 225]
    assert ratio == pytest.approx(auditpage.contrast((230, 230, 225), (22, 23, 26)))
    assert auditpage.stroke_contrast(png("#16171a", "#000000"))[0] < 1.3
    assert auditpage.stroke_contrast(png("#16171a", "#16171a"))[0] == 1.0      # nothing drawn


def test_a_fill_is_not_a_stroke():
    """A pale area covering most of a figure (generalization's ellipse) is what the strokes lie on, not a
    stroke; the background is the figure's frame (its panel), even where a fill is the commonest colour."""
    image = Image.new("RGB", (200, 100), "#ffffff")
    draw = ImageDraw.Draw(image)
    draw.ellipse([5, 5, 195, 95], fill="#add8e6")
    draw.line([(20, 90), (180, 10)], fill="#000000", width=2)
    out = __import__("io").BytesIO()
    image.save(out, "PNG")
    ratio, stroke, background = auditpage.stroke_contrast(out.getvalue())
    assert background == [255, 255, 255] and ratio > 15, (ratio, stroke)


# --- the fidelity to the authors' book ---------------------------------------------------------

@pytest.fixture(scope="module")
def book(tmp_path_factory):
    """The fixture's book as its authors build it: pdflatex, bibtex, pdflatex twice (latexmk's runs;
    glossaries-extra's automake runs makeindex)."""
    work = tmp_path_factory.mktemp("book") / "dict"
    shutil.copytree(FIXTURE, work)
    for cmd in (["pdflatex"], ["bibtex"], ["pdflatex"], ["pdflatex"]):
        args = cmd + (["-interaction=nonstopmode", "TinyDict_Main.tex"] if cmd == ["pdflatex"] else ["TinyDict_Main"])
        run = subprocess.run(args, cwd=work, capture_output=True, text=True)
        assert run.returncode == 0 or cmd == ["bibtex"], run.stdout[-3000:]
    return work / "TinyDict_Main.pdf"


@pytest.mark.slow
def test_every_term_is_found_in_the_book_and_scored(site, book):
    scores = fidelity.compare(site, book)
    assert set(scores) == {p.stem for p in (site / "terms").glob("*.html")}
    assert all(s["found"] and s["book_words"] > 3 and 0 < s["ratio"] <= 1 for s in scores.values()), scores
    summary = fidelity.summary(scores)
    assert summary["terms"] == len(scores) and len(summary["lowest"]) == 10
    assert summary["min"] == round(min(s["ratio"] for s in scores.values()), 4)
    run = subprocess.run([sys.executable, "scripts/fidelity.py", "--site", str(site), "--book", str(book)],
                         cwd=REPO, capture_output=True, text=True)
    assert run.returncode == 0 and f"{len(scores)} terms, {len(scores)} found in the book" in run.stdout


@pytest.mark.slow
def test_a_sentence_dropped_from_a_page_lowers_its_term_alone(site, book, tmp_path):
    copy = tmp_path / "site"
    shutil.copytree(site, copy)
    sentence = re.compile(r"Adding two vectors\s+or\s+scaling\s+one\s+by\s+a\s+number\s+gives\s+again\s+a\s+vector")
    page = copy / "terms" / "vector.html"
    assert sentence.search(page.read_text()), "the fixture's vector changed; update this test"
    page.write_text(sentence.sub("", page.read_text()))
    before, after = fidelity.compare(site, book), fidelity.compare(copy, book)
    dropped = len(fidelity.words("Adding two vectors or scaling one by a number gives again a vector"))
    assert after["vector"]["page_words"] == before["vector"]["page_words"] - dropped
    assert after["vector"]["ratio"] < before["vector"]["ratio"] - 0.1
    assert {slug for slug in before if before[slug]["ratio"] != after[slug]["ratio"]} == {"vector"}


def run_of(page, top, left, text, family="SFRM1200", size=18.0):
    return (page, float(top), float(left), 16.0, size, family, text)


def test_an_entry_whose_heading_the_book_lost_is_found_by_its_first_words():
    """A book like the real one's latexmk build, which loses its headings after an error: the entries
    with a bold heading start there; the one without starts at the line with its page's first words."""
    found = [run_of(1, 100, 166, "Machine Learning Concepts", "SFBX1728", 26.0),
             run_of(1, 150, 166, "alpha", "SFBX1200"), run_of(1, 150, 230, "An alpha is the first letter of a"),
             run_of(1, 170, 210, "word, as in"), run_of(1, 171, 300, "x", "CMMI12"), run_of(1, 170, 320, "here."),
             run_of(1, 190, 210, "See also: beta."),
             run_of(1, 210, 166, "A beta comes second, after the alpha, in every"),
             run_of(1, 230, 166, "Greek word."),
             run_of(1, 250, 166, "gamma", "SFBX1200"), run_of(1, 250, 230, "The third one is a gamma.")]
    titles = {"alpha": "alpha", "beta": "beta", "gamma": "gamma"}
    first = {"beta": fidelity.words("A beta comes second, after the alpha, in each Greek word.")[:fidelity.FIRST]}
    got = fidelity.entries(found, titles, ["alpha", "beta", "gamma"], first)
    assert got == {"alpha": fidelity.words("An alpha is the first letter of a word, as in here."),
                   "beta": fidelity.words("A beta comes second, after the alpha, in every Greek word."),
                   "gamma": fidelity.words("The third one is a gamma.")}


def test_a_bold_letter_of_a_picture_ends_no_entry():
    """A picture's \\mathbf{X} set larger than the body (tall matrix's) is no section heading: the
    entry goes on to the picture's caption."""
    found = [run_of(1, 150, 166, "tall", "SFBX1200"), run_of(1, 150, 230, "A tall matrix has more rows."),
             run_of(2, 280, 426, "X", "CMBX12", 26.0), run_of(2, 468, 314, "Fig. 63. Illustration of a tall matrix."),
             run_of(2, 538, 210, "See also: matrix."),
             run_of(2, 600, 166, "Appendix", "SFBX1728", 26.0), run_of(2, 650, 166, "Not part of it.")]
    assert fidelity.entries(found, {"tall": "tall"}) == {
        "tall": fidelity.words("A tall matrix has more rows. Fig. 63. Illustration of a tall matrix.")}


def test_a_first_use_on_the_page_reads_as_the_books_later_use(tmp_path):
    """The page, a document of its own, prints a term's first-use form where the book prints its later
    one: both readings are made, and the one closer to the book counts; a term the book lacks is
    listed apart, out of the minimum and the median."""
    (tmp_path / "terms").mkdir()
    (tmp_path / "terms" / "typical.html").write_text(
        '<h1>typical set</h1><div class="prose"><p>See <a href="pmf.html" class="xref">probability mass '
        'function (pmf)</a> and <a href="pmf.html#eq-1">(1)</a>.</p></div>')
    terms = {"terms": [{"markdown": "terms/pmf.md", "forms": {
        "first": "probability mass function (pmf)", "text": "pmf", "plural": "pmfs",
        "firstplural": "probability mass functions (pmfs)"}}]}
    (tmp_path / "terms.json").write_text(__import__("json").dumps(terms))
    title, printed, later = fidelity.page(tmp_path / "terms" / "typical.html", fidelity.site_forms(tmp_path))
    assert title == "typical set"
    assert fidelity.words(printed) == ["see", "probability", "mass", "function", "pmf", "and"]
    assert fidelity.words(later) == ["see", "pmf", "and"]
    scores = {"typical": {"ratio": 1.0, "found": True}, "rlm": {"ratio": 0.0, "found": False}}
    summary = fidelity.summary(scores)
    assert summary["min"] == 1.0 and summary["found"] == 1 and summary["not in the book"] == ["rlm"]


def test_words_leave_math_and_keep_a_word_the_book_broke():
    assert fidelity.words("The 2 vectors x, y in Fig. 3 (see Figure 1).") == ["the", "vectors", "in", "fig", "see",
                                                                             "fig"]
    broken = f"infor{fidelity.JOIN}mation fixed{fidelity.JOIN}point"
    assert fidelity.words(broken, frozenset({"information", "fixed", "point"})) == ["information", "fixed", "point"]
    page = '<h1>Title</h1><div class="prose"><p>A <math><mi>x</mi><mi>exp</mi><mtext>for all</mtext>' \
           '<annotation>\\exp</annotation></math> here.</p><section class="references"><p>Ref</p></section></div>'
    parser = fidelity.Prose()
    parser.feed(page)
    assert fidelity.words("".join(parser.parts)) == ["exp", "for", "all", "here"] and parser.title == "Title"
    assert np.isclose(fidelity.ratio(["a", "b"], ["a", "b"]), 1)
