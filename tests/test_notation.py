"""Text without TeX (glossary.plaintext), the notation and abbreviations pages (glossary.notation):
the converters on their own, with the pinned pandoc, and the built fixture's two pages audited by
axe-core in both colour schemes (docs/reading.md)."""
import re

import pytest
from conftest import REPO
from test_a11y import audit, open_page
from test_browser import chromium
from test_reading import reading_site

from glossary import dictionary, notation, plaintext
from glossary.entries import EntryError

FIXTURE_MACROS = REPO / "tests/fixtures/texdict/assets/notation.tex"


def test_a_formula_is_the_characters_it_shows():
    found = plaintext.formulas([r"f: \mathbb{R}^{d} \rightarrow \mathbb{R}", r"\frac{a+b}{2}", r"\sqrt{x}",
                                r"\hat{y}", r"x^{(i)}_{2}", r"\mathbb{R}^{m \times n}", r"\mathbf{A}^{T}",
                                r"\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}", r"x_{}"])
    assert found == {r"f: \mathbb{R}^{d} \rightarrow \mathbb{R}": "f: ℝᵈ → ℝ", r"\frac{a+b}{2}": "(a + b)/2",
                     r"\sqrt{x}": "√x", r"\hat{y}": "ŷ", r"x^{(i)}_{2}": "x₂⁽ⁱ⁾",
                     r"\mathbb{R}^{m \times n}": "ℝ^(m×n)", r"\mathbf{A}^{T}": "𝑨ᵀ",
                     r"\begin{pmatrix} 1 & 2 \\ 3 & 4 \end{pmatrix}": "(1, 2; 3, 4)", r"x_{}": "x"}
    assert all("\\" not in t for t in found.values())


def test_a_set_minus_is_no_backslash():
    """texmath writes \\setminus as a backslash: in text it would read as TeX ("ℝᵈ\\{𝟎}")."""
    assert plaintext.formulas([r"\mathbb{R}^{d} \setminus \{0\}"]) == {r"\mathbb{R}^{d} \setminus \{0\}": "ℝᵈ∖{0}"}


def test_sources_of_names_and_forms_become_text():
    macros = FIXTURE_MACROS.read_text()
    done = plaintext.sources({"a": (r"$k$-fold cross-validation ($k$-fold CV)", "latex"),
                              "b": (r"Erd\H{o}s–R\'enyi graph", "latex"), "c": (r"$\featurevec$-space", "latex"),
                              "d": ("a $x^2$ *word*", "markdown"), "e": ("plain name", "latex")}, macros)
    assert done == {"a": "k-fold cross-validation (k-fold CV)", "b": "Erdős–Rényi graph", "c": "𝒙-space",
                    "d": "a x² word", "e": "plain name"}


def test_the_list_of_symbols_rows_are_read_as_symbol_and_meaning():
    text = r"""\subsection*{Sets}
\begin{align}
	&a \in \mathcal{A} & \quad & \parbox{.85\textwidth}{The object $a$ is in $\mathcal{A}$
		\\ See also: \gls{vector}.} \nonumber \\[2mm] \hline \nonumber\\[-5mm] % a comment
	&\mathbb{R} &\quad &\mbox{The real numbers \cite{Rudin}.} \nonumber
\end{align}
\subsection*{More}
\begin{align}
%	&\weights & \quad & \mbox{left out} \nonumber \\
	&\labelspace & \quad & \mbox{Labels such as $\{\mbox{\emph{cat}}\}$\hspace*{-1mm}.} \nonumber
		\\[2mm] \hline \nonumber\\[-5mm]
	&[0,1] &\quad &\mbox{The closed interval.}\nonumber
\end{align}"""
    found = notation.list_of_symbols(text)
    assert [s["title"] for s in found] == ["Sets", "More"]
    assert [(r["symbol"], r["meaning"]) for s in found for r in s["rows"]] == [
        (r"a \in \mathcal{A}", "The object $a$ is in $\\mathcal{A}$\n\t\t\\\\ See also: \\gls{vector}."),
        (r"\mathbb{R}", r"The real numbers \cite{Rudin}."),
        (r"\labelspace", "Labels such as $\\{\\textit{cat}\\}$ ."), ("[0,1]", "The closed interval.")]


