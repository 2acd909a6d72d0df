"""The LaTeX path's parse (glossary.texprose): glossaries-extra descriptions read by one real pandoc
process into the AST shapes of glossary.prose, \\gls forms and capitals, references inside
formulas, figures, equation references, citations, the macro file rewritten so that texmath
converts it, and one error message per mistake.  Fixtures are small snippets written here (the real
dictionary: checks/test_real_dictionary.py, `make real-check`)."""
import json
import re

import pytest

from glossary import prose, render, texprose
from glossary.entries import EntryError

# A macro file in the dictionary's style: old font switches, \mleft, \bm, \def, an optional argument.
MACROS = r"""\usepackage{mleftright}
% vectors in bold
\newcommand{\vx}[0]{{\bf x}}
\newcommand{\rows}[1]{{\rm rows}\left(#1 \right)}  % the rows of a matrix
\newcommand{\normof}[2]{\mleft\lVert #1 \mright\rVert_{#2}}
\newcommand{\set}{{\cal S}}
\def \vnoise{{\bm{\epsilon}}}
\newcommand\layer[1]{\mathcal{L}^{(#1)}}
\newcommand{\at}[1][i]{^{(#1)}}
\newcommand{\est}{E^{(\rm est)}}
"""
TARGETS = {
    "svm": {"slug": "svm", "forms": {"text": "SVM", "first": "support vector machine (SVM)",
                                     "plural": "SVMs", "firstplural": "support vector machines (SVMs)"}},
    "loss": {"slug": "loss", "forms": {"text": "loss", "first": "loss", "plural": "losses",
                                       "firstplural": "losses"}},
    "kmeans": {"slug": "kmeans", "forms": {"text": "$k$-means", "first": "$k$-means",
                                           "plural": "$k$-means", "firstplural": "$k$-means"}},
    "renyi": {"slug": "renyi", "forms": {"text": "r\\'enyi divergence", "first": "r\\'enyi divergence",
                                         "plural": "r\\'enyi divergences", "firstplural": "r\\'enyi divergences"}},
    "data point": {"slug": "data-point", "forms": {"text": "data point", "first": "data point",
                                                   "plural": "data points", "firstplural": "data points"}},
}


def term(key, body, line=10, path="ADictML_Test.tex"):
    return {"key": key, "slug": re.sub(r"[^a-z0-9]+", "-", key.lower()), "body": body, "path": path,
            "body_line": line}


def parse(*bodies, macros=MACROS):
    terms = [term(f"t{i}", body) for i, body in enumerate(bodies)]
    return terms, texprose.parse(terms, texprose.normalise_macros(macros), TARGETS)


def one(body):
    return parse(body)[1]["t0"]


def find(value, t):
    """Every node of type t in the blocks, in document order."""
    return [v for v in prose.nodes(value) if v.get("t") == t]


def text(inlines):
    """The plain text of inlines (a link's text, a formula's TeX)."""
    parts = []
    for x in inlines:
        c = x.get("c")
        if x["t"] == "Str":
            parts.append(c)
        elif x["t"] in ("Space", "SoftBreak", "LineBreak"):
            parts.append(" ")
        elif x["t"] in ("Link", "Span", "Cite"):
            parts.append(text(c[1]))
        elif x["t"] == "Math":
            parts.append(c[1])
        elif x["t"] in ("Emph", "Strong"):
            parts.append(text(c))
    return "".join(parts)


def xrefs(blocks):
    return [(x["c"][2][0], text(x["c"][1])) for x in find(blocks, "Link") if "xref" in x["c"][0][1]]


def write_html(parsed, terms):
    """{slug: HTML} of every term from one pandoc process, as the prose job writes it; a formula
    texmath cannot convert is texprose's EntryError naming the term's file, line and key."""
    pages, failures = render.html_pieces({t["slug"]: parsed[t["slug"]] for t in terms if t["slug"] in parsed})
    if failures:
        texprose.raise_formula(failures[0], parsed, terms)
    return pages


def html(blocks, key="t0"):
    return write_html({key: blocks}, [term(key, "")])[key]


