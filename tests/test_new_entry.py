"""`make new-entry NAME=<slug>`: a skeleton entry that follows the demo protocol and
builds at once; a bad slug or an existing entry is refused with one line."""
import ast
import json
import os
import re
import subprocess

import nbformat
import pytest
from conftest import BIN, REPO, copy_built, made_by, pinned_environ, snakemake

from glossary import demo, entries

SLUG, MODULE = "least-squares", "least_squares"


def new_entry(root, *args):
    return subprocess.run([str(BIN / "python"), "scripts/new_entry.py", *args], cwd=root,
                          capture_output=True, text=True)


def make_new_entry(root, name):
    """The Makefile's target, without its `setup` step (the copy has no .venv of its own)."""
    return subprocess.run(["make", "-s", "-o", "setup", "new-entry", f"NAME={name}", f"PY={BIN / 'python'}"],
                          cwd=root, capture_output=True, text=True)


@pytest.fixture(scope="module")
def scaffolded(built, tmp_path_factory):
    """A copy of the built repository (the two entries' jobs done) with the skeleton `least-squares`,
    made through `make new-entry`."""
    root = copy_built(built[0], tmp_path_factory.mktemp("new-entry") / "repo")
    run = make_new_entry(root, SLUG)
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith(f"new-entry: wrote entries/{SLUG}/entry.md and entries/{SLUG}/{MODULE}.py")
    return root


def test_writes_entry_and_demo(scaffolded):
    folder = scaffolded / "entries" / SLUG
    assert sorted(p.name for p in folder.iterdir()) == ["entry.md", f"{MODULE}.py"]
    meta = entries.load_all(scaffolded / "entries", REPO / "workflow/schemas/entry.schema.yaml")[SLUG]
    assert meta["title"] == "Least squares" and meta["demo"] == f"{MODULE}.py" and meta["see_also"] == []
    assert meta["csv"] == [{"name": f"{MODULE}_loss.csv", "columns": ["step", "loss"]}]
    assert [(f["name"], f["kind"], f["csv"]) for f in meta["figures"]] == [("loss", "line", f"{MODULE}_loss.csv")]
    assert "{{ n_points }}" in meta["body"]


def test_demo_follows_the_protocol(scaffolded):
    source = (scaffolded / "entries" / SLUG / f"{MODULE}.py").read_text()
    tree = ast.parse(source)
    docstring = ast.get_docstring(tree)
    head, blocks = demo.blocks(source)
    names = [name for name, _, _ in blocks]
    assert names == ["B-data", "B-train", "B-csv", "B-preview"]
    assert re.findall(r"^\[(B-[a-z-]+)\]", docstring, re.M) == names, "the docstring lists the blocks"
    functions = {f.name: f for f in tree.body if isinstance(f, ast.FunctionDef)}
    assert {"prepare", "train", "export", "preview"} <= set(functions)
    assert [a.arg for a in functions["preview"].args.args] == ["csv_dir", "png"]
    assert "import matplotlib" not in head and "import matplotlib.pyplot as plt" in ast.get_source_segment(
        source, functions["preview"])
    assert 'metadata={"Software": None}' in source
    assert source.count('if __name__ == "__main__":') == 4


def test_demo_runs_as_a_script_deterministically(scaffolded, tmp_path):
    outputs = []
    for name in ("a", "b"):
        cwd = tmp_path / name
        cwd.mkdir()
        run = subprocess.run([str(BIN / "python"), str(scaffolded / "entries" / SLUG / f"{MODULE}.py")],
                             cwd=cwd, capture_output=True, text=True, env=pinned_environ(), timeout=120)
        assert run.returncode == 0, run.stderr
        assert sorted(p.name for p in cwd.iterdir()) == [f"{MODULE}.png", f"{MODULE}_loss.csv"]
        assert all(line.startswith("[B-") for line in run.stdout.splitlines())
        outputs.append((run.stdout, {p.name: p.read_bytes() for p in cwd.iterdir()}))
    assert outputs[0] == outputs[1]
    assert (tmp_path / "a" / f"{MODULE}_loss.csv").read_text().startswith("step,loss\n0,")


def test_skeleton_is_part_of_the_whole_site(scaffolded):
    """`make site` builds every entry: the dry run of the default target schedules this one's page."""
    run, ran = snakemake(scaffolded, "-n")
    assert made_by(scaffolded, f"results/site/terms/{SLUG}.html") in run.stdout
    assert "page" in ran


