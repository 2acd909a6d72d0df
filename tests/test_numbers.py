"""Equation and figure numbers on the fixture dictionary (tests/fixtures/texdict, TinyDict_Numbers.tex
above all): every number a page shows beside a display is the one pdflatex prints in the term's PDF and
in the book; every reference shows the number its target shows, names another term's label by its
term and links to its anchor; no picture, PDF or book prints "??"; a quote of another page shows no
number of its own; a demo's figures are numbered after the prose's.

The expected numbers are never typed here: they are what pdflatex prints (pdftotext) and what the
target pages show.
"""
import re
import subprocess
from html import unescape

import pytest
from conftest import REPO
from test_dictionary_build import build, built_ok, copy_fixture

FIXTURE = REPO / "tests" / "fixtures" / "texdict"
# The lr demo of the fixture's demos/ given to a term with a prose figure of its own (its figure
# must be numbered after that one).
DEMO_YAML = """\
  leastsquares:
    script: demos/lr_demo.py
    kind: plain
    preview: lr_demo.pdf
    csv:
      - {name: lr_steps.csv, columns: [step, slow, fast]}
    figures:
      - {name: steps, kind: line, csv: lr_steps.csv, x: step, y: [slow, fast], xlabel: step, ylabel: w,
         caption: Gradient descent with two step sizes., alt: Two falling curves.}
"""
NUMBER = re.compile(r"^\(\d+\)$")

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    root = tmp_path_factory.mktemp("numbers")
    source = copy_fixture(root / "dict")
    source.write_text(source.read_text() + "demos:\n" + DEMO_YAML)
    built_ok(build(source, root / "out"))
    return root / "out" / "site"


def slugs(site):
    return sorted(p.stem for p in (site / "terms").glob("*.html"))


def prose(site, slug):
    """The prose of a term's page (not its lists of other terms)."""
    html = (site / "terms" / f"{slug}.html").read_text()
    start = html.index('<div class="prose">')
    return html[start:html.index("<section aria-labelledby=", start)]


def quotes(site, slug):
    """The "See also" and "Referenced by" lists of a term's page (quotes of other terms)."""
    html = (site / "terms" / f"{slug}.html").read_text()
    return "".join(re.findall(r'<ul class="(?:see-also|referenced-by)">.*?</ul>', html, re.S))


def text(html):
    return " ".join(unescape(re.sub(r"<annotation.*?</annotation>|<[^>]+>", " ", html, flags=re.S)).split())


def shown_numbers(html):
    """The numbers beside the displays of a prose, in order: [(number, anchor)]."""
    return [(unescape(n), a) for a, n in re.findall(r'<a class="eqno" href="#([^"]*)"[^>]*>([^<]*)</a>', html)]


def pdftext(path):
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def margin_numbers(layout_text):
    """The equation numbers pdflatex set at the right margin, in order (a "(1)" a picture draws
    ends a line too, but short of the margin)."""
    lines = layout_text.splitlines()
    margin = 0.85 * max((len(line.rstrip()) for line in lines), default=0)
    return [m.group(1) for line in lines for m in [re.search(r"\s{3,}(\(\d+\))\s*$", line)]
            if m and m.end(1) >= margin]


def book_section(site, title, titles):
    """The book's text of one term: from its heading (after the contents) to the next term's."""
    book = pdftext(site / "dictionary.pdf")
    start = [m.start() for m in re.finditer(rf"(?m)^{re.escape(title)}\s*$", book)][-1]
    ends = [m.start() for other in titles if other != title
            for m in re.finditer(rf"(?m)^{re.escape(other)}\s*$", book) if m.start() > start]
    return book[start:min(ends, default=len(book))]


def term_titles(site):
    return {slug: text(re.search(r"<h1>(.*?)</h1>", (site / "terms" / f"{slug}.html").read_text(), re.S)[1])
            for slug in slugs(site)}


def test_every_numbered_display_shows_the_number_print_gives_it(site):
    """On the page, in the term's PDF and in the book, the same numbers in the same order; each with
    an anchor the page has."""
    titles = term_titles(site)
    numbered = 0
    for slug in slugs(site):
        html = prose(site, slug)
        page = [n for n, _ in shown_numbers(html)]
        pdf = pdftext(site / "terms" / f"{slug}.pdf")
        assert page == margin_numbers(pdf), slug
        assert page == margin_numbers(book_section(site, titles[slug], titles.values())), slug
        for _, anchor in shown_numbers(html):
            assert f'id="{anchor}"' in html, (slug, anchor)
        numbered += len(page)
    # the fixture's numbered displays: an equation, align rows (one \nonumber), an unlabelled equation
    assert numbered >= 5
    # an unnumbered row of an align shows no number, an unlabelled equation one with an anchor of its own
    ls = shown_numbers(prose(site, "leastsquares"))
    assert [n for n, _ in ls] == ["(1)", "(2)", "(3)"] and ls[2][1] == "eq-3"
    assert prose(site, "leastsquares").count('class="eqno-none"') == 1