def test_gls_forms_follow_first_use_and_capitals():
    blocks = one(r"\gls{svm} beats \gls{svm}; \Gls{svm} and \glspl{svm}. \Glspl{loss} and \glspl{loss}, "
                 r"\glstext{svm}, \glsfirst{svm}, \Gls{data point}.")
    forms = TARGETS["svm"]["forms"]
    assert xrefs(blocks) == [
        ("svm", "Support vector machine (SVM)"),       # the first use opens the text: a capital
        ("svm", forms["text"]), ("svm", forms["text"]), ("svm", forms["plural"]),
        ("loss", "Losses"), ("loss", "losses"), ("svm", forms["text"]), ("svm", forms["first"]),
        ("data-point", "Data point")]
    # The link's shape is prose.Pass's for [[slug]], so prose's writers take it unchanged.
    link = find(blocks, "Link")[0]
    assert link["c"][0] == ["", ["xref"], []] and link["c"][2] == ["svm", ""]


def test_gls_at_the_head_of_a_paragraph_stays_inline():
    blocks = one("\\Gls{loss} first.\n\n\\gls{svm} second.")
    assert [b["t"] for b in blocks] == ["Para", "Para"]
    assert texprose.unknown(blocks) == []
    assert [text(b["c"]) for b in blocks] == ["Loss first.", "Support vector machine (SVM) second."]


def test_a_first_use_takes_the_article_and_the_capital_of_its_long_form():
    """The text was written for the short form the book prints (its first use is earlier in the book):
    a page's first use shows the long one, with the article and the capital that it needs."""
    assert text(one(r"Train an \gls{svm}, then an \gls{svm}.")[0]["c"]) == \
        "Train a support vector machine (SVM), then an SVM."
    assert text(one(r"It ends. \gls{svm} starts, as An \gls{loss} does.")[0]["c"]) == \
        "It ends. Support vector machine (SVM) starts, as An loss does."
    assert text(one(r"See e.g. \gls{svm}.")[0]["c"]) == "See e.g. support vector machine (SVM)."
    # an \index between the article and the term (the real dictionary's FedGD and discrete RV), which
    # the book's Index keeps where it stood
    blocks = one(r"It refers to an\index{svm method} \gls{svm}. An\index{x} \gls{svm} too.")
    assert text(blocks[0]["c"]) == "It refers to a support vector machine (SVM). An SVM too.", text(blocks[0]["c"])
    index = [s for s in find(blocks, "Span") if prose.PRINT_ONLY in s["c"][0][1]]
    assert [s["c"][1][0]["c"][1] for s in index] == ["\\index{svm method}", "\\index{x}"]
    assert [texprose.article_for(t) for t in ("independent and identically distributed (i.i.d.)",
                                              "Euclidean space", "\\emph{unit} vector", "$k$-means", "ML",
                                              "GD step")] == ["an", "a", "a", None, "an", "a"]


def test_a_form_with_math_is_parsed_and_written():
    blocks = one(r"Run \gls{kmeans}.")
    link = find(blocks, "Link")[0]
    assert find(link, "Math")[0]["c"][1] == "k"
    assert "<math" in html(blocks) and 'href="kmeans.html"' in html(blocks)


def test_gls_inside_text_in_a_formula_is_the_form_and_a_link():
    blocks = one(r"We have $\vx \in \text{the \gls{data point} of \glspl{svm}}$ here.")
    span = find(blocks, "Span")[0]
    assert span["c"][0][1] == ["math-xref"]
    formula = find(span, "Math")[0]["c"][1]
    assert r"\text{the data point of support vector machines (SVMs)}" in formula
    assert json.loads(dict(span["c"][0][2])["data-xrefs"]) == [["data-point", "data point"],
                                                               ["svm", "support vector machines (SVMs)"]]
    page = html(blocks)
    mtext = re.search(r"<mtext[^>]*>(.*?)</mtext>", page).group(1)
    assert mtext == ('the <a class="xref" href="data-point.html">data point</a> of '
                     '<a class="xref" href="svm.html">support vector machines (SVMs)</a>')
    # A form's accents come out as in the prose; a capital as for \Gls; a labelled equation keeps both.
    page = html(one("\\begin{equation}\\label{eq:r} d = \\text{\\Gls{renyi} of \\gls{kmeans}}\\end{equation}"))
    assert re.search(r'<span id="eq:r" class="equation math-xref"[^>]*>', page)
    assert '<a class="xref" href="renyi.html">Rényi divergence</a>' in page
    assert "kmeans.html" not in page         # a form with its own formula spans several MathML nodes
    # Outside \text the form is put in one, so that it reads as words.
    outside = find(one(r"$f = \gls{loss}$"), "Math")[0]["c"][1]
    assert outside == r"f = \text{loss}"


