"""Citations (glossary.citations): BibTeX records cut by a brace-aware scanner, formatted once for
many keys by pandoc's citeproc with the pinned IEEE style, numbered per term ([1], [2, Sec. 2.4],
[1], [3]) from the Cite nodes of pandoc's LaTeX and Markdown readers, shown by real pdflatex; an
unknown key is one message naming the file, line, term and the closest keys."""
import json
import re
import shutil
import subprocess
import unicodedata

import pytest
from conftest import REPO

from glossary import citations
from glossary.entries import EntryError
from glossary.prose import pandoc

CSL = REPO / "templates" / "csl" / "ieee.csl"

# Our own records: nested braces and "@"s inside values, a ( ) record, a crossref, an
# @string macro, a comment block, math in a title, an accent on a dotless i.
BIB = r"""% A test bibliography written for these tests.
@string{jt = {Journal of Tests}}
@comment{ @article{Ghost, title={not a record}} }
@article{Smith2021,
  author = {John Smith and Ann Lee},
  title = {A Study of {Things} with $x^2$},
  journal = jt, year = 2021, volume = 3, pages = {1--10},
  note = {mail: smith@example.org, {nested {braces}} @misc{inside}}
}
@book{Doe2019, author = {Jane Doe}, title = {Learning {Machines}}, publisher = {Pub}, year = {2019}}
@inproceedings(Roe2020, author = {Rita Roe}, title = {On Graphs}, crossref = {Proc2020}, pages = {5--9})
@proceedings{Proc2020, title = {Proceedings of Testing}, booktitle = {Proceedings of Testing}, year = 2020,
  publisher = {Pub}}
@misc{Vladimir2003, author = {M{\"u}ller, Vladim{\'\i}r}, title = {Spectra for {Vladim{\'\i}r}}, year = 2003}
"""


@pytest.fixture()
def bib(tmp_path):
    path = tmp_path / "refs.bib"
    path.write_text(BIB)
    return path


def ast(text, fmt):
    """pandoc's JSON AST of `text` read as `fmt` (latex or markdown)."""
    run = subprocess.run([pandoc(), "-f", fmt, "-t", "json"], input=text, capture_output=True, text=True, check=True)
    return json.loads(run.stdout)


def write(doc, blocks, fmt):
    run = subprocess.run([pandoc(), "-f", "json", "-t", fmt, "--wrap=none"], capture_output=True, text=True,
                         input=json.dumps({**doc, "blocks": blocks}), check=True)
    return run.stdout.strip()


def fake_formatted(keys):
    return {k: {"html": f"<em>{k}</em>", "latex": f"\\emph{{{k}}}", "text": k} for k in keys}


# --- the bibliography file -----------------------------------------------------------

def test_bib_keys_are_every_record_in_file_order(bib):
    assert citations.bib_keys(bib) == ["Smith2021", "Doe2019", "Roe2020", "Proc2020", "Vladimir2003"]


def test_cut_keeps_the_records_asked_for_their_crossrefs_and_the_macros(bib):
    text, missing = citations.cut(BIB, ["Roe2020", "Nobody"])
    assert missing == ["Nobody"]
    assert [key for _, key, _, _ in citations.blocks(text) if key] == ["Roe2020", "Proc2020"]
    assert text.startswith("@string{jt = {{Journal of Tests}}}")  # kept, its case protected
    # A whole record, braces and all: the scanner did not stop at a nested brace or an "@".
    smith, _ = citations.cut(BIB, ["Smith2021"])
    whole = BIB[BIB.index("@article{Smith2021"):BIB.index("@book{Doe2019")].strip()
    assert whole in smith and "Ghost" not in smith


def test_an_unclosed_record_names_its_line(tmp_path):
    path = tmp_path / "broken.bib"
    path.write_text("@book{A, title={x}}\n\n@book{B, title={never closed}\n")
    with pytest.raises(EntryError, match=r"broken\.bib:3: a BibTeX block is never closed"):
        citations.bib_keys(path)


# --- checking keys -------------------------------------------------------------------

def test_an_unknown_key_names_file_line_term_and_the_closest_keys(bib):
    keys = citations.bib_keys(bib)
    cites = [{"key": "Smith2021", "path": "Core.tex", "line": 3, "term": "gdpr"},
             {"key": "Smith2020", "path": "Core.tex", "line": 1234, "term": "gdpr"},
             {"key": "doe2019", "path": "Math.tex", "line": 7, "term": "norm"}]
    with pytest.raises(EntryError) as err:
        citations.check(cites, keys, bib="assets/refs.bib")
    assert str(err.value).splitlines() == [
        "Core.tex:1234: term 'gdpr': no record 'Smith2020' in assets/refs.bib; did you mean 'Smith2021'?",
        "Math.tex:7: term 'norm': no record 'doe2019' in assets/refs.bib; did you mean 'Doe2019'?"]
    citations.check(cites[:1], keys)  # every key known: no error


