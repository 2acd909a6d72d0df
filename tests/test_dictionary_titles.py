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

from glossary import dictionary
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
    assert re.search(r'id="letter-n"[^<]*>N</h3>\s*<dl[^>]*>\s*<dt><a href="terms/gradient.html">', index)
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
    loaded = dictionary.load({"source": str(REPO / "tests/fixtures/texdict/TinyDict_Main.tex"),
                              "site_title": "T", "site_description": "the repository's own"}, REPO)
    assert loaded["description"] == dictionary.DICTIONARY_SUMMARY and "demo" not in loaded["description"]
