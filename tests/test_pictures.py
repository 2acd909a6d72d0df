"""glossary.pictures on a small dictionary of our own: real pdflatex, glossary.pdfpages and pdftocairo."""
import hashlib
import re
import subprocess
from pathlib import Path

import pytest

from glossary import latex, pictures
from glossary.entries import EntryError

MAIN = r"""\documentclass[journal,11pt,onecolumn]{article}
\usepackage[utf8]{inputenc}
\usepackage{hyperref}       % links: no use in a picture
\usepackage[automake,stylemods={tree}]{glossaries-extra}
\usepackage{assets/mystyle}
\usepackage{tikz,amsmath}
\usepackage[utf8]{inputenc}
\usepackage{pgfplots}
\pgfplotsset{compat=1.17}
\usetikzlibrary{arrows.meta}
\definecolor{mine}{RGB}{10, 20, 30}
\tikzstyle{box}=[draw=mine, thick]
\newglossary*{math}{Mathematical Tools}
\makeglossaries
\input{assets/macros.tex}
\makeindex
\input{Dict_Math.tex}
\glsaddkey
{section}% key
{}% default value
{\glsentryalternative}% no link cs
{\Glsentryalternative}% no link ucfirst cs
{\glsalternative}% link cs
{\Glsalternative}% link ucfirst cs
{\GLSalternative}% link all caps cs
"""
MACROS = r"""\usepackage{mleftright}
\newcommand{\featurevec}{\mathbf{x}} % a feature vector
\newcommand{\weights}{\mathbf{w}}
\newcommand{\wvec}[1]{\weights^{(#1)}}
\def \vepsilon{{\boldsymbol{\epsilon}}}
\DeclareMathOperator*{\argmin}{arg\,min}
"""
STYLE = r"""\ProvidesPackage{assets/mystyle}
\RequirePackage{tikz}
\tikzset{dot/.style={circle, fill=mine, inner sep=1.5pt}}
"""
GOOD = r"""\begin{tikzpicture}[>=Stealth]
  \node[box] (a) at (0,0) {$\featurevec$};
  \node[dot] at (1,0) {};
  \draw[->] (a) -- (2,1) node[right] {\gls{datapoint}, \Glspl{datapoint}};
\end{tikzpicture}"""
INPUTS = r"""\begin{tikzpicture}
  \input{assets/part.tex}
  \node at (0,-1) {$\wvec{1}$};
\end{tikzpicture}"""
BROKEN = r"""\begin{tikzpicture}
  \draw (0,0) -- (1,1);
  \node at (1,1) {\nosuchmacro};
\end{tikzpicture}"""


@pytest.fixture
def dictionary(tmp_path):
    """A dictionary folder: its main preamble, macro file, a package and an \\input file under assets/."""
    root = tmp_path / "dict"
    (root / "assets").mkdir(parents=True)
    (root / "assets" / "macros.tex").write_text(MACROS)
    (root / "assets" / "mystyle.sty").write_text(STYLE)
    (root / "assets" / "part.tex").write_text("\\draw[box] (0,0) rectangle (1,1);\n")
    (root / "assets" / "table.csv").write_text("a,b\n0,1\n1,3\n2,2\n")
    preamble = pictures.picture_preamble(MAIN, MACROS)
    return {"root": str(root), "preamble": preamble, "macros": pictures.macro_definitions(MACROS)}


def picture(dictionary, tex, term, line, n=1):
    return {"key": pictures.key(tex, dictionary["preamble"], dictionary["macros"]), "tex": tex, "term": term,
            "path": "Dict_Math.tex", "line": line, "n": n}


@pytest.fixture
def runs(monkeypatch):
    """The pdflatex runs made (their job names), counted through latex.run_pdflatex."""
    made, real = [], latex.run_pdflatex

    def counting(args, *rest, **kwargs):
        made.append("format" if "-ini" in args else "picture")
        return real(args, *rest, **kwargs)
    monkeypatch.setattr(latex, "run_pdflatex", counting)
    return made