def test_a_key_like_no_other_asks_to_add_the_record(bib):
    with pytest.raises(EntryError, match="no record 'zzz' in refs.bib; add the record to refs.bib"):
        citations.check([{"key": "zzz", "path": "a.tex", "line": 1, "term": "t"}], citations.bib_keys(bib),
                        bib="refs.bib")


# --- the AST -------------------------------------------------------------------------

def test_cited_keys_in_order_of_first_appearance_from_both_readers():
    latex = ast(r"See \cite{B} and \cite[Sec. 2.4]{A}, \citep{B,C}. \footnote{Also \cite{D}.}", "latex")
    assert citations.cited_keys(latex["blocks"]) == ["B", "A", "C", "D"]
    markdown = ast("One [@k2, p. 3]; two [see @k1; @k2].\n\n- item @k3 says\n", "markdown")
    assert citations.cited_keys(markdown["blocks"]) == ["k2", "k1", "k3"]


def test_number_gives_each_term_its_own_numbers_pinpoints_and_groups():
    formatted = fake_formatted("ABCD")
    first = ast(r"First \cite{C}, then \cite[Sec. 2.4]{A}, both \citep{A,C}, new ones \cite{D,B}.", "latex")
    blocks, refs = citations.number(first["blocks"], formatted)
    assert write(first, blocks, "plain") == "First [1], then [2,\u00a0Sec.\u00a02.4], both [1], [2], new ones [3], [4]."
    # a citation glued to its word stands a space apart, as the cite package sets it
    glued = ast(r"The weight $w_j$\cite[Ch. 9]{A}.", "latex")
    assert write(glued, citations.number(glued["blocks"], formatted)[0], "plain") == \
        "The weight w_(j) [1,\u00a0Ch.\u00a09]."
    assert [(r["n"], r["key"]) for r in refs] == [(1, "C"), (2, "A"), (3, "D"), (4, "B")]
    assert refs[0] == {"n": 1, "key": "C", **formatted["C"]}
    # Another term starts again at [1], whatever the first one numbered.
    second = ast(r"Only \cite{A}.", "latex")
    blocks, refs = citations.number(second["blocks"], formatted)
    assert write(second, blocks, "plain") == "Only [1]." and [r["key"] for r in refs] == ["A"]
    assert citations.cited_keys(first["blocks"]) == ["C", "A", "D", "B"]  # the input kept its Cite nodes


def test_citations_are_links_to_the_numbered_entries_in_html_and_markdown():
    doc = ast("As shown [@b, p. 3], see also [see @a; @b].\n", "markdown")
    blocks, refs = citations.number(doc["blocks"], fake_formatted("ab"), prefix="ref-gdpr-")
    html = write(doc, blocks, "html5")
    # Numbers in one cite ascend; a prefix stays with its key.
    link = '<a href="#ref-gdpr-{}" class="citation">{}</a>'.format
    pinpoint = "[1,\u00a0p.\u00a03]"
    assert html == f'<p>As shown {link(1, pinpoint)}, see also {link(1, "[1]")}, see {link(2, "[2]")}.</p>'

    assert [r["key"] for r in refs] == ["b", "a"]
    listing = citations.references_html(refs, prefix="ref-gdpr-")
    assert re.findall(r'id="(ref-gdpr-\d)"><span class="reference-label">\[(\d)\]</span> <em>(\w)</em>', listing) == \
        [("ref-gdpr-1", "1", "b"), ("ref-gdpr-2", "2", "a")]
    assert citations.references_text(refs) == "[1] b\n[2] a\n"


def test_a_key_never_formatted_is_an_error():
    doc = ast(r"\cite{A}", "latex")
    with pytest.raises(EntryError, match="citation 'A': no formatted record"):
        citations.number(doc["blocks"], {})


# --- citeproc ------------------------------------------------------------------------

