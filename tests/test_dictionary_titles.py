"""A LaTeX term's name with TeX in it ($\\nabla$, R\\'enyi) as the reader sees it, not as source: on its
page, the index, the other pages, terms.json and the PDFs; its place in the index and the book by its
letters.  Also, in the same build of a copy of the fixture dictionary: a summary whose first sentence
holds a cross-reference inside emphasis links nowhere on the index, and a figure of subfigures whose
\\label sits inside its \\caption keeps that label as its identifier (the real dictionary's vcdim)."""
import json
import re
import subprocess
import unicodedata

import pytest
from test_dictionary_build import build, built_ok, copy_fixture, edit

from glossary import dictionary, plan
from glossary.layout import title_order

pytestmark = pytest.mark.slow

NAME = r"$\nabla$-gradient of R\'enyi"
SHOWN = "∇-gradient of Rényi"       # the name as text: what the title, the feeds and the outline say


def text_of(pdf):
    out = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    return unicodedata.normalize("NFC", " ".join(out.split()))


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("titles")
    source = copy_fixture(root / "dict")
    edit(source.parent / "TinyDict_Math.tex", "{name={gradient},", "{name={" + NAME + "},")
    # the first sentence of overfitting: a cross-reference inside emphasis
    edit(source.parent / "TinyDict_Models.tex", r"description={A \gls{model} overfits",
         r"description={An \emph{over-eager \gls{model}} overfits")
    # a sentence that quotes its own equation inside a formula and refers to data point (first there):
    # quoted on data point's page, its equation link would point to a label that page lacks
    edit(source.parent / "TinyDict_Math.tex", "The sum of its products is\n\t\t$y_{1}",
         "The sum of its products, one per \\gls{datapoint}, is\n\t\t$y_{1}")
    edit(source.parent / "TinyDict_Models.tex", "\\caption{Two fits of the same \\gls{dataset}.}\n"
         "\t\t\t\\label{fig:overfitting-fits}", "\\caption{Two fits of the same \\gls{dataset}. "
         "\\label{fig:overfitting-fits}}")
    source.write_text(source.read_text() + "description: >-\n  A tiny dictionary\n  for the tests.\n")
    out = root / "out"
    built_ok(build(source, out))
    return out / "site"


def test_the_name_is_rendered_on_its_page_and_plain_in_its_title(site):
    page = (site / "terms/gradient.html").read_text()
    h1 = re.search(r"<h1>(.*?)</h1>", page, re.S).group(1)
    assert "<math" in h1 and "Rényi" in h1 and "$" not in h1 and "\\'" not in h1
    assert re.search(r"<title>(.*?)</title>", page).group(1).startswith(f"{SHOWN} · ")


def test_the_name_everywhere_else_and_its_place_in_the_index(site):
    index = (site / "index.html").read_text()
    listed = re.findall(r'<dt><a href="terms/([^"]+)\.html">(.*?)</a></dt>', index, re.S)
    shown = dict(listed)["gradient"]
    assert "<math" in shown and "Rényi" in shown and "\\" not in re.sub(r"<annotation.*?</annotation>", "", shown)
    terms = {t["slug"]: t for t in json.loads((site / "terms.json").read_text())["terms"]}
    assert terms["gradient"]["name"] == SHOWN
    # by its letters (nabla-gradient ...), as the book orders it too: under N of the A-Z list
    names = {slug: t["name"] for slug, t in terms.items()}
    names["gradient"] = NAME
    assert [slug for slug, _ in listed] == sorted(names, key=lambda s: title_order(s, names[s]))
    assert re.search(r'id="letter-n"[^>]*>(<a class="self"[^>]*>)?N(</a>)?</h3>\s*<dl[^>]*>\s*'
                     r'<dt><a href="terms/gradient.html">', index)
    # the pages that list it (gd's "See also", "Referenced by") show it rendered
    gd = (site / "terms/gd.html").read_text()
    assert re.search(r'<li><a href="gradient\.html"><math.*?</math>-gradient of Rényi</a>', gd, re.S)


def test_the_pdfs_typeset_the_name_and_the_outline_says_it(site):
    from pypdf import PdfReader
    assert SHOWN in text_of(site / "terms/gradient.pdf")
    # its "Cite this entry" record gives the name as TeX, as BibTeX reads it
    assert f"title = {{{{{NAME}}}}}" in text_of(site / "terms/gradient.pdf")
    assert "$" not in text_of(site / "terms/gradient.pdf").split("The gradient")[0]
    outline = [item.title for item in PdfReader(str(site / "dictionary.pdf")).outline if not isinstance(item, list)]
    flat = [item.title for part in PdfReader(str(site / "dictionary.pdf")).outline if isinstance(part, list)
            for item in part]
    assert SHOWN in outline + flat
    assert PdfReader(str(site / "terms/gradient.pdf")).metadata.title == SHOWN


