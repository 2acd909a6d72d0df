"""Whose dictionary a site is: the title, the authors, the licence, the year and the "please cite as"
come from the dictionary's main file (and the LICENSE file beside it), the YAML file overrides each
one, and config.yaml's site_title (this repository's own entries) never names someone else's
dictionary.

The unit tests clean titles and author lists written as the real dictionary's main file writes them
(checks/test_real_dictionary.py reads the real file itself).  The builds run on modified
copies of the fixture dictionary: its main file alone with a \\title, \\author, "please cite as" and a
LICENSE; a YAML file overriding them; a main file without \\title."""
import html
import json
import re
import subprocess

import pytest
import yaml
from conftest import REPO
from test_dictionary_build import build, built_ok, copy_fixture, edit

from glossary import pages, plan, texmeta

SITE_TITLE = yaml.safe_load((REPO / "config.yaml").read_text())["site_title"]

# The real main file's \title and \author, as its authors write them (ADictML_Main.tex).
REAL_TITLE = (r"""\vspace*{10mm}
	{\huge {\bf The {\fontsize{40}{48}\selectfont \textbf{\textsf{A\hspace*{-2mm}''}}}\hspace*{-4mm}alto """
              r"""\\ Dictionary of Machine Learning}}  \\[-5mm]
	%
""")
REAL_AUTHOR = r"""\hspace{-2mm}Alexander Jung${}^{1}$, \ Konstantina Olioumtsevits${}^{1}$, \
	Ekkehard Schnoor${}^{1}$, \\[-2mm] Tommi Flores Ryynänen${}^{1}$,\
	Juliette Gronier${}^{2}$, Salvatore Rastelli${}^{1}$, and \\[-2mm] Mikko Seesto${}^{1}$ \\[-2mm]
	${}^{1}$Aalto University \quad ${}^{2}$ENS Lyon
"""
REAL_AUTHORS = ["Alexander Jung", "Konstantina Olioumtsevits", "Ekkehard Schnoor", "Tommi Flores Ryynänen",
                "Juliette Gronier", "Salvatore Rastelli", "Mikko Seesto"]

# What the test dictionary's main file says of itself.
TITLE_TEX = r"\title{\textbf{Tiny} Dictionary\\ of ML}"
AUTHOR_TEX = r"\author{A. One\textsuperscript{1} \and B. Two\thanks{Funded by nobody, 2019.}}"
CITE_TEX = (r"{\large please cite as: A.\ One and B.\ Two, \textit{Tiny Dictionary of ML}. Espoo, Finland: "
            r"Tiny Press, 2024.}")
CC_BY = ("Tiny Dictionary of ML\nCopyright (c) 2023-2024 A. One and B. Two\n\n\nAttribution 4.0 International\n\n"
         "=======================================================================\n\nCreative Commons Corporation "
         '("Creative Commons") is not a law firm and\ndoes not provide legal services or legal advice.\n')


# ---------------------------------------------------------------- reading the main file


def test_the_real_title_is_plain_text():
    assert texmeta.plain_text(REAL_TITLE) == "The Aalto Dictionary of Machine Learning"


def test_the_real_authors_without_marks_and_affiliations():
    assert texmeta.author_names(REAL_AUTHOR) == REAL_AUTHORS


@pytest.mark.parametrize("tex, names", [
    (r"A. One\textsuperscript{1} \and B. Two\thanks{Funded by nobody.}", ["A. One", "B. Two"]),
    (r"Alexander Jung \ and \ Konstantina Olioumtsevits \\[-2mm]%", ["Alexander Jung", "Konstantina Olioumtsevits"]),
    (r"Ann Lee \\ Aalto University \\ \texttt{ann@aalto.fi} \and Bo Chen \\ ENS Lyon",
     ["Ann Lee", "Bo Chen"]),
    (r"J.~M\"uller$^{1,2}$, P.\ Erd\H{o}s$^\ast$ \& C. Ni\~{n}o\footnote{Corresponding.}\\ $^1$Somewhere",
     ["J. Müller", "P. Erdős", "C. Niño"]),
    (r"\IEEEauthorblockN{Ada Byron}\IEEEauthorblockA{Analytical Engines Ltd.}", ["Ada Byron"]),
])
def test_author_forms(tex, names):
    assert texmeta.author_names(tex) == names