def test_a_photo_beside_a_minipage_prints_at_its_own_share_of_the_line():
    """The real dictionary's spectrogram: a photo of width=0.8\\textwidth above a minipage in one
    figure. pandoc's writer put each block of such a figure in a minipage of 1/n of the line, which
    printed the photo at 0.36 of the line; the book sets it in the figure, at 0.8."""
    body = ("\\begin{figure}[H]\n\\centering\n\\includegraphics[width=0.8\\textwidth]{graphic:1}\n"
            "\\begin{minipage}{\\textwidth}\\GlossaryMinipage{1}\n\\centering\n(a) (b)\n\\end{minipage}\n"
            "\\caption{A signal.}\n\\label{fig:s}\n\\end{figure}")
    latex = render.write_batch({"t0": one(body)}, "latex", {"t0": body})["t0"]
    assert "\\centering\n\\includegraphics[width=0.8\\linewidth," in latex, latex
    assert latex.count("\\begin{minipage}") == 1 and "\\begin{minipage}[c]{1\\linewidth}" in latex, latex


def test_minipages_inside_a_figures_block_print_side_by_side_as_the_author_placed_them():
    """The real dictionary's lapmat, learnrate and specclustering: two minipages of 0.4 in a center
    environment.  pandoc's writer wrote their blocks alone, one below the other, where the authors'
    book sets them side by side; and it sets every minipage it writes [t] (a picture then hangs above
    the text beside it), where the author's position (TeX's default c) is kept."""
    # as the reader marks them (texdict: each minipage's width and position)
    body = ("\\begin{figure}[H]\n\\begin{center}\n\\begin{minipage}{0.4\\textwidth}\\GlossaryMinipage{0.4c}\n"
            "\\includegraphics{picture:1}\n\\end{minipage}\n\\hspace*{5mm}\n"
            "\\begin{minipage}[t]{0.4\\textwidth}\\GlossaryMinipage{0.4t}\n$$x = 1$$\n"
            "\\begin{minipage}{\\textwidth}\\GlossaryMinipage{1c}\\centering (b)\\end{minipage}\n\\end{minipage}\n"
            "\\end{center}\n\\caption{Two panels.}\n\\label{fig:two}\n\\end{figure}")
    latex = render.write_batch({"t0": one(body)}, "latex", {"t0": body})["t0"]
    assert latex.count("\\begin{minipage}") == latex.count("\\end{minipage}") == 3, latex
    assert "\\begin{minipage}[c]{0.4\\linewidth}" in latex and "\\begin{minipage}[t]{0.4\\linewidth}" in latex
    # the first ends where the second begins, on one line: no blank line between them
    assert re.search(r"\\end\{minipage\}\\hspace\{1em\}%\n\\begin\{minipage\}\[t\]", latex), latex
    assert "glossary-minipage" not in latex, latex
    # a page shows neither note nor position: the share of the line alone
    assert 'data-position' not in html(one(body)) and 'style="--share: 0.4"' in html(one(body))


def test_figure_with_picture_caption_and_label():
    blocks = one("Before.\n\\begin{figure}[H]\n\\centering\n\\includegraphics{picture:2}\n"
                 "\\caption{The \\gls{loss} of a \\gls{svm}.}\n\\label{fig:loss}\n\\end{figure}\n"
                 "\\begin{figure}\n\\includegraphics{picture:3}\n\\caption{Inner label. \\label{fig:in}}\n"
                 "\\end{figure}")
    figures = find(blocks, "Figure")
    assert [f["c"][0][0] for f in figures] == ["fig:loss", "fig:in"]
    assert [find(f["c"][2], "Image")[0]["c"][2][0] for f in figures] == ["picture:2", "picture:3"]
    assert text(figures[0]["c"][1][1][0]["c"]) == "The loss of a support vector machine (SVM)."
    assert text(figures[1]["c"][1][1][0]["c"]).strip() == "Inner label."
    assert xrefs(figures[0]) == [("loss", "loss"), ("svm", "support vector machine (SVM)")]