def test_skeleton_builds_its_page_and_figures(scaffolded):
    root = scaffolded
    terms = "results/site/terms"
    snakemake(root, "-n")       # its read of the plan links the page to its batch's folder
    targets = [made_by(root, f"{terms}/{SLUG}.html"), f"{terms}/{SLUG}.py", f"{terms}/{SLUG}.ipynb",
               f"{terms}/{SLUG}/{MODULE}.png", "results/site/index.html"]
    targets += [f"{terms}/{SLUG}/figures/loss.{ext}" for ext in ("pdf", "svg", "png")]
    _, ran = snakemake(root, *targets)
    assert {"compute", "preview", "figure", "page", "publish_demo", "notebook", "catalog_pages"} <= set(ran)
    site = root / "results/site"
    assert (site / f"terms/{SLUG}/data/{MODULE}_loss.csv").read_text().startswith("step,loss\n")
    assert (site / f"terms/{SLUG}/figures/loss.pdf").read_bytes().startswith(b"%PDF")
    assert (site / f"terms/{SLUG}/figures/loss.svg").read_text().lstrip().startswith("<?xml")
    assert (site / f"terms/{SLUG}/figures/loss.png").read_bytes()[:4] == b"\x89PNG"
    assert (site / f"terms/{SLUG}/{MODULE}.png").read_bytes()[:4] == b"\x89PNG"
    nb = nbformat.read(site / f"terms/{SLUG}.ipynb", as_version=4)
    nbformat.validate(nb)
    assert [c["id"] for c in nb.cells if c["cell_type"] == "code"] == ["setup", "b-data", "b-train", "b-csv",
                                                                        "b-preview"]
    html = (site / f"terms/{SLUG}.html").read_text()
    facts = json.loads((root / f"results/{SLUG}/facts/train.json").read_text())
    text = re.sub(r"\s+", " ", html)
    assert "<h1>Least squares</h1>" in html
    for raw in ("{{ n_points }}", "{{ steps }}", "format(initial_loss)", "format(slope)"):
        assert raw not in html, f"{raw} of the prose was not filled in"
    assert "fits a line to 50 noisy points" in text
    assert f"falls from {facts['initial_loss']:.4f} to {facts['final_loss']:.4f}" in text
    assert f"<mn>{facts['slope']:.3f}</mn>" in html
    assert f'href="{SLUG}/data/{MODULE}_loss.csv"' in html
    assert f'<a href="terms/{SLUG}.html">Least squares</a>' in (site / "index.html").read_text()


@pytest.mark.parametrize("name, message", [
    ("", "new-entry: NAME: missing; run make new-entry NAME=<slug>, e.g. NAME=weight-decay"),
    ("Weight_Decay", "new-entry: NAME: 'Weight_Decay' is not a slug (lowercase letters and digits, single "
                     "hyphens between words); use e.g. NAME=weight-decay"),
    ("-decay", "new-entry: NAME: '-decay' is not a slug (lowercase letters and digits, single hyphens between "
               "words); use e.g. NAME=decay"),
    ("weight--decay", "new-entry: NAME: 'weight--decay' is not a slug (lowercase letters and digits, single "
                      "hyphens between words); use e.g. NAME=weight-decay"),
    ("../escape", "new-entry: NAME: '../escape' is not a slug (lowercase letters and digits, single hyphens "
                  "between words); use e.g. NAME=escape"),
    ("attention", "new-entry: NAME: entries/attention already exists; choose another NAME or edit "
                  "entries/attention/entry.md"),
])
def test_refuses_with_one_line(scaffolded, name, message):
    before = sorted(p.name for p in (scaffolded / "entries").iterdir())
    run = new_entry(scaffolded, name)
    assert run.returncode == 1
    assert run.stderr == message + "\n" and run.stdout == ""
    assert sorted(p.name for p in (scaffolded / "entries").iterdir()) == before


def test_make_refuses_an_existing_entry(scaffolded):
    run = make_new_entry(scaffolded, SLUG)
    assert run.returncode != 0
    assert run.stderr.splitlines()[0] == (f"new-entry: NAME: entries/{SLUG} already exists; choose another NAME "
                                          f"or edit entries/{SLUG}/entry.md")
    assert sorted(p.name for p in (scaffolded / "entries" / SLUG).iterdir()) == ["entry.md", f"{MODULE}.py"]


def test_templates_live_in_templates_new_entry():
    assert sorted(p.name for p in (REPO / "templates/new-entry").iterdir()) == ["demo.py.j2", "entry.md.j2"]
    assert os.access(REPO / "scripts/new_entry.py", os.R_OK)