def test_preamble_keeps_what_pictures_use_and_drops_the_rest(dictionary):
    preamble = dictionary["preamble"]
    head, macros = pictures.split_preamble(preamble)
    assert head.startswith(r"\documentclass[11pt,multi=glspicture]{standalone}")
    for kept in (r"\usepackage{assets/mystyle}", r"\usepackage{tikz,amsmath}", r"\usetikzlibrary{arrows.meta}",
                 r"\definecolor{mine}{RGB}{10, 20, 30}", r"\tikzstyle{box}=[draw=mine, thick]"):
        assert kept in head
    for dropped in ("hyperref", "glossaries-extra", r"\makeglossaries", r"\newglossary", r"\glsaddkey",
                    r"\makeindex", r"\input", "Glsentryalternative", "links: no use"):
        assert dropped not in head
    assert head.count(r"\usepackage[utf8]{inputenc}") == 1
    assert macros.strip() == pictures.tidy(pictures.strip_comments(MACROS))
    assert pictures.picture_preamble(MAIN, MACROS) == preamble


def test_macro_definitions_and_their_use():
    macros = pictures.macro_definitions(MACROS)
    assert sorted(macros) == ["argmin", "featurevec", "vepsilon", "weights", "wvec"]
    assert macros["wvec"] == r"\newcommand{\wvec}[1]{\weights^{(#1)}}"
    assert macros["vepsilon"] == r"\def \vepsilon{{\boldsymbol{\epsilon}}}"
    assert pictures.macro_rest(MACROS) == r"\usepackage{mleftright}"
    assert pictures.used_macros(INPUTS, macros) == ["weights", "wvec"]
    assert pictures.used_macros(GOOD, macros) == ["featurevec"]


def test_key_follows_only_the_macros_a_picture_uses(dictionary):
    def key_with(macro_text, tex=GOOD):
        return pictures.key(tex, pictures.picture_preamble(MAIN, macro_text), pictures.macro_definitions(macro_text))
    before = key_with(MACROS)
    assert key_with(MACROS.replace(r"\mathbf{w}", r"\boldsymbol{w}")) == before  # GOOD does not use \weights
    assert key_with(MACROS.replace(r"\mathbf{x}", r"\boldsymbol{x}")) != before  # it uses \featurevec
    # INPUTS uses \wvec, which uses \weights: an edit of \weights reaches it.
    assert key_with(MACROS.replace(r"\mathbf{w}", r"\boldsymbol{w}"), INPUTS) != key_with(MACROS, INPUTS)
    assert key_with(MACROS.replace("mleftright", "bm")) != before  # the macro file's packages reach all
    assert key_with(MACROS, GOOD + " ") != before
    assert pictures.key(GOOD, dictionary["preamble"], dictionary["macros"], {"datapoint": "data point"}) != \
        pictures.key(GOOD, dictionary["preamble"], dictionary["macros"])


def pdf_text(pdf):
    return subprocess.run(["pdftotext", pdf, "-"], capture_output=True, text=True, check=True).stdout


def test_compiles_to_pdf_and_svg_and_a_cache_hit_runs_nothing(dictionary, tmp_path, runs):
    found = [picture(dictionary, GOOD, "datapoint", 10), picture(dictionary, INPUTS, "weights", 30)]
    cache = tmp_path / "cache"
    made = pictures.compile_all(found, dictionary["preamble"], dictionary["root"], str(cache),
                                terms={"datapoint": "data point"})
    assert sorted(made) == sorted(p["key"] for p in found)
    assert runs == ["format", "picture"]  # one pdflatex run for the stale pictures, split (glossary.pdfpages)
    for p in found:
        pdf, svg = Path(made[p["key"]]["pdf"]), Path(made[p["key"]]["svg"])
        assert pdf == cache / f"{p['key']}.pdf" and pdf.read_bytes().startswith(b"%PDF")
        assert "Pages:           1" in subprocess.run(["pdfinfo", pdf], capture_output=True, text=True).stdout
        assert "<svg" in svg.read_text()
    assert "data point, Data points" in pdf_text(made[found[0]["key"]]["pdf"])
    assert pictures.compile_all(found, dictionary["preamble"], dictionary["root"], str(cache),
                                terms={"datapoint": "data point"}) == made
    assert runs == ["format", "picture"]
    extra = picture(dictionary, GOOD.replace("(1,0)", "(1,1)"), "datapoint", 10)
    pictures.compile_all(found + [extra], dictionary["preamble"], dictionary["root"], str(cache))
    assert runs == ["format", "picture", "picture"]  # the format is cached too


