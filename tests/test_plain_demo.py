"""Demos of LaTeX terms given by the dictionary's YAML file (`demos:`): a plain script, as the
dictionary's authors write them, run in a scratch folder on the pinned numeric platform; its CSVs
published and drawn as pgfplots figures on the term's page and in its PDF, its printed lines shown as
check lines; a term without a demo has no demo jobs; a failing script, or one whose CSVs differ from
the declared ones, is told with the script, the term and what to fix.

The builds are real (`python -m glossary.build` of a copy of tests/fixtures/texdict with the fixture's
demos/lr_demo.py given to the term learningrate); the expected numbers are computed here.
"""
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, pinned_environ

from glossary import plaindemo, texdict
from glossary.entries import EntryError

FIXTURE = REPO / "tests" / "fixtures" / "texdict"
LR_DEMO = FIXTURE / "demos" / "lr_demo.py"
# The lr demo as the YAML gives it (appended to a copy of the fixture's dictionary.yaml).
LR_YAML = """\
  learningrate:
    script: demos/lr_demo.py
    kind: plain
    preview: lr_demo.pdf
    csv:
      - {name: lr_steps.csv, columns: [step, slow, fast]}
    figures:
      - {name: steps, kind: line, csv: lr_steps.csv, x: step, y: [slow, fast], legend: [slow rate, fast rate],
         xlabel: gradient step, ylabel: iterate, caption: Gradient descent with a slow and a fast learning rate.,
         alt: Two curves falling towards zero; the fast one drops at once.}
"""
# A blocks demo for a LaTeX term (the skeleton `make new-entry NAME=vector` writes, as vector_demo.py).
VECTOR_YAML = """\
  vector:
    script: demos/vector_demo.py
    kind: blocks
    csv:
      - {name: vector_loss.csv, columns: [step, loss]}
    figures:
      - {name: loss, kind: line, csv: vector_loss.csv, x: step, y: loss, caption: Loss of the fitted line.,
         alt: A falling curve.}
"""
# What demo rules announce (workflow/rules/*.smk messages): "<slug>: <what>".
DEMO_MESSAGES = re.compile(r"\] ([a-z0-9-]+): (run the plain demo script|tokenize the corpus, train the "
                           r"model, export the CSVs|stage the CSVs|publish the (?:plain )?demo script|notebook from)")


def lr_expected():
    """lr_demo.py's iterates, computed here: w <- w - rate * w from w = 2, twelve steps."""
    rows = [[0, 2.0, 2.0]]
    for step in range(1, 13):
        rows.append([step, rows[-1][1] * 0.9, rows[-1][2] * 0.5])
    return rows


def prepared(tmp_path, script_edit=None, extra=""):
    """A copy of the fixture with the lr demo (and `extra` demos) added to its YAML, its script
    edited if asked."""
    src = shutil.copytree(FIXTURE, tmp_path / "dict")
    yaml = src / "dictionary.yaml"
    yaml.write_text(yaml.read_text().rstrip("\n") + "\n" + LR_YAML + extra)
    if script_edit:
        script = src / "demos" / "lr_demo.py"
        script.write_text(script_edit(script.read_text()))
    return yaml


def build(source, out):
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    env.pop("GLOSSARY_EVENTS", None)
    return subprocess.run([sys.executable, "-m", "glossary.build", "--cores", "2", "--source", str(source),
                           "--out", str(out)], cwd=REPO, env=env, capture_output=True, text=True, timeout=600)


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("plain")
    run = build(prepared(tmp, extra=VECTOR_YAML), tmp / "out")
    assert run.returncode == 0, f"build failed:\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}"
    return tmp / "out" / "site", run.stdout + run.stderr


