"""The prose pipeline (glossary.prose): one pandoc parse of an entry's Markdown feeds the page's
HTML (math as MathML), the print edition's LaTeX (math native) and the published Markdown;
[[xrefs]] become links in each; the notation package's macros expand in every formula; an
undefined macro is an error naming the file, the line and the macro; LaTeX specials in the
text come out literally in both outputs; raw HTML and TeX are shown as text."""
import json
import re
import shutil
import subprocess
import time
import xml.etree.ElementTree as ET

import pytest
from conftest import REPO

from glossary import prose
from glossary.entries import EntryError

NOTATION = REPO / "templates" / "notation.sty"
MACROS = prose.macro_lines(NOTATION.read_text())
TITLES = {"attention": "Attention", "multi-head-attention": "Multi-head attention"}


def render(body, facts=None, path="entries/x/entry.md", formats=("html", "latex", "markdown")):
    return prose.render(body, facts or {}, path, macros=MACROS, titles=TITLES, formats=formats)


def entry_file(tmp_path, body, front="title: X\nsummary: S.\n"):
    md = tmp_path / "entry.md"
    md.write_text(f"---\n{front}---\n{body}")
    return md


def test_one_parse_feeds_every_output(monkeypatch):
    """pandoc reads the Markdown once (to its JSON AST); the writers read that AST."""
    calls = []
    real = prose.run_pandoc

    def spy(args, text, log=None):
        calls.append(args[:4])
        return real(args, text, log)
    monkeypatch.setattr(prose, "run_pandoc", spy)
    out = render("Some *prose* with $x$.\n")
    readers = [a for a in calls if a[1] != "json"]
    assert len(readers) == 1 and readers[0][1].startswith("markdown") and readers[0][3] == "json"
    writers = sorted(a[3].split("-")[0] for a in calls if a[1] == "json")
    assert writers == ["html5", "latex", "markdown"]
    assert "<em>prose</em>" in out["html"] and r"\emph{prose}" in out["latex"] and "*prose*" in out["markdown"]


def test_math_is_mathml_on_the_page_and_native_in_latex():
    out = render(r"Inline $x_i \le \sqrt{d_k}$ and display $$\sum_i a_i$$" + "\n")
    assert "<msub><mi>x</mi><mi>i</mi></msub>" in out["html"] and "≤" in out["html"] and "∑" in out["html"]
    assert r"\(x_i \le \sqrt{d_k}\)" in out["latex"] and r"\[\sum_i a_i\]" in out["latex"]
    assert "<math" not in out["latex"]
    ET.fromstring(f"<root>{out['html']}</root>")     # well-formed


def test_notation_macros_expand_the_same_in_both_outputs():
    out = render(r"$\vx^\top \mW$ and $\softmax(\norm{\vq})$" + "\n")
    expanded = r"\boldsymbol{x}^\top \boldsymbol{W}"
    assert f"\\({expanded}\\)" in out["latex"]
    assert f'<annotation encoding="application/x-tex">{expanded}</annotation>' in out["html"]
    assert '<mi mathvariant="normal">softmax</mi>' in out["html"] and r"\operatorname{softmax}" in out["latex"]
    assert "\\vx" not in out["latex"] + out["html"]


def test_every_notation_macro_converts():
    """Each macro notation.sty defines is one texmath (MathML) and LaTeX both accept."""
    names = prose.macro_names(MACROS)
    assert {"vx", "mW", "softmax"} <= set(names)
    body = " ".join("$\\" + n + ("{a}$" if n == "norm" else "$") for n in names) + "\n"
    out = render(body, formats=("html",))
    assert out["html"].count("<math") == len(names)


def test_undefined_macro_is_an_error_naming_file_line_and_macro(tmp_path):
    md = entry_file(tmp_path, "First line.\n\nThe vector $\\vz + \\vx$ here.\n")
    body = md.read_text().split("---\n", 2)[2]
    with pytest.raises(EntryError) as info:
        prose.render(body, {}, str(md), macros=MACROS, titles=TITLES)
    message = str(info.value)
    assert message.startswith(f"{md}: line 7: \\vz in a formula") and "\n" not in message
    assert "templates/notation.sty" in message and "\\vx" in message     # what to use instead