def test_ref_and_eqref_are_links_and_a_labelled_equation_a_target():
    blocks = one("\\begin{equation}\n a = b \\label{eq:ab}\n\\end{equation}\n"
                 "By \\eqref{eq:ab} and Fig.~\\ref{fig:x}, $c \\leq \\eqref{eq:ab}$.")
    links = [x["c"] for x in find(blocks, "Link")]
    assert links[:2] == [
        [["", [], [["reference-type", "eqref"], ["reference", "eq:ab"]]], [{"t": "Str", "c": "eq:ab"}], ["#eq:ab", ""]],
        [["", [], [["reference-type", "ref"], ["reference", "fig:x"]]], [{"t": "Str", "c": "fig:x"}], ["#fig:x", ""]]]
    spans = find(blocks, "Span")
    # its number (the term's first equation) and anchor, for the page to show beside it
    assert spans[0]["c"][0] == ["", ["equation"], [["label", "eq:ab"], ["data-eqnos", '[["(1)", "eq:ab"]]']]]
    page = html(blocks)
    assert '<span id="eq:ab" class="equation">' in page and '<a class="ref" href="#eq:ab">(eq:ab)</a>' in page
    assert '</math><span class="eqnos"><a class="eqno" href="#eq:ab">(1)</a></span></span>' in page
    # The LaTeX writer labels the equation once, inside it, where LaTeX numbers it.
    doc = {"pandoc-api-version": texprose.API_VERSION, "meta": {}, "blocks": prose.for_format(blocks, "latex")}
    latex = prose.run_pandoc(["-f", "json", "-t", "latex"], json.dumps(doc))
    assert latex.count("\\label{eq:ab}") == 1 and re.search(r"\\begin\{equation\}\s*\\label\{eq:ab\}", latex)


def test_cite_keeps_its_pinpoint():
    blocks = one(r"As shown \cite[Sec. 2.4]{Boyd04}, and \citep{Ng01,Vapnik98}.")
    cites = find(blocks, "Cite")
    first = cites[0]["c"][0][0]
    assert first["citationId"] == "Boyd04" and text(first["citationSuffix"]) == "Sec. 2.4"
    assert [c["citationId"] for c in cites[1]["c"][0]] == ["Ng01", "Vapnik98"]


def test_normalise_macros_gives_formulas_texmath_converts():
    text = texprose.normalise_macros(MACROS)
    for old in (r"\bf", r"\rm", r"\cal", r"\bm", r"\mleft", r"\def", "usepackage", "%"):
        assert old not in text
    assert r"\newcommand{\vx}[0]{{\mathbf{x}}}" in text and r"\newcommand{\est}{E^{(\mathrm{est)}}}" in text
    formulas = r"$\vx + \rows{\vx} + \normof{\vx}{2} + \set + \vnoise + \layer{3} + w\at + w\at[j] + \est$"
    blocks = one(formulas)
    page = html(blocks)
    assert re.search(r'<mi mathvariant="bold[^"]*">[^<]+</mi>', page)      # \vx: bold x
    assert "<mi>rows</mi>" in page or '<mi mathvariant="normal">r</mi><mi mathvariant="normal">o</mi>' in page
    assert re.search(r'<mi mathvariant="script">|𝒮', page)                   # \set: calligraphic S
    assert not re.search(r"\\[A-Za-z]+", re.sub(r"<annotation.*?</annotation>", "", page, flags=re.S))
    # The same formulas with the macro file as written do not convert: the rewriting is what works.
    as_written = [term("t0", formulas)]
    blocks = json.loads(prose.run_pandoc(texprose.READER, MACROS + "\n\n" + formulas))["blocks"]
    _, failures = render.html_pieces({"t0": blocks})
    assert failures and as_written


