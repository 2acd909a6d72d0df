"""A build reads only the dictionary's folder (issue 24, item 8): every TeX run is sandboxed (kpathsea's
paranoid mode, no shell escape, a job folder that links what the run may read, and the -recorder list
checked), and a picture or entry that reads elsewhere is an error naming the term, its file and line,
with nothing of the file published.  A failing pictures' preamble names the author's file and line."""
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO

from glossary import latex, pictures, texdict, texprose
from glossary.entries import EntryError
from glossary.readers.latex.config import read_config

FIXTURE = REPO / "tests" / "fixtures" / "texdict"
TOKEN = "ZZOUTSIDETOKENZZ"
# The gd picture's last node (TinyDict_Models.tex): a line is added after it.
GD_NODE = r"\node at (0,2.2) {\glspl{loss function}};"


def build(source, out):
    return subprocess.run([sys.executable, "-m", "glossary.build", "--cores", "1", "--source", str(source),
                           "--out", str(out)], cwd=REPO, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "PYTHONPATH": str(REPO / "src")})


@pytest.fixture
def dictionary(tmp_path):
    """A copy of the fixture dictionary, with a file beside it (outside its folder) holding TOKEN, a
    picture of it (outside/secret.png) and a .git/config inside it holding TOKEN."""
    source = tmp_path / "dict"
    shutil.copytree(FIXTURE, source)
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.tex").write_text(f"{TOKEN}\n")
    shutil.copyfile(FIXTURE / "assets/tiny.png", outside / "secret.png")
    (source / ".git").mkdir()
    (source / ".git/config").write_text(f"[http]\n\textraheader = AUTHORIZATION: {TOKEN}\n")
    return source


def add_line(path, after, line):
    """Put `line` after the line holding `after` in path; its line number (1-based)."""
    rows = path.read_text(encoding="utf-8").split("\n")
    at = next(i for i, row in enumerate(rows) if after in row) + 1
    rows.insert(at, line)
    path.write_text("\n".join(rows), encoding="utf-8")
    return at + 1


def at(line):
    """A mistake's place in TinyDict_Models.tex as the build tells it (file:line: or file:line:column:)."""
    return rf"TinyDict_Models\.tex:{line}(?::\d+)?:"


def leaked(out):
    """The files under a build's folder that hold TOKEN (site, results, logs)."""
    return [p for p in out.rglob("*") if p.is_file() and not p.is_symlink() and TOKEN.encode() in p.read_bytes()]


def told_before_any_job(run, out):
    """The build stopped at the reader's check, which tells every mistake before Snakemake starts:
    nothing was built and no job ran (no Snakemake folder, no results)."""
    assert run.returncode != 0
    assert "nothing was built" in run.stderr, run.stderr
    assert not (out / ".snakemake").exists() and not (out / "results").exists()
    assert not (out / "site").exists()


@pytest.mark.parametrize("read", [r"\input{OUT/secret}", r"\input{../outside/secret}",
                                  r"\includegraphics{OUT/secret.png}", r"\includegraphics{../outside/secret}"])
def test_a_picture_that_reads_outside_the_folder_is_told_before_any_job(dictionary, tmp_path, read):
    read = read.replace("OUT", str(tmp_path / "outside"))
    name = re.search(r"\{(.*)\}", read).group(1)
    line = add_line(dictionary / "TinyDict_Models.tex", GD_NODE, rf"\node at (0,-1) {{{read}}};")
    run = build(dictionary / "dictionary.yaml", tmp_path / "out")
    assert re.search(rf"{at(line)} term 'gd': .*{re.escape(name)}.*outside the dictionary's folder",
                     run.stderr), run.stderr
    told_before_any_job(run, tmp_path / "out")
    assert leaked(tmp_path / "out") == []


