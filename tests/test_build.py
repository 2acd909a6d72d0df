"""The whole build: what it publishes, that it publishes the same bytes every time,
and that a change reruns exactly the jobs it must."""
import json
import os
import re
import shutil
import subprocess

import pytest
from conftest import build_elsewhere, copy_built, copy_repo, snakemake, tree_bytes

from glossary import batchfiles

COMPUTE = {"compute"}
LATEX = {"latex_format", "figure"}


def test_site_has_every_output(built):
    root, ran = built
    site = root / "site"
    for name in ["index.html", "style.css", "build-info.json", "terms/attention.html",
                 "terms/attention.py", "terms/attention.ipynb", "terms/attention/attention.png",
                 "terms/attention/data/attention_loss.csv", "terms/attention/data/attention_weights.csv"]:
        assert (site / name).is_file(), name
    for fig in ("loss", "weights"):
        pdf = (site / f"terms/attention/figures/{fig}.pdf").read_bytes()
        assert pdf.startswith(b"%PDF") and b"/CreationDate" not in pdf and b"/ID [" not in pdf
        fonts = subprocess.run(["pdffonts", site / f"terms/attention/figures/{fig}.pdf"],
                               capture_output=True, text=True, check=True).stdout
        assert "Type 1" in fonts and "Type 3" not in fonts, fonts      # outlines, not bitmaps
        assert (site / f"terms/attention/figures/{fig}.svg").read_text().lstrip().startswith("<?xml")
        assert (site / f"terms/attention/figures/{fig}.png").read_bytes()[:4] == b"\x89PNG"
    assert COMPUTE | LATEX | {"preview", "notebook", "publish_demo", "page", "catalog_pages"} <= set(ran)
    assert not list(site.rglob(".snakemake*"))


def test_each_batch_leaves_one_file_for_the_later_stages(built):
    """Snakemake keeps a record for each output file, repeating its job's whole input list: the prose and
    the print sections of a batch are one file each (glossary.batchfiles), its entries' Markdown, pages
    and PDFs a folder each, which the staged site's files link to, so that a batch's records, its readers'
    inputs and the DAG do not grow with its entries."""
    root, _ = built
    run, _ = snakemake(root, "--summary", "--nolock")
    outputs = {}
    for line in run.stdout.splitlines():
        fields = line.split("\t")
        if len(fields) == 6 and fields[0] != "output_file":
            outputs.setdefault(fields[2], set()).add(fields[0])
    slugs = sorted(p.name for p in (root / "entries").iterdir() if p.is_dir())
    assert len(slugs) == 2 and set(outputs) >= {"prose_b00", "section_b00"}, sorted(outputs)
    folders = {kind: batchfiles.site_folder(kind, "b00") for kind in ("markdown", "page", "pdf")}
    assert outputs["prose_b00"] == {batchfiles.prose_path("b00"), folders["markdown"]}
    assert outputs["section_b00"] == {batchfiles.sections_path("b00")}
    assert outputs["page_b00"] == {folders["page"]} and outputs["print_b00"] == {folders["pdf"]}
    for slug in slugs:
        for kind, suffix in (("markdown", ".md"), ("page", ".html"), ("pdf", ".pdf")):
            staged = root / f"results/site/terms/{slug}{suffix}"
            assert staged.is_symlink() and staged.resolve() == (root / folders[kind] / f"{slug}{suffix}").resolve()
            assert (root / f"site/terms/{slug}{suffix}").read_bytes() == staged.read_bytes()
            assert not (root / f"site/terms/{slug}{suffix}").is_symlink()


def test_figures_compiled_from_the_format_look_as_compiled_without_it(built, tmp_path):
    """pdflatex starts from a format of the figures' preamble (rule latex_format); compiled
    without it, each figure's .tex rasterizes to the same PNG and converts to the same SVG."""
    from glossary import latex
    root = built[0]
    assert (root / "results/latex/figures.fmt").stat().st_size > 1_000_000     # pgfplots is in it
    figures = sorted((root / "logs/figure").glob("*/*.tex"))
    assert len(figures) == 4
    for tex in figures:
        slug, name = tex.parts[-2], tex.stem
        published = root / "site/terms" / slug / "figures"
        pdf = tmp_path / f"{slug}-{name}.pdf"
        latex.compile_pdf(tex, pdf, tmp_path / f"{slug}-{name}.log",      # no format: the whole preamble
                          links={latex.DATA: root / "site/terms" / slug / "data"})
        assert "mylatexformat" not in (tmp_path / f"{slug}-{name}.log").read_text()
        subprocess.run(["pdftoppm", "-png", "-r", "192", "-singlefile", pdf, tmp_path / name], check=True)
        subprocess.run(["pdftocairo", "-svg", pdf, tmp_path / f"{name}.svg"], check=True)
        assert (tmp_path / f"{name}.png").read_bytes() == (published / f"{name}.png").read_bytes(), tex
        assert (tmp_path / f"{name}.svg").read_bytes() == (published / f"{name}.svg").read_bytes(), tex
    assert "mylatexformat" in (root / "logs/latex_format/figures.tex.log").read_text()