def test_references_show_their_targets_numbers_and_name_other_terms(site):
    titles = term_titles(site)
    checked = 0
    for slug in slugs(site):
        html = prose(site, slug)
        pdf = " ".join(pdftext(site / "terms" / f"{slug}.pdf").split())
        book = " ".join(book_section(site, titles[slug], titles.values()).split())
        for m in re.finditer(r'<a (?=[^>]*class="ref")[^>]*href="([^"]*)"[^>]*>(.*?)</a>', html):
            href, shown = m.group(1), text(m.group(2))
            page, _, label = href.partition("#")
            target = page[:-len(".html")] if page else slug
            target_html = prose(site, target)
            numbers = dict((a, n) for n, a in shown_numbers(target_html))
            if label in numbers:
                expected = numbers[label]
            else:           # a figure (or a subfigure, inside it): the number of the figure's "Figure N."
                at = target_html.index(f'<figure id="{label}"')
                label_re = re.compile(r'class="figure-label">(?:<a [^>]*>)?<strong>[^<(]*?(\d+)\.')
                expected = label_re.search(target_html, at)[1]
            assert shown.split(" ")[0].strip("()") == expected.strip("()"), (slug, href, shown)
            assert (f'id="{label}"' in target_html), (slug, href)
            if target != slug:          # another term's label: named by it (here or by the prose beside it)
                after = text(html[m.end():m.end() + 300])
                before = text(html[max(0, m.start() - 300):m.start()])
                assert (shown.endswith(f"of {titles[target]}") or before.endswith(titles[target])
                        or after.startswith(f"of {titles[target]}")), (slug, shown)
            # print shows the same words (outside formulas, whose text pdftotext splits)
            if "math" not in html[max(0, m.start() - 400):m.start()].rsplit("</math>", 1)[-1]:
                assert shown in pdf and shown in book, (slug, shown)
            checked += 1
    assert checked >= 10


def test_a_cross_term_reference_links_to_the_label_and_names_the_term(site):
    html = prose(site, "stepsize")
    titles = term_titles(site)
    number = shown_numbers(prose(site, "leastsquares"))[1][0]
    # "\eqref{eq:ls-gradient} of \gls{leastsquares}": the prose names the term, the link does not again
    link = re.search(r'<a [^>]*href="leastsquares\.html#eq:ls-gradient"[^>]*>(.*?)</a>', html)
    assert link and text(link[1]) == number
    assert text(html[link.start():link.end() + 200]).startswith(f"{number} of {titles['leastsquares']}")
    # inside a formula too (a link inside the MathML)
    assert re.search(r'<mtext[^>]*>[^<]*<a class="ref" href="leastsquares\.html#eq:ls-gradient">'
                     + re.escape(f"{number} of {titles['leastsquares']}") + "</a>", html)


def test_no_unresolved_reference_in_any_picture_or_pdf(site):
    """A \\ref inside a TikZ picture prints its label's number (as the page shows it), never "??"."""
    files = sorted(site.rglob("*.pdf"))
    assert len(files) > 16
    for path in files:
        assert "??" not in pdftext(path), path
    for path in sorted(site.rglob("*.svg")):
        assert "??" not in path.read_text(errors="replace"), path
    picture = pdftext(site / "terms" / "leastsquares" / "pictures" / "1.pdf")
    objective = dict((a, n) for n, a in shown_numbers(prose(site, "leastsquares")))["eq:ls-objective"]
    assert objective in picture


def test_quotes_show_no_number_of_their_own(site):
    """See also and Referenced by: no equation numbers, anchors or "Figure N." of the quoted term; its
    references name it and link to its page."""
    titles = term_titles(site)
    quoted = 0
    for slug in slugs(site):
        html = quotes(site, slug)
        assert "eqnos" not in html and " id=" not in html and "figure-label" not in html, slug
        for m in re.finditer(r'<a (?=[^>]*class="ref")[^>]*href="([^"]*)"[^>]*>(.*?)</a>', html):
            page = m.group(1).partition("#")[0]
            assert page.endswith(".html"), (slug, m.group(1))
            named = f"of {titles[page[:-5]]}"  # by the link, or by the quote's words after or right before it
            assert (text(m[2]).endswith(named) or text(html[m.end():m.end() + 200]).startswith(named)
                    or text(html[max(0, m.start() - 200):m.start()]).endswith(titles[page[:-5]])), (slug, m[2])
            quoted += 1
        words = text(re.sub(r"<math.*?</math>", " ", html, flags=re.S))    # a formula's (1) is no reference
        for number in re.findall(r"\((\d+)\)", words):
            assert f"({number}) of" in words, (slug, number)
    assert quoted >= 1


def test_a_demos_figures_are_numbered_after_the_prose(site):
    html = (site / "terms" / "leastsquares.html").read_text()
    labels = [unescape(a or b) for a, b in re.findall(r'class="figure-label">(?:<a [^>]*>)?<strong>([^<]*)</strong>|'
                                                     r'<span class="label">([^<]*)</span>', html)]
    # as the fixture's main file names a figure (\captionsetup[figure]{name=Fig., labelsep=period})
    assert [x.replace("\u00a0", " ") for x in labels] == ["Fig. 1.", "Fig. 2."]
    pdf = pdftext(site / "terms" / "leastsquares.pdf")
    assert re.findall(r"Fig\. (\d+)\.", pdf) == ["1", "2"]


def test_a_pictures_alt_text_is_its_caption_with_its_formulas(site):
    """The caption as text, its formulas kept (no "of one parameter ," gap), no "Figure N."."""
    html = prose(site, "leastsquares")
    alt = unescape(re.search(r'<img src="leastsquares/pictures/1\.svg" alt="([^"]*)"', html)[1])
    assert alt.startswith("The objective") and "Figure" not in alt
    assert re.search(r"parameter w, with its minimum at \S*w\S* = 0\$?\.$", alt), alt
