"""glossary.pdfpages: documents typeset together in one pdflatex run and split come out byte for byte
the same whatever their neighbours, and show what each document typeset alone shows."""
import shutil
import subprocess

import pikepdf
import pytest

from glossary import pdfpages

pytestmark = pytest.mark.skipif(not all(shutil.which(t) for t in ("pdflatex", "pdffonts", "pdftotext", "pdftoppm")),
                                reason="needs pdflatex and poppler-utils")

PREAMBLE = r"""\documentclass{article}
\usepackage{amsmath,amssymb,tikz}
\usepackage[pageanchor=false]{hyperref}
\pagestyle{empty}
\pdfinfoomitdate=1 \pdftrailerid{} \pdfsuppressptexinfo=-1
\begin{document}
"""
# Each document one page: text in several fonts and math, a link and a bookmark; a TikZ picture with
# transparency and a shading; accents and other math fonts.  Helvetica comes re-encoded (/Differences
# of the codes the run shows) and cmmi10 at two sizes (/Widths of the first size a run uses).
DOCUMENTS = {
    "text": r"""\pdfbookmark[0]{Text}{text-mark}{\fontsize{10.95}{13}\selectfont $\mu \sigma h x$}
\hypertarget{text-top}{Plain} \textbf{bold} \textit{italic}
\textsf{sans} \texttt{mono} $\int_0^1 x^2\,dx = \frac13 \leq \alpha$, $\mathbb{R}$.
\hyperlink{text-top}{Back to the top}, \href{https://example.org}{a site}.
{\fontfamily{phv}\selectfont Helvetica, here}.""",
    "picture": r"""\pdfbookmark[0]{Picture}{picture-mark}\begin{tikzpicture}
\draw[fill=blue!20, opacity=.5] (0,0) circle (1) node {$\beta_k$};
\shade[left color=red, right color=green] (2,0) rectangle (3,1);
\node[draw] at (4,0) {\textbf{Box} \hyperlink{picture-top}{up} \fontfamily{phv}\selectfont Sans};
\end{tikzpicture}\hypertarget{picture-top}{Caption} \emph{here}.""",
    "accents": r"""Caf\'e na\"ive \AA ngstr\"om \c{c}a --- ``quoted'' $\sum_{i} \sqrt{x_i} \rightarrow \infty$,
$\mu \sigma h$.""",
}
# The same documents in two batches, with other neighbours and in another order.
BATCHES = {"first": ["text", "picture", "accents"], "second": ["accents", "text", "picture"]}


def typeset(folder, name, documents):
    """The PDF of one pdflatex run (twice, for the bookmarks) of `documents`, one page each."""
    folder.mkdir(parents=True, exist_ok=True)
    tex = folder / f"{name}.tex"
    tex.write_text(PREAMBLE + "\n\\clearpage\n".join(DOCUMENTS[d] for d in documents) + "\n\\end{document}\n")
    for _ in range(2):
        subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", tex.name], cwd=folder,
                       check=True, capture_output=True)
    return folder / f"{name}.pdf"


@pytest.fixture(scope="module")
def outputs(tmp_path_factory):
    """{(batch or "alone", document): its split PDF}, and {document: its PDF typeset alone}."""
    work = tmp_path_factory.mktemp("pdfpages")
    found, alone = {}, {}
    for batch, documents in BATCHES.items():
        pdf = typeset(work / batch, batch, documents)
        parts = [{"first": i, "last": i, "output": work / batch / f"{d}.out.pdf", "info": {"Title": d}}
                 for i, d in enumerate(documents, 1)]
        pdfpages.split(pdf, parts)
        found.update({(batch, d): p["output"] for d, p in zip(documents, parts)})
    for document in DOCUMENTS:
        alone[document] = typeset(work / document, document, [document])
        found["alone", document] = work / document / f"{document}.out.pdf"
        pdfpages.split(alone[document], [{"first": 1, "last": 1, "output": found["alone", document],
                                          "info": {"Title": document}}])
    return found, alone


@pytest.mark.parametrize("document", DOCUMENTS)
def test_bytes_depend_on_the_document_alone(outputs, document):
    found, _ = outputs
    data = {batch: found[batch, document].read_bytes() for batch in [*BATCHES, "alone"]}
    assert data["first"] == data["second"] == data["alone"]