def test_reads_outside_the_folder_in_two_terms_are_told_at_once(dictionary, tmp_path):
    """A picture's read and a description's listing, in two terms: both told in one run, at their lines."""
    picture = add_line(dictionary / "TinyDict_Models.tex", GD_NODE, r"\node at (0,-1) {\input{../outside/secret}};")
    listing = read_in_a_description(dictionary, r"\lstinputlisting{../outside/secret.tex}")
    run = build(dictionary / "dictionary.yaml", tmp_path / "out")
    assert re.search(rf"{at(picture)} term 'gd': picture 1 reads \.\./outside/secret, outside", run.stderr), run.stderr
    assert re.search(rf"{at(listing)} term 'dataset': \\lstinputlisting reads a file", run.stderr), run.stderr
    assert "2 mistakes" in run.stderr, run.stderr
    told_before_any_job(run, tmp_path / "out")


def test_the_jobs_refuse_such_reads_too(tmp_path):
    """The pictures job and the prose job refuse the same reads before TeX or pandoc runs (for a run that
    skips the reader's check): a picture naming ../, a description reading a listing."""
    picture = {"key": "k", "tex": "\\begin{tikzpicture}\n\\node {\\input{../outside/secret}};\n\\end{tikzpicture}",
               "term": "gd", "path": "TinyDict_Models.tex", "line": 40, "n": 2}
    with pytest.raises(EntryError, match=r"^TinyDict_Models\.tex:41: term 'gd': picture 2 reads \.\./outside/secret, "
                                         r"outside the dictionary's folder"):
        pictures.compile_all([picture], "", str(tmp_path), str(tmp_path / "cache"))
    assert not (tmp_path / "cache").exists()
    term = {"key": "dataset", "slug": "dataset", "path": "TinyDict_Models.tex", "body_line": 7,
            "body": "A dataset.\n\\lstinputlisting{x.py}"}
    with pytest.raises(EntryError, match=r"^TinyDict_Models\.tex:8: term 'dataset': \\lstinputlisting reads a file"):
        texprose.parse([term], "", {})


@pytest.mark.parametrize("where", ["OUT/secret", ".git/config"])
def test_a_name_made_by_a_macro_is_refused_by_tex_itself(dictionary, tmp_path, where):
    """A name the reader cannot see (a macro's) reaches TeX, which refuses it (an absolute path) or does
    not find it (a hidden file: the folder a TeX run sees has none)."""
    where = where.replace("OUT", str(tmp_path / "outside"))
    line = add_line(dictionary / "TinyDict_Models.tex", GD_NODE,
                    rf"\def\where{{{where}}}\node at (0,-1) {{\input{{\where}}}};")
    run = build(dictionary / "dictionary.yaml", tmp_path / "out")
    assert run.returncode != 0
    assert re.search(rf"{at(line)} term 'gd': picture 1 does not compile: .*{re.escape(where)}",
                     run.stderr), run.stderr
    if where.startswith("/"):
        assert f"it reads {where}, outside the dictionary's folder" in run.stderr
    assert not (tmp_path / "out/site").exists()
    assert leaked(tmp_path / "out") == []


def read_in_a_description(dictionary, read):
    """`read` put into the dataset term's first sentence; its line in TinyDict_Models.tex."""
    models = dictionary / "TinyDict_Models.tex"
    models.write_text(models.read_text().replace(r"A dataset\index{dataset} is", rf"A dataset {read} is"))
    return next(n for n, row in enumerate(models.read_text().split("\n"), 1) if read in row)


@pytest.mark.parametrize("command", [r"\lstinputlisting", r"\verbatiminput*"])
def test_a_listing_read_into_a_description_is_told_before_any_job(dictionary, tmp_path, command):
    """A listing read into a description (pandoc would read it) is a mistake the reader tells at its line."""
    line = read_in_a_description(dictionary, rf"{command}{{{tmp_path / 'outside/secret.tex'}}}")
    run = build(dictionary / "dictionary.yaml", tmp_path / "out")
    assert re.search(rf"{at(line)} term 'dataset': {re.escape(command)} reads a file", run.stderr), run.stderr
    told_before_any_job(run, tmp_path / "out")
    assert leaked(tmp_path / "out") == []