def test_byte_stable_across_runs_and_batches(dictionary, tmp_path):
    found = [picture(dictionary, GOOD, "datapoint", 10), picture(dictionary, INPUTS, "weights", 30)]
    first, second = tmp_path / "one", tmp_path / "two"
    pictures.compile_all(found, dictionary["preamble"], dictionary["root"], str(first))
    pictures.compile_all(found[1:], dictionary["preamble"], dictionary["root"], str(second))
    pictures.compile_all(found, dictionary["preamble"], dictionary["root"], str(second))
    for p in found:
        for ext in ("pdf", "svg"):
            assert (first / f"{p['key']}.{ext}").read_bytes() == (second / f"{p['key']}.{ext}").read_bytes()
    assert str(tmp_path).encode() not in (first / f"{found[0]['key']}.pdf").read_bytes()
    assert b"CreationDate" not in (first / f"{found[0]['key']}.pdf").read_bytes()


def test_a_broken_picture_is_told_with_its_file_line_term_and_tex_message(dictionary, tmp_path):
    found = [picture(dictionary, GOOD, "datapoint", 10), picture(dictionary, BROKEN, "risk", 57, n=2),
             picture(dictionary, INPUTS, "weights", 90)]
    cache = tmp_path / "cache"
    with pytest.raises(EntryError) as caught:
        pictures.compile_all(found, dictionary["preamble"], dictionary["root"], str(cache), per_run=3)
    message = str(caught.value)
    bad_line = 57 + BROKEN.splitlines().index(next(r for r in BROKEN.splitlines() if "nosuchmacro" in r))
    assert message.startswith(f"Dict_Math.tex:{bad_line}: term 'risk': picture 2 does not compile: "
                              "Undefined control sequence")
    assert r"\nosuchmacro" in message and message.endswith("fix the picture")
    assert len(message.splitlines()) == 1
    # The pictures that compile are cached all the same.
    assert sorted(p.name for p in cache.glob("*.svg")) == sorted(f"{p['key']}.svg" for p in (found[0], found[2]))


def test_a_missing_input_file_is_that_pictures_error(dictionary, tmp_path):
    tex = INPUTS.replace("part.tex", "gone.tex")
    with pytest.raises(EntryError, match=r"^Dict_Math.tex:\d+: term 'weights': picture 1 does not compile: "
                                         r".*gone\.tex.* not found"):
        pictures.compile_all([picture(dictionary, tex, "weights", 5)], dictionary["preamble"],
                             dictionary["root"], str(tmp_path / "cache"))


def test_glossary_keys_and_term_lines():
    assert pictures.glossary_keys(r"\gls{b} \Glspl[x]{a} \gls {b} \glsdisp{c}{C}") == ["a", "b"]
    assert pictures.term_lines(r"\gls{ml}", {"ml": "machine learning"}) == [
        r"\glspictureterm{ml}{machine learning}{Machine learning}{machine learnings}{Machine learnings}"]
    assert re.fullmatch(r"\\glspictureterm\{x\}\{x\}\{X\}\{xs\}\{Xs\}", pictures.term_lines(r"\gls{x}")[0])


def test_term_lines_show_the_entry_plural():
    """\\glspl shows the plural the entry gives (plural={losses}), not text + s."""
    assert pictures.term_lines(r"\glspl{loss}", {"loss": {"text": "loss", "plural": "losses"}}) == [
        r"\glspictureterm{loss}{loss}{Loss}{losses}{Losses}"]
    assert pictures.term_lines(r"\glspl{x}", {"x": {"text": "x"}}) == [r"\glspictureterm{x}{x}{X}{xs}{Xs}"]