def test_the_list_of_symbols_citations_are_found_on_their_lines_and_checked(tmp_path):
    """Its citations are formatted with the terms' (glossary.plan.Plan.cited): each is found on its line,
    a commented one aside, and a key the bibliography lacks is the build's mistake, file and line."""
    path = tmp_path / "Symbols.tex"
    path.write_text("% \\cite{Commented}\n\\begin{align}\n"
                    "  &\\mathbb{R} & \\quad & \\mbox{The real numbers \\cite[Ch. 1]{Rudin, Apostol}.}\n\\end{align}\n")
    found = dictionary.symbol_citations(path)
    assert [(c["key"], c["line"]) for c in found] == [("Rudin", 3), ("Apostol", 3)]
    bib = tmp_path / "refs.bib"
    bib.write_text("@book{Rudin,\n  title = {Real and Complex Analysis},\n  year = {1987}\n}\n")
    with pytest.raises(EntryError, match=r"Symbols.tex:3: term 'List of Symbols': no record 'Apostol' in refs.bib"):
        dictionary.check_citations({"bibliography": str(bib)}, found)
    assert dictionary.check_citations({"bibliography": str(bib)}, found[:1]) == ["Rudin"]


def test_a_macro_file_without_a_list_of_symbols_documents_its_blocks_and_commented_lines():
    text = "% Vectors.\n\\newcommand{\\vx}{\\mathbf{x}}\n\n\\newcommand{\\undocumented}{u}\n" \
           "\\newcommand{\\pair}[2]{(#1,#2)}  % the pair of #1 and #2\n"
    assert notation.documented_macros(text) == [
        {"title": "Vectors.", "rows": [{"name": "\\vx", "symbol": "\\vx", "meaning": ""}]},
        {"title": "", "rows": [{"name": "\\pair", "symbol": "\\pair{a}{b}", "meaning": "the pair of $a$ and $b$"}]}]
    assert notation.has_notation(None, [FIXTURE_MACROS])        # its header comment heads its definitions


def test_short_forms():
    forms = {"text": "GD", "first": "gradient descent (GD)"}
    assert notation.short_form("gradient descent (GD)", forms) == ("GD", "gradient descent")
    assert notation.short_form("multilayer perceptron (MLP)", {"text": "multilayer perceptron"}) == \
        ("MLP", "multilayer perceptron")
    assert notation.short_form("loss function", {"text": "loss", "first": "loss function (loss)"}) == \
        ("loss", "loss function")
    assert notation.short_form("provider (AI Act)", {"text": "provider"}) is None
    assert notation.short_form("early exit (deep learning)", {"text": "early exit"}) is None
    assert notation.short_form("matrix", {"text": "matrix"}) is None


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return reading_site(tmp_path_factory) / "site"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_notation_and_abbreviations_pages_have_no_violations(site, scheme):
    with chromium() as browser:
        for name in (notation.SYMBOLS_PAGE, notation.ABBREVIATIONS_PAGE):
            context, page = open_page(browser, (site / name).as_uri(), scheme)
            try:
                assert audit(page) == [], name
                assert page.locator("main dt").count() >= 2
            finally:
                context.close()


def test_a_link_to_another_editions_term_leads_there_from_the_notation_page():
    """A piece written for a term page (terms/) shown at the edition's root: its own terms under terms/,
    another edition's ("../../terms/<slug>.html" from de/terms/) one folder up, not out of the site."""
    from glossary.notation import from_site_root
    piece = ('<a href="gd.html" class="xref">GD</a> <a href="../../terms/fl.html" class="xref-other" hreflang="en">'
             'FL</a> <a href="gd.html#eq-1" class="ref">(1)</a> <a href="https://example.org/" class="xref">x</a>')
    hrefs = re.findall(r'href="([^"]*)"', from_site_root(piece))
    assert hrefs == ["terms/gd.html", "../terms/fl.html", "terms/gd.html#eq-1", "https://example.org/"]