@pytest.mark.parametrize("tex, text", [
    (r"\textbf{Tiny} Dictionary\\ of ML", "Tiny Dictionary of ML"),
    (r"{\Large A ``Quoted'' Title}\thanks{x}\\[2mm] \small with \emph{Sub}--title", "A “Quoted” Title with Sub–title"),
    (r"Caf\'e \& R\'{e}nyi\hspace{1em}Notes", "Café & Rényi Notes"),
])
def test_title_forms(tex, text):
    assert texmeta.plain_text(tex) == text


def test_front_matter_pages_between_the_title_page_and_the_contents():
    """The real main file's Acknowledgment (a large bold line) and a \\section*{Preface}; the title page's
    own material before them, and what follows the contents, are not front matter."""
    text = r"""\begin{document}
\maketitle
\begin{center} please cite as: X \end{center}
\newpage
\noindent{\bf\Large Acknowledgment} %
\noindent We thank \url{https://example.org}.
\begin{itemize} \item the Council (grant 1); \end{itemize}
\newpage
\section*{Preface}
Read it.
\tableofcontents
\section*{Not front matter}
"""
    assert texmeta.front_matter(text) == [
        {"title": "Acknowledgment", "tex": "\\noindent We thank \\url{https://example.org}.\n"
                                            "\\begin{itemize} \\item the Council (grant 1); \\end{itemize}"},
        {"title": "Preface", "tex": "Read it."}]
    assert texmeta.front_matter(text.replace("\\maketitle", "")) == []


def test_cite_as_year_and_imprint():
    text = r"\begin{center}" + "\n" + CITE_TEX + "\n" + r"\end{center}"
    cite = texmeta.cite_as_of(text)
    assert cite == (r"A.\ One and B.\ Two, \textit{Tiny Dictionary of ML}. Espoo, Finland: Tiny Press, 2024.")
    assert texmeta.year_of("", texmeta.plain_text(cite)) == 2024
    assert texmeta.imprint(cite) == {"address": "Espoo, Finland", "publisher": "Tiny Press"}
    # a paragraph of its own, up to the blank line; a \cite command is no "cite as"
    assert texmeta.cite_as_of("Cite this book as: X. Y, Z, 2020.\n\nMore.") == "X. Y, Z, 2020."
    assert texmeta.cite_as_of(r"as \cite{as} says") is None


@pytest.mark.parametrize("preamble, captions", [
    # the real dictionary's: a figure is "Fig. 57." in its book
    (r"\captionsetup[figure]{name=Fig., labelsep=period} % Customize",
     {"figure": {"name": "Fig.", "labelsep": "period"}}),
    # a kind's own options win over those for every kind, whatever their order; \figurename gives way to both
    ("\\renewcommand{\\figurename}{Abb.}\n\\captionsetup[figure]{labelsep=period}\n\\captionsetup{labelsep=colon}",
     {"figure": {"name": "Abb.", "labelsep": "period"}, "table": {"labelsep": "colon"}}),
    (r"\renewcommand\tablename{Tab.}", {"table": {"name": "Tab."}}),
    # babel sets \figurename again at \begin{document}: only its captions hook keeps one
    (r"\usepackage[english]{babel}\renewcommand{\figurename}{Fig.}", {}),
    (r"\usepackage[english]{babel}\addto\captionsenglish{\renewcommand{\figurename}{Fig.}}",
     {"figure": {"name": "Fig."}}),
    # name= needs a kind (LaTeX stops on it otherwise); a name the print fonts cannot set
    (r"\captionsetup{name=Fig.}", {}),
    (r"\captionsetup[figure]{name=Рис.}", {}),
    # commented out, a subfigure's, a name that is TeX, an unknown separator: LaTeX's own labels
    (r"%\captionsetup{name=X}" "\n" r"\captionsetup[sub]{labelformat=parens}" "\n"
     r"\captionsetup[figure]{name=\textbf{F}, labelsep=arrow}", {}),
])
def test_the_main_files_caption_labels(preamble, captions):
    assert texmeta.captions_of(preamble) == captions


@pytest.mark.parametrize("text, name", [
    (CC_BY, "CC BY 4.0"),
    (CC_BY.replace("Attribution 4.0", "Attribution-ShareAlike 4.0"), "CC BY-SA 4.0"),
    ("CC0 1.0 Universal\n\nStatement of Purpose", "CC0 1.0"),
    ("MIT License\n\nPermission is hereby granted, free of charge, to any person", "MIT"),
])
def test_a_licence_file_is_recognised_by_its_text(tmp_path, text, name):
    (tmp_path / "LICENSE.md").write_text(text)
    found = texmeta.license_file(tmp_path)
    assert found["name"] == name and found["url"].startswith("https://") and found["file"] == "LICENSE.md"