def test_pictures_snapshot_changes_with_the_pictures_not_the_prose(dictionary):
    """What the pictures job reruns on (glossary.dictionary.pictures_snapshot): a picture's TeX, a
    file it reads and a form it shows change it; the prose around it and its line do not."""
    from glossary import dictionary as dictionaries
    root = Path(dictionary["root"])
    entry = {"slug": "a", "key": "a", "body": "Prose.", "line": 3,
             "pictures": [{"n": 1, "tex": GOOD + INPUTS, "line": 5}], "graphics": []}
    forms = {"datapoint": {"text": "data point", "plural": "data points"}}
    before = dictionaries.pictures_snapshot(entry, forms, str(root))
    assert before["forms"] == forms
    moved = dict(entry, body="Other prose.", line=9, pictures=[dict(entry["pictures"][0], line=11)])
    assert dictionaries.pictures_snapshot(moved, forms, str(root)) == before
    assert dictionaries.pictures_snapshot(entry, {"datapoint": {"text": "point", "plural": "points"}},
                                          str(root)) != before
    (root / "assets" / "part.tex").write_text("\\draw (0,0) -- (1,1);\n")
    assert dictionaries.pictures_snapshot(entry, forms, str(root)) != before


def test_a_blank_line_left_by_a_stripped_comment_does_not_end_a_paragraph(dictionary, tmp_path):
    # In TeX a blank line inside math is "Missing $ inserted"; in the description it was a comment line.
    tex = "\\begin{tikzpicture}\n  \\node at (0,0) {$x\n\n  + y$};\n\\end{tikzpicture}"
    made = pictures.compile_all([picture(dictionary, tex, "path", 3)], dictionary["preamble"], dictionary["root"],
                                str(tmp_path / "cache"))
    assert "<svg" in Path(made[picture(dictionary, tex, "path", 3)["key"]]["svg"]).read_text()


def test_key_follows_the_files_a_picture_reads(dictionary):
    root = Path(dictionary["root"])
    before = pictures.key(INPUTS, dictionary["preamble"], dictionary["macros"], root=str(root))
    assert pictures.referenced_files(INPUTS, root) == {
        "assets/part.tex": hashlib.sha256((root / "assets" / "part.tex").read_bytes()).hexdigest()}
    (root / "assets" / "mystyle.sty").write_text(STYLE + "% an edit of a file it does not name\n")
    assert pictures.key(INPUTS, dictionary["preamble"], dictionary["macros"], root=str(root)) == before
    (root / "assets" / "part.tex").write_text("\\draw[box] (0,0) rectangle (2,1);\n")
    assert pictures.key(INPUTS, dictionary["preamble"], dictionary["macros"], root=str(root)) != before
    plot = r"\begin{tikzpicture}\begin{axis}\addplot[only marks] table [x=a, col sep=comma] {assets/t.csv};"
    assert pictures.referenced_files(plot + r"\includegraphics[width=1cm]{assets/face}", root) == {
        "assets/face": None, "assets/t.csv": None}


PLOT = r"""\begin{tikzpicture}
  \begin{axis}[width=5cm]
    \addplot table [x=a, y=b, col sep=comma] {assets/table.csv};
  \end{axis}
\end{tikzpicture}"""


def test_a_plot_reads_its_table_from_the_dictionarys_folder(dictionary, tmp_path):
    made = pictures.compile_all([picture(dictionary, PLOT, "histogram", 40)], dictionary["preamble"],
                                dictionary["root"], str(tmp_path / "cache"))
    assert "<svg" in Path(next(iter(made.values()))["svg"]).read_text()
    gone = PLOT.replace("table.csv", "gone.csv")
    with pytest.raises(EntryError) as caught:
        pictures.compile_all([picture(dictionary, gone, "histogram", 40)], dictionary["preamble"],
                             dictionary["root"], str(tmp_path / "cache"))
    assert str(caught.value).startswith("Dict_Math.tex:42: term 'histogram': picture 1 does not compile: "
                                        "Package pgfplots Error: Could not read table file 'assets/gone.csv'")
    assert "assets/gone.csv is looked for in the dictionary's folder" in str(caught.value)