def test_a_name_starting_with_a_tilde_is_caught_after_the_run(tmp_path, monkeypatch):
    """kpathsea's paranoid mode lets ~/name through (it expands ~ after its check): the run's list of
    the files it read (-recorder) shows it, and the run fails with no PDF."""
    home = tmp_path / "home"
    home.mkdir()
    (home / "secret.tex").write_text(f"{TOKEN}\n")
    monkeypatch.setenv("HOME", str(home))
    tex = tmp_path / "doc.tex"
    tex.write_text("\\documentclass{article}\n\\begin{document}\n\\input{~/secret}\n\\end{document}\n")
    with pytest.raises(latex.LatexError, match=rf"it reads {re.escape(str(home))}/secret\.tex, outside"):
        latex.compile_pdf(tex, tmp_path / "doc.pdf", tmp_path / "doc.log")
    assert not (tmp_path / "doc.pdf").exists()


def test_a_normal_build_reads_its_pictures_graphics_and_figures_inside_the_folder(dictionary, tmp_path):
    """The fixture builds (its pictures, graphics, term PDFs and book through the sandbox), and its
    .git folder (inside the folder, but hidden) is read by no TeX run.  An \\input of a file outside the
    folder in a description is text on the page and in the PDF, never read."""
    secret = str(tmp_path / "outside/secret")
    read_in_a_description(dictionary, rf"\input{{{secret}}}")
    run = build(dictionary / "dictionary.yaml", tmp_path / "out")
    assert run.returncode == 0, run.stderr
    site = tmp_path / "out/site"
    assert secret in (site / "terms/dataset.html").read_text()
    assert (site / "terms/gd/pictures/1.pdf").is_file() and (site / "terms/datapoint/graphics/1.png").is_file()
    assert (site / "dictionary.pdf").stat().st_size > 10_000
    assert leaked(tmp_path / "out") == []


@pytest.mark.parametrize("where", ["main", "macros"])
def test_a_failing_picture_preamble_names_the_authors_file_and_line(dictionary, tmp_path, where):
    if where == "main":
        path = dictionary / "TinyDict_Main.tex"
        line = add_line(path, r"\usepackage{float}", r"\usepackage{nosuchpackage}")
        expected = r"File `nosuchpackage\.sty' not found"
    else:
        path = dictionary / "assets/notation.tex"
        line = add_line(path, r"\newcommand{\lrate}", r"\newcommand{\lrate}{\alpha}")
        expected = r"Command \\lrate already defined"
    read = texdict.read(dictionary / "TinyDict_Main.tex")
    macro_files = [str(Path(read["root"]) / m) for m in read["macro_files"]]
    preamble = pictures.picture_preamble(read["preamble"], "".join(Path(m).read_text() for m in macro_files))
    sources = {"main": str(dictionary / "TinyDict_Main.tex"), "macros": macro_files}
    with pytest.raises(EntryError) as err:
        pictures.compile_format(preamble, tmp_path / "pictures.fmt", read["root"], sources=sources)
    assert re.search(rf"^the pictures' preamble does not compile: {re.escape(str(path))}:{line}: .*{expected}",
                     str(err.value)), str(err.value)
    assert "/tmp/tmp" not in str(err.value)


@pytest.mark.parametrize("field", ["main", "demos.gd.script"])
def test_files_the_yaml_file_names_stay_in_its_folder(dictionary, tmp_path, field):
    config = dictionary / "dictionary.yaml"
    shutil.copyfile(dictionary / "TinyDict_Main.tex", tmp_path / "outside/main.tex")
    shutil.copyfile(dictionary / "demos/gd_demo.py", tmp_path / "outside/gd_demo.py")
    text = config.read_text()
    text = (text.replace("main: TinyDict_Main.tex", "main: ../outside/main.tex") if field == "main"
            else text.replace("script: demos/gd_demo.py", "script: ../outside/gd_demo.py"))
    config.write_text(text)
    with pytest.raises(EntryError, match=rf"{re.escape(field)}: '\.\./outside/.*' is outside the dictionary's folder"):
        read_config(config)