def test_one_citeproc_run_formats_many_keys(tmp_path, monkeypatch):
    records = "".join(f"@article{{Key{i:02d}, author = {{Ann Author{i:02d} and Bo Second}},"
                      f" title = {{Title number {i}}}, journal = {{J. Tests}}, year = {2000 + i},"
                      f" volume = {i}, pages = {{{i}--{i + 9}}}}}\n"
                      for i in range(40))
    path = tmp_path / "many.bib"
    path.write_text(BIB + records)
    calls = []
    real = citations.run_pandoc

    def spy(args, text, cwd):
        calls.append(args)
        return real(args, text, cwd)

    monkeypatch.setattr(citations, "run_pandoc", spy)
    keys = [f"Key{i:02d}" for i in range(40)] + ["Smith2021"]
    formatted = citations.format_references(keys, path, CSL)
    assert len(calls) == 1 and sorted(formatted) == sorted(keys)
    for i in range(40):
        assert formatted[f"Key{i:02d}"]["text"] == (f"A. Author{i:02d} and B. Second, \u201cTitle number {i},\u201d "
                                                    f"J. Tests, vol. {i}, pp. {i}\u2013{i + 9}, {2000 + i}.")
    assert citations.format_references([], path, CSL) == {} and len(calls) == 1


def test_entries_in_html_latex_and_text_without_their_label(bib):
    formatted = citations.format_references(["Smith2021", "Doe2019", "Roe2020", "Vladimir2003"], bib, CSL)
    doe = formatted["Doe2019"]
    assert doe == {"html": "J. Doe, <em>Learning Machines</em>. Pub, 2019.",
                   "latex": "J. Doe, \\emph{Learning Machines}. Pub, 2019.",
                   "text": "J. Doe, Learning Machines. Pub, 2019."}
    smith = formatted["Smith2021"]
    assert "Journal of Tests" in smith["text"] and "[1]" not in smith["text"]  # the @string expanded, no label
    assert "<math" in smith["html"] and "<span>" not in smith["html"] and "\\(x^2\\)" in smith["latex"]
    assert "in Proceedings of Testing, Pub, 2020" in formatted["Roe2020"]["text"]  # through the crossref
    # {\'\i}: a composed i-acute, which pdflatex's utf8 input knows.
    assert "Vladim\u00edr" in formatted["Vladimir2003"]["latex"]
    assert all(unicodedata.is_normalized("NFC", v) for entry in formatted.values() for v in entry.values())


def test_fields_ieeetran_prints_as_typed_keep_their_case(tmp_path):
    """Like IEEEtran: an article's title in sentence case; booktitles, series, a book's title, and
    @string macros (with # concatenation) as typed."""
    path = tmp_path / "case.bib"
    path.write_text('@string{icml = "Proc. 35th Int. Conf. Mach. Learn."}\n'
                    "@inproceedings{P, author = {A. Bee}, title = {Making Descent Optimal},"
                    " booktitle = icml # { (ICML)}, series = {Lecture Notes in Computer Science}, year = 2018}\n"
                    "@book{B, author = {A. Bee}, title = {Distributed Systems: Principles and Paradigms},"
                    " publisher = {Pub}, year = 2017}\n")
    formatted = citations.format_references(["P", "B"], path, CSL)
    assert formatted["P"]["text"] == ("A. Bee, \u201cMaking descent optimal,\u201d in Proc. 35th Int. Conf. Mach."
                                      " Learn. (ICML), in Lecture Notes in Computer Science. 2018.")
    assert formatted["B"]["text"] == "A. Bee, Distributed Systems: Principles and Paradigms. Pub, 2017."


def test_a_note_is_kept_unless_it_repeats_the_doi(tmp_path):
    """IEEEtran prints BibTeX's note (the real dictionary keeps DOIs there); the CSL style drops it."""
    path = tmp_path / "notes.bib"
    path.write_text("@unpublished{U, author = {A. Bee}, title = {Convex things}, note = {Presented at the {PASCAL}"
                    " Workshop, 2005}}\n"
                    "@article{D, author = {A. Bee}, title = {T}, journal = {J}, year = 2001, doi = {10.1/x},"
                    " note = {doi: 10.1/x}}\n"
                    "@article{E, author = {A. Bee}, title = {T}, journal = {J}, year = 2001, note = {doi: 10.2/y}}\n"
                    "@misc{W, author = {A. Bee}, title = {Web}, url = {https://example.org/w}, note = {Agency}}\n")
    formatted = citations.format_references(["U", "D", "E", "W"], path, CSL)
    assert formatted["U"]["text"] == "A. Bee, \u201cConvex things.\u201d Presented at the PASCAL Workshop, 2005."
    assert formatted["D"]["text"] == "A. Bee, \u201cT,\u201d J, 2001, doi: 10.1/x."
    # A note that is only a DOI is the record's DOI, printed and linked as D's.
    assert formatted["E"]["text"] == "A. Bee, \u201cT,\u201d J, 2001, doi: 10.2/y."
    assert formatted["E"]["html"].count("href=") == formatted["D"]["html"].count("href=") == 1
    # Before the URL, which ends an IEEE entry.
    assert formatted["W"]["text"] == "A. Bee, \u201cWeb.\u201d Agency. Available: https://example.org/w"


