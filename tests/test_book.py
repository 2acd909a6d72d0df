"""The book and the term PDFs of a glossaries-extra dictionary, set as the authors set their glossary:
entries running on (not a page each), each ending in its "See also" list (linked inside the book, to
the site in a term PDF), a title page from the main file, the List of Symbols, one bibliography
numbered through the book, the text starting once.  Real builds of a copy of the fixture
dictionary (tests/fixtures/texdict) with a List of Symbols, authors and a "please cite as" added,
real pdflatex; the expectations are read from the fixture's source here."""
import html
import re
import subprocess
from pathlib import Path

import pikepdf
import pytest
from pypdf import PdfReader
from test_dictionary_build import build, built_ok, copy_fixture, edit, fixture_terms, slug_of
from test_print import links

from glossary import batchfiles, bookrun, jsonio, latex, plan, typeset

pytestmark = pytest.mark.slow

SITE = "https://example.org/tiny-dictionary/"
AUTHORS = ["Ada Lovelace", "Alan Turing"]
CITE_AS = r"A.\ Lovelace and A.\ Turing, \textit{A Tiny Dictionary of Machine Learning}. London, 2026."
# Cited by the List of Symbols alone: the book formats it too, in the same style.
SYMBOLS_ONLY = ("Axler2015", "Linear Algebra Done Right")
SYMBOLS = r"""% The tiny dictionary's list of symbols, in the manner of the large one's.
\section*{List of Symbols}
\addcontentsline{toc}{section}{List of Symbols}
\begin{align}
	&\featurevec & \quad & \parbox{.7\textwidth}{The \glspl{feature} of a \gls{datapoint} \cite{Strang2016}.}
	\nonumber \\[2mm] \hline \nonumber\\[-5mm]
	&\trace(\mathbf{A}) & \quad & \parbox{.7\textwidth}{The sum of the diagonal of a \gls{matrix}
		\cite[Ch. 8]{Axler2015}. \\ See also: \gls{matrix}.} \nonumber
\end{align}
"""
# The front matter's own page, written as the real main file writes its Acknowledgment.
ACKNOWLEDGMENT = r"""\newpage
\noindent{\bf\Large Acknowledgment} % one page of the authors' own

\noindent This tiny dictionary grew out of the project's tests, at \url{https://example.org/tests}.
This work was supported by
\begin{itemize}
	\item the Council of Small Examples (grant 42);
	\item the Foundation for Fixtures.
\end{itemize}
\newpage
"""
BIB_RECORD = """
@book{Axler2015,
  author    = {Sheldon Axler},
  title     = {Linear Algebra Done Right},
  edition   = {3},
  publisher = {Springer},
  year      = {2015}
}
"""