def test_all_bodies_in_one_pandoc_process_split_per_term(monkeypatch):
    calls = []
    real = texprose.run_pandoc

    def spy(args, text, log=None):
        calls.append(args)
        return real(args, text, log)
    monkeypatch.setattr(texprose, "run_pandoc", spy)
    bodies = ["Alpha one.\n\nAlpha two $\\vx$.", "Beta \\gls{loss}.", "Gamma {\\bf bold}."]
    _, parsed = parse(*bodies)
    assert len(calls) == 1
    assert list(parsed) == ["t0", "t1", "t2"]
    texts = {slug: " | ".join(text(b["c"]) for b in blocks) for slug, blocks in parsed.items()}
    assert texts == {"t0": "Alpha one. | Alpha two {\\mathbf{x}}.", "t1": "Beta loss.", "t2": "Gamma bold."}


def test_a_formula_that_does_not_convert_names_file_line_key_and_message():
    terms = [term("fine", "All $x$ good."),
             term("broken", "A \\gls{kmeans} $y$.\nThen $a \\frobnicate{b}$ here.", line=40)]
    parsed = texprose.parse(terms, texprose.normalise_macros(MACROS), TARGETS)
    with pytest.raises(EntryError) as err:
        write_html(parsed, terms)
    message = str(err.value)
    assert message.startswith("ADictML_Test.tex:41: term 'broken': the formula $a \\frobnicate{b}$")
    assert "unexpected control sequence \\frobnicate" in message


def test_an_unknown_key_and_an_unclosed_group_are_errors():
    with pytest.raises(EntryError, match=r"ADictML_Test.tex:11: term 't0': \\gls\{sv\} names no entry"):
        one("Fine.\nA \\gls{sv}.")
    with pytest.raises(EntryError, match=r"ADictML_Test.tex:11: term 't1': '\{\\\\bf group.' is never closed"):
        parse("Fine.", "Open\n{\\bf group.", "Next.")


def test_unknown_lists_the_raw_tex_pandoc_left():
    blocks = one("Some text.\n\n\\vspace{2mm}\n\n\\wibble{2mm}\n\nMore \\frobnicate{x} text \\cite{A}.")
    # layout-only TeX (\\vspace) is dropped; what pandoc does not know is kept and told
    assert texprose.unknown(blocks) == ["\\wibble{2mm}", "\\frobnicate{x}"]


def test_a_cite_and_text_after_a_layout_command_are_not_unknown_tex():
    """The build's note counted every \\cite (pandoc keeps a raw copy inside each Cite) and a number
    pandoc took in with \\centering (the real dictionary's vector) as constructs it did not know."""
    blocks = one("See \\cite{A}.\n\\begin{figure}[H]\n\\begin{minipage}[c]{0.48\\textwidth}\n\\centering \n"
                 "2, --1, 3\n\\end{minipage}\n\\end{figure}")
    spans = [s for s in find(blocks, "Span") if "unknown-tex" in s["c"][0][1]]
    assert spans == []
    assert len(find(blocks, "Cite")) == 1
    assert any(s["c"].startswith("2") for s in find(blocks, "Str"))


def test_a_gap_of_a_given_width_is_kept_in_print_and_on_the_page():
    """The real dictionary's spectrogram labels its two panels "(a) \\hspace{10em} (b)": the gap was
    dropped as layout, and both the page and the book set "(a) (b)" bunched under the picture."""
    body = "(a) \\hspace{10em} (b), then \\hspace*{2.5 mm}c, and \\hspace{-1mm}d."
    blocks = one(body)
    assert texprose.unknown(blocks) == []
    assert '(a) <span class="gap" style="--gap: 10em"></span> (b)' in html(blocks)
    assert '<span class="gap" style="--gap: 2.5mm"></span>c' in html(blocks)
    latex = render.write_batch({"t0": blocks}, "latex", {"t0": body})["t0"]
    assert "(a) \\hspace{10em} (b)" in latex and "\\hspace*{2.5 mm}c" in latex, latex
    markdown = render.write_batch({"t0": blocks}, "markdown", {"t0": body})["t0"]
    assert "(b), then c" in markdown and "gap" not in markdown and "hspace" not in markdown, markdown
    # a negative gap (pulling text together by hand) stays layout, which a page does its own way
    assert "-1mm" not in html(blocks) and "-1mm" not in latex