def test_given_names_are_initials_as_ieeetran_prints_them(tmp_path):
    """"Bellman, Richard." and "Elnozahy, E. N. (Mootaz)" in the real bibliography: IEEEtran prints
    "R. Bellman" and "E. N. M. Elnozahy"; citeproc took "Richard." for an initial."""
    path = tmp_path / "names.bib"
    path.write_text("@book{B, author = {Bellman, Richard.}, title = {Dynamic Programming}, publisher = {P},"
                    " year = 1957}\n"
                    "@book{E, author = {Elnozahy, E. N. (Mootaz) and M{\\\"u}ller, Vladim{\\'\\i}r. and"
                    " Jean. Dollimore}, title = {T}, publisher = {P}, year = 2002}\n")
    formatted = citations.format_references(["B", "E"], path, CSL)
    assert formatted["B"]["text"].startswith("R. Bellman, Dynamic Programming.")
    assert formatted["E"]["text"].startswith("E. N. M. Elnozahy, V. M\u00fcller, and J. Dollimore, T.")


def test_a_record_pandoc_cannot_read_is_told_at_its_line_in_the_real_file(tmp_path):
    path = tmp_path / "bad.bib"
    path.write_text(BIB + "@article{Bad, author = {A. Bee},\n  title = {x} junk, year = 2000}\n")
    line = BIB.count("\n") + 2  # the record's second line
    with pytest.raises(EntryError) as err:
        citations.format_references(["Doe2019", "Bad"], path, CSL)
    assert str(err.value) == (f"{path}:{line}: record 'Bad': pandoc cannot read it (unexpected 'j'); "
                              "fix the record's syntax")


def test_a_missing_record_stops_formatting(bib):
    with pytest.raises(EntryError, match=r"refs\.bib: no record 'Nobody'; check\(\) the cited keys"):
        citations.format_references(["Doe2019", "Nobody"], bib, CSL)


# --- the print side ------------------------------------------------------------------

@pytest.mark.skipif(shutil.which("pdflatex") is None or shutil.which("pdftotext") is None,
                    reason="needs pdflatex and poppler (make site installs them)")
def test_pdf_shows_numbers_linked_to_the_reference_list(bib, tmp_path):
    doc = ast(r"Shown in \cite[Sec. 2.4]{Doe2019} and \citep{Smith2021,Doe2019}.", "latex")
    formatted = citations.format_references(citations.cited_keys(doc["blocks"]), bib, CSL)
    blocks, refs = citations.number(doc["blocks"], formatted)
    body = write(doc, blocks, "latex")
    tex = tmp_path / "term.tex"
    tex.write_text("\\pdfcompresslevel=0\\pdfobjcompresslevel=0\n\\documentclass{article}\n\\usepackage{amsmath}\n"
                   "\\usepackage{hyperref}\\usepackage{xurl}\n\\begin{document}\n" + body + "\n\n"
                   + citations.references_latex(refs) + "\\end{document}\n")
    for _ in range(2):  # the second pass resolves \\hyperref[ref-n] to the list's \\label
        subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", "term.tex"], cwd=tmp_path,
                       capture_output=True, check=True)
    text = subprocess.run(["pdftotext", "-layout", "term.pdf", "-"], cwd=tmp_path, capture_output=True,
                          text=True, check=True).stdout
    lines = [" ".join(line.split()) for line in text.splitlines() if line.strip()]
    assert lines[0] == "Shown in [1, Sec. 2.4] and [1], [2]."
    assert lines[1] == "[1] J. Doe, Learning Machines. Pub, 2019."
    assert lines[2].startswith("[2] J. Smith and A. Lee, \u201cA study of Things with x")
    # The three citation links go to the anchors that the list's \\label{ref-n} recorded.
    aux = (tmp_path / "term.aux").read_text()
    anchor = dict(re.findall(r"\\newlabel\{(ref-\d)\}\{\{\}\{\d+\}\{\}\{([^}]*)\}", aux))
    pdf = (tmp_path / "term.pdf").read_bytes().decode("latin-1")
    links = re.findall(r"/Subtype /Link\n(?:.*\n){0,4}?/A << /S /GoTo /D \(([^)]*)\) >>", pdf)
    assert sorted(anchor) == ["ref-1", "ref-2"] and links == [anchor["ref-1"], anchor["ref-1"], anchor["ref-2"]]
    assert {"(ref-1)", "(ref-2)"} <= set(re.findall(r"\(ref-\d\)", pdf))  # the \\hypertarget names too