def test_the_yaml_file_names_a_licence():
    assert texmeta.license_named("CC-BY-4.0")["url"] == "https://creativecommons.org/licenses/by/4.0/"
    assert texmeta.license_named("Creative Commons Attribution 4.0 International (CC BY 4.0)")["name"] == "CC BY 4.0"
    assert texmeta.license_named({"name": "Own terms", "url": "https://x.org/l"}) == {
        "name": "Own terms", "title": "Own terms", "spdx": None, "url": "https://x.org/l", "notice": None,
        "file": None}
    assert texmeta.license_named("All rights reserved")["url"] is None


def test_the_markdown_entries_record_names_no_title_as_author():
    record = pages.bibtex("x", "X", {"title": SITE_TITLE}, None)
    assert "author" not in record and SITE_TITLE in record      # where it is published, not who wrote it


# ---------------------------------------------------------------- whole builds


def texts(site):
    """{relative path: text} of every text file of a built site, and each PDF's metadata."""
    from pypdf import PdfReader
    found = {str(p.relative_to(site)): p.read_text(encoding="utf-8") for p in site.rglob("*")
             if p.suffix in (".html", ".json", ".txt", ".md", ".xml")}
    found |= {str(p.relative_to(site)): json.dumps(dict(PdfReader(str(p)).metadata or {}), ensure_ascii=False)
              for p in site.rglob("*.pdf") if "figures" not in p.parts and "pictures" not in p.parts}
    return found


def pdf_text(path):
    return " ".join(subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True,
                                   check=True).stdout.split())


def dictionary_copy(root, title=TITLE_TEX, author=AUTHOR_TEX, cite=CITE_TEX, licence=CC_BY):
    """A copy of the fixture whose main file has `title`, `author` and `cite` (None: without them) and a
    LICENSE beside it holding `licence`; its main file's path."""
    config = copy_fixture(root)
    main = config.parent / "TinyDict_Main.tex"
    edit(main, r"\title{A Tiny Dictionary of Machine Learning}", title or "")
    edit(main, "\\maketitle\n", "\\maketitle\n" + (f"{author}\n" if author else "") + (f"{cite}\n" if cite else ""))
    if licence:
        (config.parent / "LICENSE").write_text(licence)
    return main


@pytest.fixture(scope="module")
def alone(tmp_path_factory):
    """The site of a main .tex file alone (no YAML file), and the build's run."""
    root = tmp_path_factory.mktemp("alone")
    main = dictionary_copy(root / "dict")
    run = build(main, root / "out")
    built_ok(run)
    return root / "out" / "site", run


@pytest.mark.slow
def test_the_main_file_gives_title_authors_and_licence_on_every_page(alone):
    site, run = alone
    assert "note:" not in run.stderr
    for page in [site / "index.html", *sorted((site / "terms").glob("*.html"))]:
        html = page.read_text()
        assert re.search(r"<title>[^<]*Tiny Dictionary of ML</title>", html), page
        footer = html[html.index('<footer class="site">'):]
        assert "<cite>Tiny Dictionary of ML</cite> by A. One and B. Two, 2024." in footer, page
        assert ('Copyright (c) 2023-2024 A. One and B. Two. Published under <a rel="license" href="https://'
                'creativecommons.org/licenses/by/4.0/">Creative Commons Attribution 4.0 International (CC BY 4.0)'
                '</a>.') in footer, page


@pytest.mark.slow
def test_terms_json_llms_txt_and_the_cite_records(alone):
    site, _ = alone
    data = json.loads((site / "terms.json").read_text())
    assert data["title"] == data["site"] == "Tiny Dictionary of ML"
    assert data["authors"] == ["A. One", "B. Two"] and data["year"] == 2024
    assert data["license"]["spdx"] == "CC-BY-4.0" and data["license"]["url"].endswith("/by/4.0/")
    llms = (site / "llms.txt").read_text()
    assert llms.startswith("# Tiny Dictionary of ML\n")
    assert ("Tiny Dictionary of ML by A. One and B. Two, 2024. Published under Creative Commons Attribution 4.0 "
            "International (CC BY 4.0), https://creativecommons.org/licenses/by/4.0/.") in llms
    for term in data["terms"]:
        record = term["bibtex"]
        assert re.search(r"author\s*= \{A\. One and B\. Two\},", record), record
        assert re.search(r"year\s*= \{2024\},", record)
        assert r"In \emph{Tiny Dictionary of ML}, Espoo, Finland: Tiny Press" in record
        page = (site / f"terms/{term['slug']}.html").read_text()
        shown = re.search(r'<pre class="bibtex"><code>(.*?)</code></pre>', page, re.S).group(1)
        assert html.unescape(shown) == record      # the page's record is terms.json's