def pdftotext(path):
    return subprocess.run(["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True,
                          check=True).stdout


def words(text):
    return " ".join(text.split())


def outline(path):
    """[(title, page index, depth)] of a PDF's outline, depth first."""
    reader = PdfReader(str(path))
    rows = []

    def walk(items, depth):
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            else:
                rows.append((item.title, reader.get_destination_page_number(item), depth))
    walk(reader.outline, 0)
    return rows


def add_front_matter(root):
    """The fixture copy's main file with authors, a "please cite as" and a List of Symbols (\\input),
    as the real dictionary's has them."""
    (root / "ListSymbols_Tiny.tex").write_text(SYMBOLS)
    with (root / "assets" / "tiny.bib").open("a") as f:
        f.write(BIB_RECORD)
    main = root / "TinyDict_Main.tex"
    text = main.read_text()
    old = "\\title{A Tiny Dictionary of Machine Learning}\n\\maketitle\n"
    assert old in text, "the fixture's main file changed; update this test"
    main.write_text(text.replace(old, old.replace("\\maketitle", f"\\author{{{' and '.join(AUTHORS)}}}\n\\maketitle")
                                 + f"please cite as: {CITE_AS}\n\n{ACKNOWLEDGMENT}\n\\input{{ListSymbols_Tiny.tex}}\n"))


@pytest.fixture(scope="module")
def work(tmp_path_factory):
    root = tmp_path_factory.mktemp("book")
    source = copy_fixture(root / "dict")
    add_front_matter(root / "dict")
    out = root / "out"
    built_ok(build(source, out))
    return root / "dict", source, out


# A book of more entries is typeset in pieces (config book_piece): the fixture's sections of more than
# four entries then a piece per initial letter.
PIECE = 4


def piece_profile(root):
    """A Snakemake profile folder whose config file sets book_piece: PIECE (over config.yaml's)."""
    (root / "pieces.yaml").write_text(f"book_piece: {PIECE}\n")
    (root / "profile").mkdir()
    (root / "profile/config.yaml").write_text(f"cores: 2\nconfigfile: [{root / 'pieces.yaml'}]\n")
    return root / "profile"


# One word of norm's, edited in the pieced build (glossary.bookrun reruns norm's piece alone).
NORM_WORD = ("A norm\\index{norm} assigns a length", "A norm\\index{norm} gives a length")


@pytest.fixture(scope="module")
def pieces_built(tmp_path_factory):
    """A copy like work's built with its book in pieces, then one word of norm's edited and built
    again: (root, source, out, {"before": the book's bytes before the edit, "ran": the pieces the
    edit's book job ran, as its log tells})."""
    root = tmp_path_factory.mktemp("pieces")
    source = copy_fixture(root / "dict")
    add_front_matter(root / "dict")
    out, profile = root / "out", piece_profile(root)
    built_ok(build(source, out, profile=profile))
    before = (out / "site/dictionary.pdf").read_bytes()
    edit(root / "dict/TinyDict_Audit.tex", *NORM_WORD)
    built_ok(build(source, out, profile=profile))
    ran = re.search(r"ran: (.*)", (out / "logs/book/dictionary.log").read_text()).group(1)
    return root / "dict", source, out, {"before": before, "ran": ran}


@pytest.fixture(scope="module")
def pieces(pieces_built):
    """The copy with its book in pieces (glossary.bookrun): front matter, List of Symbols, a piece per
    section or per initial letter of a larger one, bibliography and Index, joined."""
    return pieces_built[:3]


@pytest.fixture(scope="module", params=["work", "pieces"])
def book(request):
    """The built copy (root, source, out) with its book typeset whole (work), then in pieces."""
    return request.getfixturevalue(request.param)


@pytest.fixture(scope="module")
def model(work):
    """The dictionary model of the copy (what the build read)."""
    return plan.load({"source": str(work[1]), "site_title": "x", "entries_dir": "entries",
                      "site_description": "x"}, work[0])


def see_also_of(body):
    """The keys of a description's "See also" line."""
    found = re.search(r"See also:(.*?)\.?\s*$", body, re.S)
    return re.findall(r"\\gls\{([^{}]*)\}", found.group(1)) if found else []


def first_sentence(body):
    """The words of a description's opening, up to its first command or formula (\\index{} left out)."""
    return words(re.split(r"[\\$]", re.sub(r"\\index\{[^{}]*\}", "", body), maxsplit=1)[0])


def test_entries_run_on_and_the_text_starts_once(book):
    out = book[2]
    terms = fixture_terms()
    book = out / "site/dictionary.pdf"
    starts = [page for _, page, depth in outline(book) if depth == 1]      # the entries, below their sections
    assert len(starts) == len(terms) and len(set(starts)) < len(starts), f"{starts}: an entry still takes a page"
    text, pdf = words(pdftotext(book)), words(pdftotext(out / "site/terms/vector.pdf"))
    opening = first_sentence(terms["vector"]["body"])      # "A vector is an ordered list of"
    assert len(opening.split()) >= 5
    assert text.count(opening) == 1 and pdf.count(opening) == 1
    assert "@misc{glossary:" not in text and "Cite this entry" not in text      # no BibTeX record in the book
    assert "Cite this entry" in pdf and "@misc{glossary:vector," in pdf          # the term PDF keeps its record


def test_see_also_in_the_book_and_each_term_pdf_linked(book):
    out = book[2]
    terms = fixture_terms()
    catalog = {row["slug"]: row["title"] for row in jsonio.read(out / "results/catalog.json")["entries"]}
    with_lists = {k: see_also_of(t["body"]) for k, t in terms.items() if see_also_of(t["body"])}
    assert len(with_lists) >= 3
    book = out / "site/dictionary.pdf"
    text = words(pdftotext(book))
    found, reader = links(book)
    pages = {title: page for title, page, _ in outline(book)}
    for key, others in with_lists.items():
        line = "See also: " + ", ".join(catalog[slug_of(k)] for k in others) + "."
        assert line in text, (key, line)
        pdf = out / f"site/terms/{slug_of(key)}.pdf"
        assert line in words(pdftotext(pdf)), (key, line)
        uris = {uri for _, kind, uri in links(pdf)[0] if kind == "URI"}
        assert {f"{SITE}terms/{slug_of(k)}.html" for k in others} <= uris, key
        # in the book, each a link to that entry's place (its named destination term:<slug>)
        start = pages[catalog[slug_of(key)]]
        targets = {d for page, kind, d in found if kind == "GoTo" and page in (start, start + 1)}
        assert {f"term:{slug_of(k)}" for k in others} <= targets, key
        for k in others:
            assert reader.get_destination_page_number(reader.named_destinations[f"term:{slug_of(k)}"]) == \
                pages[catalog[slug_of(k)]]
        # the page lists them in the same order, the entry's own
        html = (out / f"site/terms/{slug_of(key)}.html").read_text()
        block = html.split('<ul class="see-also">', 1)[1].split("</ul>")[0]
        listed = re.findall(r'<li><a href="([^"]+)\.html">', block)
        assert listed == [slug_of(k) for k in others], key
    assert any(others != sorted(others, key=lambda k: catalog[slug_of(k)]) for others in with_lists.values())


def test_a_term_pdf_links_its_title_to_its_page(work):
    out = work[2]
    for pdf in sorted((out / "site/terms").glob("*.pdf")):
        found, _ = links(pdf)
        assert (0, "URI", f"{SITE}terms/{pdf.stem}.html") == found[0], pdf.name     # the title, first


CITE = re.compile(r"\\cite(?:\[[^\]]*\])?\{([^{}]*)\}")


def cited_in_book_order(book, terms, symbols):
    """The fixture's cited keys in order of first citation through the book: the List of Symbols'
    first (when the book has it), then its entries in the outline's order, each entry's in its text's."""
    titles = {t["fields"]["name"]: k for k, t in terms.items()}
    order = CITE.findall(SYMBOLS) if symbols else []
    for title, _, _ in outline(book):
        if title in titles:
            order += CITE.findall(terms[titles[title]]["body"].split("See also:")[0])
    return list(dict.fromkeys(order))


def bib_records(root):
    """{key: (first author's surname, year)} of the copy's .bib file (IEEE sets titles in its own case)."""
    text = (root / "assets/tiny.bib").read_text()
    records = {}
    for m in re.finditer(r"@\w+\{([^,]+),(.*?)\n\}", text, re.S):
        author = re.search(r"author\s*=\s*\{([^}]*)\}", m.group(2)).group(1).split(" and ")[0]
        records[m.group(1)] = (author.split()[-1], re.search(r"year\s*=\s*\{([^}]*)\}", m.group(2)).group(1))
    return records


def bibliography_items(text):
    """{n: the item's words} of the book's one reference list (after its last "References" line)."""
    rest = text.split("\nReferences\n")[-1]
    items = re.split(r"^\s*\[(\d+)\]\s", rest, flags=re.M)
    return {int(n): words(body) for n, body in zip(items[1::2], items[2::2])}


def test_one_bibliography_numbered_through_the_book(book, model):
    root, _, out = book
    book = out / "site/dictionary.pdf"
    text = pdftotext(book)
    assert len(re.findall(r"^\s*References\s*$", text, re.M)) == 1
    order = cited_in_book_order(book, fixture_terms(), bool(model.get("symbols_file")))
    items = bibliography_items(text)
    assert sorted(items) == list(range(1, len(order) + 1))
    records = bib_records(root)
    for n, key in enumerate(order, 1):
        surname, year = records[key]
        assert surname in items[n] and year in items[n], (n, key, items[n])
    # gradient's "\cite[Sec. 9.3]{BoydVandenberghe2004}" shows the book's number with its pinpoint
    assert f"[{order.index('BoydVandenberghe2004') + 1}, Sec. 9.3]" in words(text)
    # a term PDF keeps its own list, numbered from 1 (gd cites Robbins1951, then Goodfellow2016)
    gd = words(pdftotext(out / "site/terms/gd.pdf"))
    assert "[1] H. Robbins" in gd and "[2] I. Goodfellow" in gd


def test_title_page_authors_and_please_cite_as(book, model):
    assert model["authors"] == AUTHORS and model["cite_as"]
    first = words(subprocess.run(["pdftotext", "-l", "1", str(book[2] / "site/dictionary.pdf"), "-"],
                                 capture_output=True, text=True, check=True).stdout)
    assert "A Tiny Dictionary of Machine Learning" in first
    assert " and ".join(AUTHORS) in first
    assert "Lovelace and A. Turing, A Tiny Dictionary of Machine Learning. London, 2026." in first


def test_the_main_files_acknowledgment_is_a_page_of_the_book(book, model):
    assert [p["title"] for p in model["front_matter"]] == ["Acknowledgment"]
    second = words(subprocess.run(["pdftotext", "-f", "2", "-l", "2", str(book[2] / "site/dictionary.pdf"), "-"],
                                  capture_output=True, text=True, check=True).stdout)
    assert second.startswith("Acknowledgment This tiny dictionary grew out of the project\u2019s tests"), second
    assert "the Council of Small Examples (grant 42);" in second and "https://example.org/tests" in second
    assert ("Acknowledgment", 1) in {(t, p) for t, p, _ in outline(book[2] / "site/dictionary.pdf")}


def test_list_of_symbols_in_the_built_book(book, model):
    assert model["symbols_file"]
    book = book[2] / "site/dictionary.pdf"
    text = words(pdftotext(book))
    assert "List of Symbols" in text and "The sum of the diagonal of a matrix" in text
    assert ("List of Symbols", 0) in {(t, d) for t, _, d in outline(book)}


def test_list_of_symbols_typeset_with_the_dictionarys_macros(work, tmp_path):
    """typeset.book_document with the List of Symbols (what rule book gives it once the model names the
    file): its \\gls calls link to the entries, its citations take the book's first numbers, its
    macros (\\featurevec, \\DeclareMathOperator{\\trace}) are the dictionary's."""
    root, _, out = work
    sections = batchfiles.read_build(out, batchfiles.SECTIONS)
    parts = [{"title": "All", "entries": sorted(sections.items())}]
    symbols = root / "ListSymbols_Tiny.tex"
    formatted = jsonio.read(out / "results/references.json")     # the List of Symbols' records among them
    macros = (root / "assets/notation.tex").read_text()
    front = {"title": "T", "authors": AUTHORS, "cite_as": CITE_AS,
             "symbols": (symbols.read_text(), macros, jsonio.read(out / "results/names.json")["targets"])}
    tex = tmp_path / "book.tex"
    tex.write_text(typeset.book_document(parts, "T", SITE, Path(__file__).parents[1] / "templates/print",
                                         front=front, formatted=formatted))
    latex.compile_pdf(tex, tmp_path / "book.pdf", tmp_path / "book.log", passes=3,
                      inputs=[Path(__file__).parents[1] / "templates"], links={typeset.TERMS: out / "site/terms"})
    text = words(pdftotext(tmp_path / "book.pdf"))
    assert "A. Lovelace and A. Turing, A Tiny Dictionary of Machine Learning. London, 2026." in text
    assert "The features of a data point [1]." in text          # Strang2016: the book's first citation
    assert "The sum of the diagonal of a matrix [2, Ch. 8]." in text
    items = bibliography_items(pdftotext(tmp_path / "book.pdf"))
    assert SYMBOLS_ONLY[1] in items[2] and "Strang" in items[1]
    assert "tr(A)" in text.replace(" ", "")
    found, reader = links(tmp_path / "book.pdf")
    symbols_page = next(p for t, p, _ in outline(tmp_path / "book.pdf") if t == "List of Symbols")
    targets = {d for page, kind, d in found if kind == "GoTo" and page == symbols_page}
    assert {"term:feature", "term:datapoint", "term:matrix", "bib-1", "bib-2"} <= targets


def test_the_book_starts_from_the_entry_pdfs_format(work, tmp_path):
    """Each of the book's passes starts from the entry PDFs' format (rule print_format), whose preamble
    is the book's; a document whose preamble differs is refused, not typeset without its packages."""
    _, _, out = work
    first = (out / "logs/book/dictionary.tex.log").read_text(encoding="latin-1").splitlines()[0]
    assert "format=entry" in first, first
    book = (out / "results/print/book/dictionary.tex").read_text(encoding="utf-8")
    assert latex.END_OF_DUMP in book
    other = book.replace(r"\usepackage{amsmath,amssymb}", r"\usepackage{amsmath}")
    with pytest.raises(RuntimeError, match="its preamble is not the one .*entry.fmt was dumped from"):
        bookrun.compile_book([{"name": "dictionary", "kind": "whole", "tex": other, "nested": False}],
                             tmp_path / "tex", tmp_path / "book.pdf", tmp_path / "book.log", tmp_path / "cache",
                             fmt=out / "results/print/entry.fmt", fmt_source=out / "results/print/entry-format.tex",
                             links={typeset.TERMS: out / "site/terms"})
    assert not (tmp_path / "book.pdf").exists()


def test_the_index_lists_each_index_word_at_its_entrys_page(book):
    """The authors' book ends with an Index of their \\index words (makeidx); so does the book: each word
    with the page its entry's text has it on (each \\index here follows the entry's first words), the
    number linked to that page.  A page and an entry's PDF show nothing of it."""
    dict_root, _, out = book
    book = out / "site/dictionary.pdf"
    words_of = {}
    for key, term in fixture_terms().items():
        for word in re.findall(r"\\index\{([^{}]*)\}", term["body"]):
            words_of.setdefault(" ".join(word.split()), set()).add(slug_of(key))
    assert len(words_of) >= 5, words_of
    reader = PdfReader(str(book))
    texts = [pdftotext_page(book, i + 1) for i in range(len(reader.pages))]
    # an entry's page: its outline item; the number printed on it: the page's foot
    starts = {title: page for title, page, _ in outline(book)}
    titles = {slug_of(key): term["fields"]["name"] for key, term in fixture_terms().items()}
    printed = [([t for t in text.split() if re.fullmatch(r"\d+|[ivxlc]+", t)] or [""])[-1] for text in texts]
    first = next(i for i, text in enumerate(texts) if re.match(r"\s*Index\b", text))
    assert first > max(starts[title] for title in titles.values()), "the Index is not after the entries"
    assert starts["Index"] == first                                     # in the outline
    # and in the contents, with the page it starts on, as the authors' book lists it
    contents = " ".join(" ".join(t for t in texts[:first] if "Contents" in t).split())
    assert re.search(rf"\bIndex \.*\s*{printed[first]}\b", contents), contents
    index = " ".join(" ".join(texts[first:]).split())
    for word, slugs in sorted(words_of.items()):
        pages = sorted({printed[starts[titles[slug]]] for slug in slugs}, key=int)
        assert re.search(rf"(?<![\w-]){re.escape(word)}, {', '.join(pages)}(?![\d,])", index), (word, pages, index)
    links = [a for page in reader.pages[first:] for a in page.get("/Annots", [])
             if a.get_object()["/Subtype"] == "/Link"]
    assert len(links) >= len(words_of), "the Index's page numbers are not links"
    # nothing of it on a page or in an entry's PDF
    vector = next(iter(words_of["vector"]))
    page = (out / "site/terms" / f"{vector}.html").read_text()
    assert "\\index" not in page and "print-only" not in page
    assert "\\index" not in (out / "site/terms" / f"{vector}.md").read_text()
    assert "Index" not in pdftotext(out / "site/terms" / f"{vector}.pdf")


def pdftotext_page(path, n):
    return subprocess.run(["pdftotext", "-f", str(n), "-l", str(n), str(path), "-"], capture_output=True,
                          text=True, check=True).stdout


def page_words(path):
    reader = PdfReader(str(path))
    return reader, [words(pdftotext_page(path, i + 1)) for i in range(len(reader.pages))]


def test_a_book_in_pieces_reads_as_the_whole_one(work, pieces):
    """The book in pieces (each its own pdflatex run, joined) has the whole book's outline, link targets
    and text; its page labels run on from piece to piece and match the numbers printed at each foot;
    every link lands on its target's page; each piece after the first of a section starts a new page
    at an initial letter, where the whole book runs the entries on."""
    tex = sorted(p.stem for p in (pieces[2] / "results/print/book").glob("*.tex"))
    bodies = [t for t in tex if t.startswith("body-")]
    assert {"front", "symbols", "back"} <= set(tex) and len(bodies) > 3, tex     # the sections, and letters
    whole, joined = work[2] / "site/dictionary.pdf", pieces[2] / "site/dictionary.pdf"
    assert len(PdfReader(str(whole)).pages) < len(fixture_terms())          # whole, the entries run on
    assert [(t, d) for t, _, d in outline(whole)] == [(t, d) for t, _, d in outline(joined)]
    reader, texts = page_words(joined)
    # the entries' and the bibliography's (the rest count apart in each piece)
    named = {n for n in PdfReader(str(whole)).named_destinations if n.startswith(("term:", "bib-"))}
    assert len(named) > len(fixture_terms()) and named <= set(reader.named_destinations)
    assert " ".join(texts).count(first_sentence(fixture_terms()["vector"]["body"])) == 1
    # labels: i, ii, ... then 1, 2, ... on from piece to piece, as printed
    labels = list(reader.page_labels)
    arabic = labels[labels.index("1"):]
    assert arabic == [str(n) for n in range(1, len(arabic) + 1)] and labels[0] == "i"
    for label, text in zip(labels[1:], texts[1:]):                    # the title page has no number
        assert [t for t in text.split() if re.fullmatch(r"\d+|[ivxlc]+", t)][-1] == label, (label, text[-80:])
    # each link to an entry lands on the page that shows its name
    titles = {slug_of(k): t["fields"]["name"] for k, t in fixture_terms().items()}
    found, _ = links(joined)
    targets = {d for _, kind, d in found if kind == "GoTo"}
    assert len({t for t in targets if t.startswith("term:")}) >= 10, targets
    for target in targets:
        page = reader.get_destination_page_number(reader.named_destinations[target])
        if target.startswith("term:"):
            assert titles[target[5:]] in texts[page], (target, page)
    # a piece of a section's later letters starts a page, its first entry at the top
    rows, whole_rows = outline(joined), outline(whole)
    order = [t for t, _, _ in rows]
    shared = 0
    for body in bodies:
        text = (pieces[2] / "results/print/book" / f"{body}.tex").read_text(encoding="utf-8")
        if "\\glossarysection{" in text:
            continue
        title = re.search(r"\\glossaryentry\{[^}]*\}\{([^}]*)\}", text).group(1)
        at = order.index(title)
        section = next(t for t, _, depth in reversed(rows[:at]) if depth == 0)
        assert rows[at][1] > rows[at - 1][1], (body, title)
        # the running head (the section, this entry), then the entry
        assert texts[rows[at][1]].startswith(f"{section} {title} {title}"), texts[rows[at][1]][:120]
        shared += whole_rows[at][1] == whole_rows[at - 1][1]
    assert shared, "no letter's piece split a page of the whole book: the fixture no longer tests it"


def test_an_edit_reruns_its_own_piece_of_the_book(pieces_built):
    """One word edited in an entry: the book reruns that entry's piece, once, and joins the pieces again
    (the job's log tells which ran); the others are its last build's."""
    _, _, out, edited = pieces_built
    holder = [p.stem for p in (out / "results/print/book").glob("body-*.tex")
              if "\\glossaryentry{norm}{" in p.read_text(encoding="utf-8")]
    assert holder and edited["ran"] == f"{holder[0]} x1", edited["ran"]
    after = (out / "site/dictionary.pdf").read_bytes()
    assert after != edited["before"] and b"gives a length" not in after     # the text is in compressed streams
    assert "A norm gives a length" in words(pdftotext(out / "site/dictionary.pdf"))


def word_boxes(path, index):
    """[(word, top, bottom)] of a page (0-based), in points from the page's top (pdftotext -bbox)."""
    out = subprocess.run(["pdftotext", "-bbox", "-f", str(index + 1), "-l", str(index + 1), str(path), "-"],
                         capture_output=True, text=True, check=True).stdout
    return [(html.unescape(w), float(top), float(bottom)) for top, bottom, w in
            re.findall(r'<word xMin="[\d.]+" yMin="([\d.]+)" xMax="[\d.]+" yMax="([\d.]+)">([^<]*)</word>', out)]


def test_a_link_opens_on_the_line_it_marks(book):
    """Each entry's and each bibliography item's named destination lies just above its line, as
    hyperref's section anchors do: a viewer that follows a link or a bookmark shows the entry's name or
    the item's number at the top, not the line below it."""
    pdf = book[2] / "site/dictionary.pdf"
    reader = PdfReader(str(pdf))
    titles = {slug_of(k): t["fields"]["name"] for k, t in fixture_terms().items()}
    checked = 0
    for name, dest in reader.named_destinations.items():
        if not name.startswith(("term:", "bib-")):
            continue
        index = reader.get_destination_page_number(dest)
        top = float(reader.pages[index].mediabox.height) - float(dest.top)
        # term:<slug>, and term:<slug>.2, its outline item's
        first = titles[re.sub(r"\.\d+$", "", name[5:])].split()[0] if name.startswith("term:") else f"[{name[4:]}]"
        below = [t - top for w, t, _ in word_boxes(pdf, index) if w == first and t > top - 12]
        gap = min(below, key=abs)
        assert 0 <= gap <= 14, (name, top, gap)          # above the line's glyphs, by at most a line
        checked += 1
    assert checked > len(titles)


def test_the_books_links_are_its_pieces_links(pieces):
    """The book's link check reads each piece's links as the piece is made (bookrun.LINKS) and the book's
    named destinations as it is joined (links.joined_links): an edit reads its own piece's alone.  What it
    finds is what reading the whole book finds, a dead link too."""
    from glossary import links as site_links
    out = pieces[2]
    cache, book = out / "results/cache/book", out / "site/dictionary.pdf"
    # the pieces in the book's order (typeset.book_pieces: the front matter, the List of Symbols, the
    # pieces of the body, the back)
    names = sorted(jsonio.read(cache / bookrun.RECORDS), key=lambda n: (n != "front", n != "symbols", n == "back", n))
    pieces_links = bookrun.piece_links([{"name": n} for n in names], cache)
    assert sum(pages for *_, pages in pieces_links) == len(PdfReader(str(book)).pages)
    with pikepdf.open(book) as whole:
        defined = site_links.destination_names(whole)
    found = site_links.joined_links(pieces_links, defined)
    assert found == site_links.pdf_links(book) and found[0] and not found[1]
    # a name the book does not define: dead, at the same place, either way
    name = next(value for _, refs, _ in pieces_links for _, kind, value in refs if kind == "name")
    assert site_links.joined_links(pieces_links, defined - {name})[1] == [
        (f"#{name}", f"no destination {name!r} in the PDF")] * sum(
        value == name for _, refs, _ in pieces_links for _, kind, value in refs if kind == "name")


def test_the_join_writes_again_only_what_changed(pieces_built, tmp_path):
    """The pieces are joined from their segments (glossary.pdfjoin), each kept beside its piece: an edit's
    join makes its own piece's again, and writes the bytes a join from nothing writes; so does a join
    whose parts' object numbers all moved.  The book passes qpdf's syntax check, holds every part's pages,
    named destinations and outline, and the join tells the names it wrote."""
    from glossary import links as site_links
    from glossary import pdfjoin
    out = pieces_built[2]
    cache = out / "results/cache/book"
    records = jsonio.read(cache / bookrun.RECORDS)
    names = sorted(records, key=lambda n: (n != "front", n != "symbols", n == "back", n))
    parts = [bookrun.part({"name": n, "nested": False}, records, cache) for n in names]
    assert len(parts) > 3
    edited = [n for n in names if pieces_built[3]["ran"].startswith(f"{n} ")]
    assert len(edited) == 1 and edited[0] != names[0]
    kept = {n: (cache / f"{n}.seg").stat().st_mtime_ns for n in names}
    # the edit's job remade its own piece's segment, after every other one was made
    assert max(v for n, v in kept.items() if n != edited[0]) < kept[edited[0]]
    told = pdfjoin.join(parts, tmp_path / "kept.pdf", store=cache)
    assert {n: (cache / f"{n}.seg").stat().st_mtime_ns for n in names} == kept      # none made again
    assert pdfjoin.join(parts, tmp_path / "anew.pdf") == told
    assert (tmp_path / "kept.pdf").read_bytes() == (tmp_path / "anew.pdf").read_bytes()
    # every part's numbers moved: without the first part, each segment is made again at its new base
    store = tmp_path / "store"
    store.mkdir()
    for attempt in ("made", "kept"):
        pdfjoin.join(parts[1:], tmp_path / f"moved-{attempt}.pdf", store=store)
    pdfjoin.join(parts[1:], tmp_path / "moved-anew.pdf")
    assert (tmp_path / "moved-made.pdf").read_bytes() == (tmp_path / "moved-kept.pdf").read_bytes() == (
        tmp_path / "moved-anew.pdf").read_bytes() != (tmp_path / "anew.pdf").read_bytes()
    with pikepdf.open(tmp_path / "kept.pdf") as book:
        assert book.check_pdf_syntax() == []
        assert site_links.destination_names(book) == told and told
        assert len(book.pages) == sum(len(PdfReader(str(p["pdf"])).pages) for p in parts)
        with book.open_outline() as found:
            titles = [item.title for item in found.root]
    each = []
    for p in parts:
        with pikepdf.open(p["pdf"]) as one, one.open_outline() as found:
            each += [item.title for item in found.root]
    assert titles == each and len(titles) > len(parts)
    # a name two parts define: the join fails, and writes nothing
    with pytest.raises(ValueError, match="is an earlier part's too"):
        pdfjoin.join(parts[:1] * 2, tmp_path / "twice.pdf")
    assert not (tmp_path / "twice.pdf").exists()