def test_a_cut_page_differs_between_batches(outputs, tmp_path):
    """Without the normalisation the same page's bytes differ between batches: what the test above
    guards against is real (qpdf's page cut, keeping fonts, names and the rest as they are)."""
    found, _ = outputs
    cut = {}
    for batch, documents in BATCHES.items():
        with pikepdf.open(found[batch, "text"].parent / f"{batch}.pdf") as pdf:
            out = pikepdf.new()
            out.pages.append(pdf.pages[documents.index("text")])
            cut[batch] = tmp_path / f"{batch}.pdf"
            out.save(cut[batch], deterministic_id=True)
    assert cut["first"].read_bytes() != cut["second"].read_bytes()


@pytest.mark.parametrize("document", DOCUMENTS)
def test_parts_are_sound_and_show_what_the_document_alone_shows(outputs, document, tmp_path):
    found, alone = outputs
    part = found["first", document]
    with pikepdf.open(part) as pdf:
        assert pdf.check_pdf_syntax() == []
        assert len(pdf.pages) == 1
        assert dict(pdf.docinfo) == {"/Title": document}
    fonts = subprocess.run(["pdffonts", str(part)], capture_output=True, text=True, check=True).stdout
    rows = [line.split() for line in fonts.splitlines()[2:]]
    assert rows and all(row[-5:-3] == ["yes", "yes"] for row in rows), fonts      # embedded, subset
    assert all(len(row[0].split("+")[0]) == 6 for row in rows if row[2] == "1"), fonts
    text = [subprocess.run(["pdftotext", str(p), "-"], capture_output=True, text=True, check=True).stdout
            for p in (part, alone[document])]
    assert text[0] == text[1]
    pixels = []
    for name, pdf in (("part", part), ("alone", alone[document])):
        subprocess.run(["pdftoppm", "-r", "72", "-gray", str(pdf), str(tmp_path / name)], check=True)
        pixels.append(next(tmp_path.glob(f"{name}*.pgm")).read_bytes())
    assert pixels[0] == pixels[1]


def test_links_bookmarks_and_destinations_stay_in_the_part(outputs):
    found, _ = outputs
    with pikepdf.open(found["second", "picture"]) as pdf:
        names = dict(pikepdf.NameTree(pdf.Root.Names.Dests).items())
        assert sorted(names) == ["picture-mark.0", "picture-top"]      # the bookmark's and the link's
        # each name's destination array in the tree itself (pdfpages.name_tree)
        assert names["picture-top"][0].objgen == pdf.pages[0].obj.objgen
        assert str(pdf.Root.Outlines.First.Title) == "Picture" and "/Next" not in pdf.Root.Outlines.First
        links = [a for a in pdf.pages[0].obj.Annots if a.get("/A", {}).get("/S") == pikepdf.Name.GoTo]
        assert [str(a.A.D) for a in links] == ["picture-top"]
        assert all("/P" not in a for a in pdf.pages[0].obj.Annots)
    with pikepdf.open(found["second", "text"]) as pdf:
        uris = [str(a.A.URI) for a in pdf.pages[0].obj.Annots if a.A.get("/S") == pikepdf.Name.URI]
        assert set(uris) == {"https://example.org"}      # one annotation per line the link spans


def test_two_pages_make_one_part(tmp_path):
    """A part of several pages keeps them in order, fonts subset to both pages' glyphs."""
    pdf = typeset(tmp_path / "run", "run", ["text", "accents", "picture"])
    pdfpages.split(pdf, [{"first": 1, "last": 2, "output": tmp_path / "two.pdf", "info": None},
                         {"first": 3, "last": 3, "output": tmp_path / "one.pdf", "info": None}])
    with pikepdf.open(tmp_path / "two.pdf") as two:
        assert len(two.pages) == 2 and "/Info" not in two.trailer
    text = subprocess.run(["pdftotext", str(tmp_path / "two.pdf"), "-"], capture_output=True, text=True).stdout
    assert "Plain" in text and "Caf" in text and "Caption" not in text