def test_forbidden_tex_in_a_formula_is_refused():
    for tex in (r"$\tag{\input{/etc/passwd}} x$", r"$\text{a} \def\b{c}$", r"$x % comment$"):
        with pytest.raises(EntryError):
            render(tex + "\n")


def test_macro_definitions_in_the_prose_are_refused():
    with pytest.raises(EntryError, match=r"newcommand in the prose; define macros once"):
        render("\\newcommand{\\vz}{z}\n\nText $\\vz$.\n")


@pytest.mark.parametrize("text", ["100% of a & b # c _ d { e } f ~ g ^ h \\\\ i \\$ j",
                                  "Costs $5 and $6, C:\\\\Users\\\\me, a_b_c"])
def test_latex_specials_come_out_literally_in_both_outputs(text, tmp_path):
    out = render(text + "\n")
    shown = text.replace("\\\\", "\\").replace("\\$", "$")        # Markdown's escapes undone
    assert re.sub(r"<[^>]+>", "", out["html"]).strip() == shown.replace("&", "&amp;")
    # The LaTeX, typeset by pdflatex, prints exactly the text.
    if shutil.which("pdflatex") is None:
        pytest.skip("no pdflatex")
    doc = tmp_path / "d.tex"
    doc.write_text("\\documentclass{article}"
                   "\\pagestyle{empty}\\begin{document}\n" + out["latex"] + "\n\\end{document}\n")
    run = subprocess.run(["pdflatex", "-interaction=nonstopmode", "-halt-on-error", doc.name], cwd=tmp_path,
                         capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-2000:]
    pdf_text = subprocess.run(["pdftotext", "-raw", "d.pdf", "-"], cwd=tmp_path, capture_output=True,
                              text=True, check=True).stdout
    # OT1 fonts (the print edition's): ~ and ^ print as the accents, _ as a rule pdftotext does not read.
    pdf_text = pdf_text.translate({ord("˜"): "~", ord("ˆ"): "^"})
    assert " ".join(pdf_text.split()) == " ".join(shown.replace("_", " ").split())
    if "_" in shown:
        assert r"\_" in out["latex"]


@pytest.mark.parametrize("source", [
    "<script>alert(1)</script>",
    "$\\text{<script>alert(1)</script>}$",
    "\\textbf{<b>} and \\begin{equation}x\\end{equation}",
])
def test_raw_html_and_tex_are_text_in_both_outputs(source):
    out = render(source + "\n")
    assert "<script" not in out["html"] and "<b>" not in out["html"]
    assert "&lt;script&gt;" in out["html"] or "&lt;b&gt;" in out["html"]
    assert "\\begin{equation}" not in out["latex"] and "\\textbf{<b>}" not in out["latex"]


def test_unsafe_addresses_lose_their_link():
    out = render("[click](javascript:alert(1)) ![x](data:text/html,hi) [ok](https://example.org/)\n")
    assert "javascript:" not in out["html"] and "data:" not in out["html"] and "javascript:" not in out["latex"]
    assert '<a href="https://example.org/">ok</a>' in out["html"]


def test_xrefs_render_in_html_latex_and_markdown():
    out = render("See [[attention]] and [[multi-head-attention|several heads]], not `[[code]]`.\n")
    assert '<a href="attention.html" class="xref">Attention</a>' in out["html"]
    assert '<a href="multi-head-attention.html" class="xref">several heads</a>' in out["html"]
    assert r"\glossaryref{attention}{Attention}" in out["latex"]
    assert r"\glossaryref{multi-head-attention}{several heads}" in out["latex"]
    assert "[Attention](attention.md)" in out["markdown"]
    assert "<code>[[code]]</code>" in out["html"]
    assert out["refs"] == ["attention", "multi-head-attention"]