def test_a_summary_links_nowhere_on_the_index_even_inside_emphasis(site):
    index = (site / "index.html").read_text()
    summary = re.search(r'<dt><a href="terms/overfitting\.html">.*?</dt>\s*<dd>(.*?)</dd>', index, re.S).group(1)
    assert "over-eager" in summary and "<a " not in summary


def test_a_figure_of_subfigures_keeps_the_label_in_its_caption(site):
    page = (site / "terms/overfitting.html").read_text()
    ids = re.findall(r'<figure id="([^"]*)"', page)
    assert ids[0] == "fig:overfitting-fits" and len(ids) == len(set(ids))
    assert 'href="#fig:overfitting-fits"' in page


def test_the_site_says_what_the_yaml_file_says_it_is(site):
    index = (site / "index.html").read_text()
    assert '<meta name="description" content="A tiny dictionary for the tests.">' in index
    assert '<p class="lede">A tiny dictionary for the tests.</p>' in index
    assert "> A tiny dictionary for the tests." in (site / "llms.txt").read_text()


def test_without_a_description_a_dictionary_claims_no_demos():
    from conftest import REPO
    loaded = plan.load({"source": str(REPO / "tests/fixtures/texdict/TinyDict_Main.tex"),
                        "site_title": "T", "site_description": "the repository's own"}, REPO)
    assert loaded["description"] == dictionary.DICTIONARY_SUMMARY and "demo" not in loaded["description"]


def test_referenced_by_quotes_the_sentence_that_refers(site):
    """gradient's page lists gd, which refers to it in its first sentence: that sentence, without its
    links and citations, is what the list shows of gd (not gd's summary)."""
    page = (site / "terms/gradient.html").read_text()
    section = page[page.index('<h2 id="referenced-by">'):]
    item = re.search(r'<li><a href="gd\.html">[^<]*</a>: <q class="refers">(.*?)</q></li>', section, re.S)
    assert item, section[:1500]
    quoted = " ".join(item.group(1).split())
    assert quoted.startswith("Gradient descent (GD) repeatedly takes a small step against the gradient of")
    assert "<a " not in quoted and "[1]" not in quoted


def test_a_quoted_sentence_keeps_no_link_of_its_own_page(site):
    """matrix's sentence with \\eqref{eq:matrix-row-one} inside a formula refers to data point: that
    page quotes it, with the equation's number named by its term and linked to its place on matrix's
    page, never to a label data point lacks (the build's link check passed)."""
    page = (site / "terms/datapoint.html").read_text()
    item = re.search(r'<li><a href="matrix\.html">[^<]*</a>: <q class="refers">(.*?)</q></li>', page, re.S)
    assert item and "<math" in item.group(1)
    links = re.findall(r'<a [^>]*href="([^"]*)"[^>]*>(.*?)</a>', item.group(1))
    assert links == [("matrix.html#eq:matrix-row-one", "(1) of matrix")]


def test_referenced_by_quotes_a_later_sentence_with_its_math(site):
    """feature's summary refers to data point; its second sentence, with a formula, refers to vector:
    vector's page quotes that sentence, its formula as the MathML feature's page shows."""
    page = (site / "terms/vector.html").read_text()
    item = re.search(r'<li><a href="feature\.html">[^<]*</a>: <q class="refers">(.*?)</q></li>', page, re.S)
    assert item, page[page.index('<h2 id="referenced-by">'):][:1500]
    quoted = item.group(1)
    # the formula kept on a line with its stop (glossary.mathml.tidy)
    assert " ".join(quoted.split()).startswith(
        'Feature values are collected in a vector, for instance <span class="math-stops"><math')
    formula = re.search(r"<math.*?</math>", quoted, re.S).group(0)
    assert formula in (site / "terms/feature.html").read_text()


def test_a_terms_own_sort_key_places_it_in_the_index_and_the_book(tmp_path):
    """glossaries' sort= (the real dictionary: "$\\bf 0/1$ loss" with sort={zerooneloss}) orders the term
    where the authors' glossary prints it: among the z's, not before the a's."""
    zero = title_order("zerooneloss", r"$\bf 0/1$ loss", "zerooneloss")
    assert title_order("vector", "vector") < zero and title_order("zerooneloss", r"$\bf 0/1$ loss") < \
        title_order("abserr", "absolute error")
    config = copy_fixture(tmp_path / "dict")
    edit(tmp_path / "dict" / "TinyDict_Math.tex", "{name={vector},", "{name={vector}, sort={aaa vector},")
    loaded = plan.load({"source": str(config), "site_title": "x", "entries_dir": "entries"}, ".")
    assert loaded["entries"]["vector"]["sort"] == "aaa vector" and "sort" not in loaded["entries"]["matrix"]
    assert dictionary.names(loaded)["sort"] == {"vector": "aaa vector", "sgn": "sgn"}     # a symbol: its key
    math = [s for s in dictionary.book_order(loaded) if loaded["entries"][s]["section"] == "math"]
    assert math[0] == "vector", math