def test_csvs_are_published_as_the_script_wrote_them(built):
    site, _ = built
    data = site / "terms" / "learningrate" / "data"
    assert sorted(p.name for p in data.iterdir()) == ["lr_steps.csv"]
    lines = (data / "lr_steps.csv").read_text().splitlines()
    assert lines[0] == "step,slow,fast"
    got = [[float(x) for x in line.split(",")] for line in lines[1:]]
    assert [x for row in got for x in row] == pytest.approx([x for row in lr_expected() for x in row], abs=1e-6)
    # The published script is the authors' own; the preview is their PDF as a PNG.
    assert (site / "terms" / "learningrate.py").read_bytes() == LR_DEMO.read_bytes()
    assert (site / "terms" / "learningrate" / "learningrate.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (site / "terms" / "learningrate.ipynb").is_file()


def test_figure_and_checks_on_the_page_and_in_the_pdf(built):
    site, _ = built
    html = (site / "terms" / "learningrate.html").read_text()
    svg = site / "terms" / "learningrate" / "figures" / "steps.svg"
    assert svg.read_text().startswith("<?xml") and '<img src="learningrate/figures/steps.svg"' in html
    slow, fast = lr_expected()[-1][1:]
    checks = [f"slow: w after 12 steps = {slow:.6f}", f"fast: w after 12 steps = {fast:.6f}", "Saved lr_steps.csv"]
    shown = re.search(r'<pre class="checks"><samp>(.*?)</samp>', html, re.S).group(1).splitlines()
    assert shown == checks      # the scratch folder's path is taken out of "Saved ..."
    assert '<a href="learningrate/data/lr_steps.csv">lr_steps.csv</a>' in html
    text = subprocess.run(["pdftotext", str(site / "terms" / "learningrate.pdf"), "-"], capture_output=True,
                          text=True, check=True).stdout
    assert "gradient step" in text and "slow rate" in text    # the pgfplots figure's axis label and legend
    assert "Gradient descent with a slow and a fast learning rate." in " ".join(text.split())
    assert checks[0] in text
    # the authors' script prints what it prints: no "check" is claimed of it, on the page, in print or
    # in its notebook (whose term has no summary of its own: no empty paragraph for one)
    assert "<p>What the demo prints:</p>" in html and "one line per check" not in html
    assert "What the demo prints" in text and "What the demo checks" not in text
    intro = "".join(json.loads((site / "terms" / "learningrate.ipynb").read_text())["cells"][0]["source"])
    assert "one line per check" not in intro and "\n\n\n" not in intro, intro


def test_terms_without_a_demo_have_no_demo_jobs(built):
    site, output = built
    with_jobs = {m.group(1) for m in DEMO_MESSAGES.finditer(output)}
    assert with_jobs == {"gd", "learningrate", "vector"}
    demo_terms = {p.stem for p in (site / "terms").glob("*.py")}
    assert demo_terms == {"gd", "learningrate", "vector"}
    others = {p.stem for p in (site / "terms").glob("*.html")} - demo_terms
    assert len(others) >= 10
    for slug in others:                                    # no data, figures, preview, demo section
        assert not any((site / "terms" / slug / part).exists() for part in ("data", "figures", f"{slug}.png"))
        assert 'id="demo"' not in (site / "terms" / f"{slug}.html").read_text()


def test_a_failing_script_is_told_with_its_stderr(tmp_path):
    yaml = prepared(tmp_path, lambda s: s.replace("table = np.column_stack",
                                                  "raise ValueError('rates diverge')\ntable = np.column_stack"))
    run = build(yaml, tmp_path / "out")
    output = run.stdout + run.stderr
    assert run.returncode != 0
    script = tmp_path / "dict" / "demos" / "lr_demo.py"
    # The build's summary: the script, the term, the error and the end of the script's stderr.
    assert (f"error: {script}: term 'learningrate': the demo script failed (exit status 1): ValueError: rates "
            "diverge; fix the script") in output
    assert "raise ValueError('rates diverge')" in output
    log = (tmp_path / "out" / "logs" / "plain_demo" / "learningrate.log").read_text()
    assert f'File "{script}", line 20, in <module>' in log      # the script, not its scratch copy
    assert not (tmp_path / "out" / "site").exists()


def test_undeclared_and_missing_csvs_are_told(tmp_path):
    env = pinned_environ()
    script = tmp_path / "lr_demo.py"
    script.write_text(LR_DEMO.read_text().replace('"lr_steps.csv"', '"lr_iterates.csv"'))
    declared = [{"name": "lr_steps.csv", "columns": ["step", "slow", "fast"]}]
    with pytest.raises(EntryError) as err:
        plaindemo.run(script, "learningrate", declared, tmp_path / "data", tmp_path / "p.png",
                      image="lr_demo.pdf", environ=env)
    message = str(err.value)
    assert message.startswith(f"{script}: term 'learningrate'")
    assert "the script lr_demo.py wrote no lr_steps.csv (it wrote: lr_iterates.csv)" in message
    with pytest.raises(EntryError) as err:
        plaindemo.run(LR_DEMO, "learningrate", [], tmp_path / "data2", tmp_path / "p.png",
                      image="lr_demo.pdf", environ=env)
    assert "also wrote lr_steps.csv, which csv does not declare" in str(err.value)
    assert not list(LR_DEMO.parent.glob("*.csv"))           # the fixture's folder is never written


def test_a_missing_preview_image_is_told(tmp_path):
    declared = [{"name": "lr_steps.csv", "columns": ["step", "slow", "fast"]}]
    script = tmp_path / "lr_demo.py"
    script.write_text(LR_DEMO.read_text().replace('"lr_demo.pdf"', '"steps.pdf"'))
    with pytest.raises(EntryError) as err:
        plaindemo.run(script, "learningrate", declared, tmp_path / "data", tmp_path / "p.png",
                      environ=pinned_environ())
    assert ("saved no preview image lr_demo.png or lr_demo.pdf (it wrote: lr_steps.csv, steps.pdf)"
            in str(err.value))
    assert "demos.learningrate.preview" in str(err.value)


@pytest.mark.parametrize("old,new,expected", [
    ("csv: lr_steps.csv, x: step", "csv: lr_step.csv, x: step",
     "demos.learningrate: figures[0].csv: 'lr_step.csv' is not declared under csv"),
    ("y: [slow, fast]", "y: [slow, quick]",
     "demos.learningrate: figures[0].y[1]: lr_steps.csv declares no column 'quick'"),
    ("preview: lr_demo.pdf", "preview: lr_demo.svg", "demos.learningrate.preview: 'lr_demo.svg' does not match"),
])
def test_declaration_mistakes_stop_before_any_job(tmp_path, old, new, expected):
    yaml = prepared(tmp_path)
    yaml.write_text(yaml.read_text().replace(old, new))
    with pytest.raises(EntryError) as err:
        texdict.load(yaml)
    assert str(err.value).startswith(str(yaml)) and expected in str(err.value)


def test_check_lines_lose_the_scratch_folder():
    assert plaindemo.check_lines("Saved /tmp/x1/a.csv\nin /tmp/x1\n", Path("/tmp/x1")) == "Saved a.csv\nin .\n"


def test_a_blocks_demo_of_a_latex_term_runs_through_the_blocks_rules(built):
    site, output = built
    assert "] vector: tokenize the corpus, train the model, export the CSVs" in output
    assert "] vector: run the plain demo script" not in output
    assert (site / "terms" / "vector" / "data" / "vector_loss.csv").read_text().startswith("step,loss\n")
    html = (site / "terms" / "vector.html").read_text()
    assert '<img src="vector/figures/loss.svg"' in html and '<img src="vector/vector_demo.png"' in html
    assert "[B-train] loss " in html and 'id="B-train"' in html           # its check lines and blocks
    # The published script is the demo with the numeric platform's pins, as for a Markdown entry.
    published = (site / "terms" / "vector.py").read_text()
    assert "PINNED = {" in published and (FIXTURE / "demos" / "vector_demo.py").read_text().split("\n")[-2] in published