def test_xref_title_with_specials_is_escaped_in_latex():
    out = prose.render("[[a-b]]\n", {}, "x.md", titles={"a-b": "Mean & 100% of x_i"})
    assert r"\glossaryref{a-b}{Mean \& 100\% of x\_i}" in out["latex"]
    assert ">Mean &amp; 100% of x_i</a>" in out["html"]


def test_unknown_xref_in_the_prose_job_names_the_closest(tmp_path):
    md = entry_file(tmp_path, "A link to [[atention]].\n")
    body = md.read_text().split("---\n", 2)[2]
    with pytest.raises(EntryError, match=r"line 5: \[\[atention\]\]: no entry 'atention'; the closest are: attention"):
        prose.render(body, {}, str(md), macros=MACROS, titles=TITLES)


def test_facts_are_filled_in_before_the_parse(tmp_path):
    out = render("Loss {{ '%.2f' | format(loss) }} <script>x</script>\n", {"loss": 0.123})
    assert out["html"] == "<p>Loss 0.12 &lt;script&gt;x&lt;/script&gt;</p>\n"
    assert out["latex"] == "Loss 0.12 \\textless script\\textgreater x\\textless/script\\textgreater{}\n"


def test_missing_fact_is_one_line(tmp_path):
    with pytest.raises(EntryError, match=r"quote one of the run's facts: loss"):
        render("{{ los }}\n", {"loss": 1})


def test_the_real_entries_render_with_facts_of_their_keys():
    """Both real entries' prose converts (every formula, every xref), given any numbers for their facts."""
    from glossary import entries, layout, xref
    loaded = entries.load_all(REPO / "entries", REPO / entries.SCHEMA)
    for slug, entry in loaded.items():
        names = set(re.findall(r"{{[^}]*?\b([a-z_]+)\b\s*(?:\||}})", entry["body"])) | \
            set(re.findall(r"format\(([a-z_]+)\)", entry["body"]))
        facts = {n: 1 for n in names}
        out = prose.render(entry["body"], facts, entry["path"], macros=MACROS,
                           titles=layout.prose_params(slug, loaded)["titles"])
        assert out["refs"] and set(out["refs"]) == set(xref.titles(loaded, slug))
        assert "\\vx" not in out["latex"] and "\\mW" not in out["latex"] and "boldsymbol" in out["latex"]


def test_html_only_render_is_fast():
    """The preview's path: one parse and the HTML writer (docs/prose.md has the measurement)."""
    body = (REPO / "entries/attention/entry.md").read_text().split("---\n", 2)[2]
    names = set(re.findall(r"\b([a-z_]+)\b", " ".join(re.findall(r"{{(.*?)}}", body)))) - {"format"}
    facts = {n: 1 for n in names}
    best = min(_timed(lambda: prose.html(body, facts, "entries/attention/entry.md", macros=MACROS, titles=TITLES))
               for _ in range(3))
    assert best < 1.0, best


def _timed(fn):
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def test_markdown_page_has_title_summary_and_prose():
    out = prose.markdown_page("A_b *c*", "Sum.", "Text.\n")
    assert out == "# A\\_b \\*c\\*\n\n> Sum.\n\nText.\n"
    json.dumps(out)


@pytest.mark.parametrize("tex, summary", [
    (r"A point is any object that conveys information~\cite{ct}.", "A point is any object that conveys information."),
    (r"It bounds the gap (see \cite{a}).", "It bounds the gap."),
    (r"A measure (e.g., see \cite{a} or \cite{b}) of it.", "A measure of it."),
    (r"The theorem (also the contraction principle~\cite{x}) states",
     "The theorem (also the contraction principle) states"),
    (r"Kept (see Section 2 \cite{c}) and (as in $x$).", "Kept (see Section 2) and (as in x)."),
])
def test_a_summary_without_its_citations_reads_as_a_sentence(tex, summary):
    """What the real dictionary's summaries and quotes read before: "conveys information .", "(see )"."""
    from glossary import sentences
    inlines = json.loads(prose.run_pandoc(["-f", "latex", "-t", "json"], tex))["blocks"][0]["c"]
    assert prose.stringify(sentences.without_citations(inlines)) == summary
