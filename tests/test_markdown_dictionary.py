"""Markdown entries get what LaTeX terms get: an entry may be prose only (no demo jobs), cite
[@key] records of config.yaml's bibliography (numbered, with its references on the page and in the
PDF), and draw ```tikz pictures (compiled once, an SVG figure with its caption on the page, the
same PDF in print). An unknown citation key stops the build before any job runs."""
import shutil
import subprocess

import pytest
from conftest import build_site, copy_built, copy_repo, made_by, snakemake

ENTRY = """---
title: Perceptron
summary: A linear classifier trained one mistake at a time.
---
The perceptron [@rosenblatt1958, p. 390] updates its weights $w \\leftarrow w + y x$ on every
mistake, unlike [[attention]].

```tikz
% caption: A separating line between two classes.
\\draw[->] (0,0) -- (2,0);
\\draw (0,0) -- (1.5,1.5);
```
"""
BIB = """@article{rosenblatt1958,
  author = {Rosenblatt, Frank},
  title = {The perceptron: a probabilistic model for information storage and organization in the brain},
  journal = {Psychological Review}, volume = {65}, number = {6}, pages = {386--408}, year = {1958}
}
"""


def with_entry(root, entry=ENTRY):
    (root / "entries/perceptron").mkdir()
    (root / "entries/perceptron/entry.md").write_text(entry)
    (root / "refs.bib").write_text(BIB)
    with open(root / "config.yaml", "a") as f:
        f.write("bibliography: refs.bib\n")
    return root


@pytest.fixture(scope="module")
def site(built, tmp_path_factory):
    root = with_entry(copy_built(built[0], tmp_path_factory.mktemp("md") / "glossary"))
    ran = build_site(root)
    return root, ran


def pdftotext(path):
    return " ".join(subprocess.run(["pdftotext", str(path), "-"], capture_output=True, text=True,
                                   check=True).stdout.split())


def test_a_prose_only_entry_costs_no_demo_jobs(site, tmp_path):
    root, _ = site
    terms = root / "site/terms"
    assert (terms / "perceptron.html").is_file() and (terms / "perceptron.pdf").is_file()
    assert not (terms / "perceptron.py").exists() and not (terms / "perceptron.ipynb").exists()
    # the whole build plans no demo job for it
    run, _ = snakemake(root, "--summary", "--forceall")
    planned = {line.split("\t")[0] for line in run.stdout.splitlines()[1:]}   # every file the build makes
    page = made_by(root, "results/site/terms/perceptron.html")
    assert "results/attention/tokens.json" in planned and page in planned and page.startswith("results/batches/")
    assert not [f for f in planned if f.startswith("results/perceptron/") and "/facts/" in f or f.endswith(
        ("perceptron/tokens.json", "perceptron/model.json", "perceptron.ipynb", "perceptron.py"))]
    page = (terms / "perceptron.html").read_text()
    assert 'id="demo"' not in page and "Open in Colab" not in page


def test_citation_is_numbered_with_its_reference_on_the_page_and_in_the_pdf(site):
    root, _ = site
    page = (root / "site/terms/perceptron.html").read_text()
    assert '<a href="#ref-perceptron-1" class="citation">[1,\u00a0p.\u00a0390]</a>' in page or \
        'class="citation" href="#ref-perceptron-1">[1,\u00a0p.\u00a0390]</a>' in page, page
    assert 'id="ref-perceptron-1"' in page and "Psychological Review" in page
    text = pdftotext(root / "site/terms/perceptron.pdf")
    assert "[1, p. 390]" in text and "F. Rosenblatt" in text and "References" in text
    assert "F. Rosenblatt" in pdftotext(root / "site/dictionary.pdf")


def test_tikz_block_is_a_numbered_svg_figure_and_the_same_pdf_in_print(site):
    root, ran = site
    assert "pictures" in ran
    terms = root / "site/terms"
    assert (terms / "perceptron/pictures/1.svg").read_text().lstrip().startswith("<?xml")
    page = (terms / "perceptron.html").read_text()
    assert '<img src="perceptron/pictures/1.svg"' in page
    assert "Figure\u00a01.</strong>" in page and "A separating line between two classes." in page
    assert "A separating line between two classes." in pdftotext(terms / "perceptron.pdf")
    entry_tex = (root / "results/perceptron/print/entry.tex").read_text()
    assert "perceptron/pictures/1.pdf" in entry_tex     # included, not compiled again


def test_unknown_citation_key_stops_before_any_job(tmp_path):
    root = with_entry(copy_repo(tmp_path / "glossary"), ENTRY.replace("@rosenblatt1958", "@rosenblat1958"))
    shutil.rmtree(root / "results", ignore_errors=True)
    run, ran = snakemake(root, check=False)
    assert run.returncode != 0 and ran == []
    out = run.stdout + run.stderr
    assert "entries/perceptron/entry.md:5: term 'perceptron': no record 'rosenblat1958' in refs.bib" in out, out
    assert "did you mean 'rosenblatt1958'?" in out