def test_page_quotes_the_run(built):
    root, _ = built
    html = (root / "site/terms/attention.html").read_text()
    facts = json.loads((root / "results/attention/facts/train.json").read_text())
    assert f"{facts['final_loss']:.4f}" in html and f"{facts['initial_loss']:.4f}" in html
    assert "16 sentences" in html and "98 distinct" in html
    assert "<math" in html and "$" not in re.sub(r"<pre.*?</pre>", "", html, flags=re.S)
    assert "[B-train] initial loss = 4.5846, final loss = " + f"{facts['final_loss']:.4f}" in html
    for link in re.findall(r'(?:href|src)="([^"]+)"', html):
        if not link.startswith("https://"):
            assert not link.startswith("/"), link
            assert (root / "site/terms" / link.split("#")[0]).exists(), link


def test_heatmap_ticks_come_from_the_display_sentence(built):
    root, _ = built
    tex = (root / "logs/figure/attention/weights.tex").read_text()
    tokens = "all,human,beings,are,born,free,and,equal,in,dignity,and,rights"
    assert f"xticklabels={{{tokens}}}" in tex and f"yticklabels={{{tokens}}}" in tex


def test_build_info_records_versions_and_numeric_env(built):
    root, _ = built
    info = json.loads((root / "site/build-info.json").read_text())
    assert info["packages"]["numpy"] == "2.4.6"
    assert info["numeric_env"]["OPENBLAS_CORETYPE"] == "Nehalem"
    assert "pdfTeX" in info["tex"]


def test_no_absolute_paths_or_dates_in_site(built):
    root, _ = built
    for name, data in tree_bytes(root / "site").items():
        assert str(root).encode() not in data, name
        assert b"/tmp/" not in data and b"/root/" not in data, name
        assert not re.search(rb"20[2-9]\d-\d\d-\d\dT\d\d:\d\d", data), name


@pytest.mark.slow
def test_two_clean_builds_are_byte_identical(built, tmp_path):
    """A second clean build elsewhere, with another TZ, locale, umask, hash seed and --cores."""
    root, _ = built
    other = copy_repo(tmp_path / "elsewhere" / "checkout")
    build_elsewhere(other)
    first, second = tree_bytes(root / "site"), tree_bytes(other / "site")
    assert sorted(first) == sorted(second)
    assert [n for n in first if first[n] != second[n]] == []


@pytest.mark.slow
def test_prose_edit_reruns_only_page_rules(built, tmp_path):
    root, _ = built
    work = copy_built(root, tmp_path / "prose")
    _, ran = snakemake(work)
    assert ran == [], f"a fresh copy of a built tree should be up to date, ran {ran}"
    md = work / "entries/attention/entry.md"
    md.write_text(md.read_text().replace("A useful reading:", "A helpful reading:"))
    _, ran = snakemake(work)
    assert "page" in ran
    assert not (set(ran) & (COMPUTE | LATEX | {"preview"})), ran
    assert "A helpful reading:" in (work / "results/site/terms/attention.html").read_text()


@pytest.mark.slow
def test_learning_rate_change_reruns_training_and_below(built, tmp_path):
    root, _ = built
    work = copy_built(root, tmp_path / "lr")
    demo = work / "entries/attention/attention.py"
    demo.write_text(demo.read_text().replace("lr = 0.9, 0.999, 1e-8, 0.02", "lr = 0.9, 0.999, 1e-8, 0.021"))
    _, jobs = snakemake(work, "--dry-run")
    assert {"compute", "figure", "preview", "page", "notebook"} <= set(jobs), jobs


def test_tex_live_upgrade_reruns_the_format_and_every_figure(built, tmp_path):
    """The format holds pgfplots as loaded: a new pdflatex version (a param of latex_format and
    build_info) reruns it, and with it every figure's PDF; the training is not touched."""
    work = copy_built(built[0], tmp_path / "tex")
    real = shutil.which("pdflatex")
    fake = tmp_path / "bin/pdflatex"
    fake.parent.mkdir()
    fake.write_text(f'#!/bin/sh\n[ "$1" = --version ] && {{ echo "pdfTeX 9.9 (TeX Live 2099)"; exit 0; }}\n'
                    f'exec {real} "$@"\n')
    fake.chmod(0o755)
    _, before = snakemake(work, "--dry-run")
    assert before == [], before
    env = dict(os.environ, PATH=f"{fake.parent}{os.pathsep}{os.environ['PATH']}")
    _, jobs = snakemake(work, "--dry-run", env=env)
    assert {"latex_format", "build_info", "figure", "page"} <= set(jobs), jobs
    assert not (set(jobs) & COMPUTE), jobs
