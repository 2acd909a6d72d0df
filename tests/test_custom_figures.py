"""Custom figures: `kind: custom` with `source: <file>.tex.j2` beside entry.md, drawn from the
entry's declared CSVs by the same rules as the built-in kinds (PDF, SVG, PNG), and a LaTeX
error in it told in a few lines naming the .tex.j2, with site/ left as it was."""
import os
import re
import shutil
import subprocess
import sys

import pytest
from conftest import BIN, REPO, build_site, copy_repo, tree_bytes

from glossary import entries

sys.path.insert(0, str(REPO / "scripts"))
import new_entry  # noqa: E402

TEMPLATE = r"""<% include "preamble.tex.j2" %>
\begin{document}
\begin{tikzpicture}
\begin{axis}[width=8cm, height=5cm, xlabel={gradient step}, ylabel={squared error}, ymode=log]
\addplot[only marks, mark size=1pt, color=<< colors[1] >>]
  table[x=step, y=loss, col sep=comma] {<< csvs["alpha_loss.csv"] >>};
\node[anchor=north east] at (rel axis cs:0.95,0.95) {drawn by hand};
\end{axis}
\end{tikzpicture}
\end{document}
"""
FIGURE = """  - name: scatter
    kind: custom
    source: scatter.tex.j2
    csv: alpha_loss.csv
    caption: The same losses as points, in the entry's own pgfplots template.
    alt: Points falling along a curve on a log scale.
"""


def add_custom_figure(root, template=TEMPLATE):
    folder = root / "entries/alpha"
    (folder / "scatter.tex.j2").write_text(template)
    md = folder / "entry.md"
    text = md.read_text()
    head, _, body = text[4:].partition("\n---\n")
    md.write_text("---\n" + head + "\n" + FIGURE.rstrip("\n") + "\n---\n" + body)


def skeleton_repo(dst):
    root = copy_repo(dst)
    for folder in (root / "entries").iterdir():
        shutil.rmtree(folder)
    new_entry.create("alpha", root=root)
    return root


@pytest.fixture(scope="module")
def custom_built(tmp_path_factory):
    root = skeleton_repo(tmp_path_factory.mktemp("custom") / "repo")
    add_custom_figure(root)
    ran = build_site(root)
    return root, ran


def pdftotext(path):
    return subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True, check=True).stdout


@pytest.mark.slow
def test_custom_figure_built_as_pdf_svg_png_and_printed(custom_built):
    root, ran = custom_built
    figures = root / "site/terms/alpha/figures"
    assert (figures / "scatter.pdf").read_bytes().startswith(b"%PDF")
    assert (figures / "scatter.svg").read_text().lstrip().startswith("<?xml")
    assert (figures / "scatter.png").read_bytes()[:4] == b"\x89PNG"
    tex = (root / "logs/figure/alpha/scatter.tex").read_text()
    assert tex.startswith("% Rendered from entries/alpha/scatter.tex.j2")
    assert "{data/alpha_loss.csv}" in tex      # its declared CSV, under its TeX run's data link (latex.DATA)
    assert "drawn by hand" in pdftotext(figures / "scatter.pdf")
    entry_pdf = " ".join(pdftotext(root / "site/terms/alpha.pdf").split())
    assert "drawn by hand" in entry_pdf and "Figure 2: The same losses as points" in entry_pdf
    assert "scatter.svg" in (root / "site/terms/alpha.html").read_text()
    assert ran.count("figure") == 2


@pytest.mark.slow
def test_custom_figure_latex_error_names_the_template(custom_built, tmp_path):
    work = tmp_path / "broken"       # the built skeleton repository as it is (copy_built copies REPO's sources)
    subprocess.run(["cp", "-a", str(custom_built[0]), str(work)], check=True)
    before = (work / "site").stat().st_ino, tree_bytes(work / "site")
    template = work / "entries/alpha/scatter.tex.j2"
    template.write_text(template.read_text().replace(r"\node[anchor", r"\undefinedmacro\node[anchor"))
    line = next(n for n, text in enumerate(template.read_text().splitlines(), 1) if "undefinedmacro" in text)
    run = subprocess.run([str(BIN / "python"), "-m", "glossary.build", "--cores", "2"], cwd=work,
                         env=dict(os.environ, PYTHONPATH=str(work / "src")), capture_output=True, text=True)
    err = run.stderr
    assert run.returncode != 0
    assert len(err.strip().splitlines()) <= 10, err
    assert "error: rule figure failed" in err, err
    assert re.search(rf"entries/alpha/scatter\.tex\.j2:{line}: Undefined control sequence\.", err), err
    assert re.search(r"full log: logs/figure/alpha/scatter\.tex\.log", err), err
    assert "Traceback" not in err and "templates/figures/custom.tex.j2" not in err, err
    assert err.rstrip().endswith("site/ was left as it was.")
    assert ((work / "site").stat().st_ino, tree_bytes(work / "site")) == before


def load(tmp_path, figure, files=("scatter.tex.j2",)):
    """load_entry on a copy of a skeleton whose second figure is `figure` (YAML lines)."""
    root = skeleton_repo(tmp_path / "repo") if not (tmp_path / "repo").exists() else tmp_path / "repo"
    folder = root / "entries/alpha"
    for name in files:
        (folder / name).write_text(TEMPLATE)
    md = folder / "entry.md"
    text = md.read_text()
    head, _, body = text[4:].partition("\n---\n")
    md.write_text("---\n" + head + "\n" + figure.rstrip("\n") + "\n---\n" + body)
    return entries.load_entry(folder, entries.load_schema(REPO / entries.SCHEMA))


def test_custom_figure_needs_no_x_or_y(tmp_path):
    meta = load(tmp_path, FIGURE)
    assert meta["figures"][1]["source"] == "scatter.tex.j2"


def test_custom_figure_needs_its_source(tmp_path):
    with pytest.raises(entries.EntryError, match=r"figures\[1\]\.source: missing; add it \(the name of its "
                                                 r"\.tex\.j2 template beside entry\.md\)"):
        load(tmp_path, FIGURE.replace("    source: scatter.tex.j2\n", ""))


def test_custom_figure_source_must_exist(tmp_path):
    with pytest.raises(entries.EntryError, match=r"figures\[1\]\.source: 'scatter\.tex\.j2' is not a file in "):
        load(tmp_path, FIGURE, files=())


def test_builtin_kind_still_needs_x_and_y(tmp_path):
    figure = FIGURE.replace("kind: custom", "kind: line").replace("    source: scatter.tex.j2\n", "")
    with pytest.raises(entries.EntryError, match=r"figures\[1\]\.x: missing"):
        load(tmp_path, figure)


def test_custom_template_without_the_preamble_is_told(tmp_path):
    from glossary import figures
    folder = tmp_path / "entry"
    folder.mkdir()
    (folder / "fig.tex.j2").write_text("\\documentclass{standalone}\\begin{document}x\\end{document}\n")
    (tmp_path / "data").mkdir()
    with pytest.raises(entries.EntryError, match=r"does not include the figures' preamble; start it with "
                                                 r'<% include "preamble\.tex\.j2" %>'):
        figures.render_custom({"source": "fig.tex.j2"}, tmp_path / "data", tmp_path / "fig.tex", {},
                              folder / "fig.tex.j2", REPO / "templates/figures", "entry.md", 0)