@pytest.mark.slow
def test_the_term_pdfs_name_the_authors(alone):
    from pypdf import PdfReader
    site, _ = alone
    pdf = site / "terms/gd.pdf"
    meta = PdfReader(str(pdf)).metadata
    assert meta.author == "A. One, B. Two" and meta.title == "gradient descent (GD)"
    text = pdf_text(pdf)
    assert "author = {A. One and B. Two}" in text and "year = {2024}" in text


@pytest.mark.slow
def test_never_config_yamls_title(alone):
    site, _ = alone
    assert not [path for path, text in texts(site).items() if SITE_TITLE in text]


@pytest.mark.slow
def test_the_yaml_file_overrides_each_field(tmp_path):
    main = dictionary_copy(tmp_path / "dict")
    config = main.parent / "override.yaml"
    config.write_text("main: TinyDict_Main.tex\ntitle: An Overriding Title\nauthors: [C. Three]\nyear: 2001\n"
                      "license: {name: Own terms, url: 'https://example.org/terms'}\n")
    built_ok(build(config, tmp_path / "out"))
    site = tmp_path / "out" / "site"
    data = json.loads((site / "terms.json").read_text())
    assert (data["title"], data["authors"], data["year"]) == ("An Overriding Title", ["C. Three"], 2001)
    assert data["license"]["name"] == "Own terms" and data["license"]["url"] == "https://example.org/terms"
    assert re.search(r"author\s*= \{C\. Three\}", data["terms"][0]["bibtex"])
    footer = (site / "index.html").read_text().split('<footer class="site">')[1]
    assert "<cite>An Overriding Title</cite> by C. Three, 2001." in footer
    assert 'Published under <a rel="license" href="https://example.org/terms">Own terms</a>.' in footer
    assert not [path for path, text in texts(site).items() if SITE_TITLE in text or "Tiny Dictionary" in text]


@pytest.mark.slow
def test_a_main_file_without_title_says_so_once_and_takes_its_name(tmp_path):
    main = dictionary_copy(tmp_path / "dict", title=None, author=None, cite=None, licence=None)
    run = build(main, tmp_path / "out")
    built_ok(run)
    notes = [line for line in (run.stdout + run.stderr).splitlines() if "\\title" in line]
    assert notes == [f"note: {main}: no \\title{{...}}, so the site is titled 'TinyDict_Main', its file's name; "
                     "add \\title{...} to the main file or title: to a YAML file naming it"]
    site = tmp_path / "out" / "site"
    assert json.loads((site / "terms.json").read_text())["title"] == "TinyDict_Main"
    assert "<title>TinyDict_Main</title>" in (site / "index.html").read_text()
    assert not [path for path, text in texts(site).items() if SITE_TITLE in text]
    # no authors, no licence: no credit line claims any
    assert "<cite>" not in (site / "index.html").read_text().split('<footer class="site">')[1]


def test_the_dictionary_model_for_the_book(tmp_path):
    main = dictionary_copy(tmp_path / "dict")
    loaded = plan.load({"source": str(main), "site_title": SITE_TITLE, "site_description": "d"}, REPO)
    assert loaded["title"] == "Tiny Dictionary of ML" and loaded["authors"] == ["A. One", "B. Two"]
    assert loaded["cite_as"].startswith(r"A.\ One and B.\ Two, \textit{Tiny") and loaded["year"] == 2024
    assert loaded["license"]["name"] == "CC BY 4.0" and loaded["symbols_file"] is None
    # the fixture's main file labels its figures as the real book does; a figure's word on its pages too
    assert loaded["captions"] == {"figure": {"name": "Fig.", "labelsep": "period"}}
    assert loaded["edition_view"]["messages"]["Figure"] == "Fig."
