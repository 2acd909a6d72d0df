"""Declared data inputs: `data: [file]` in entry.md names files beside it that the demo reads;
they are inputs of the computing rules, so editing one retrains that entry and no other."""
import json
import re
import shutil
import sys

import pytest
from conftest import REPO, copy_repo, snakemake

from glossary import entries

sys.path.insert(0, str(REPO / "scripts"))
import new_entry  # noqa: E402

COMPUTE = {"compute"}


def skeleton_with_data(root, slug="alpha", points="50\n"):
    """Entry `slug` whose demo reads its number of points from points.txt, declared under data."""
    new_entry.create(slug, root=root)
    folder = root / "entries" / slug
    (folder / "points.txt").write_text(points)
    demo = folder / f"{slug}.py"
    text = demo.read_text()
    assert "N_POINTS = 50\n" in text
    demo.write_text(text.replace("N_POINTS = 50\n",
                                 'N_POINTS = int((Path(__file__).parent / "points.txt").read_text())\n'))
    md = folder / "entry.md"
    md.write_text(md.read_text().replace("see_also: []\n", "see_also: []\ndata: [points.txt]\n", 1))


def jobs_by_entry(output):
    """{entry slug: [rules]} of the jobs a Snakemake run finished (from their messages)."""
    messages = dict(re.findall(r"^Job (\d+): ([a-z0-9-]+): ", output, re.M))
    done = {}
    for jobid, rule in re.findall(r"Finished jobid: (\d+) \(Rule: (\w+)\)", output):
        if jobid in messages:
            done.setdefault(messages[jobid], []).append(rule)
    return done


@pytest.fixture(scope="module")
def data_built(tmp_path_factory):
    root = copy_repo(tmp_path_factory.mktemp("data") / "repo")
    for folder in (root / "entries").iterdir():
        shutil.rmtree(folder)
    skeleton_with_data(root)
    new_entry.create("beta", root=root)
    snakemake(root)
    return root


@pytest.mark.slow
def test_editing_a_declared_data_file_retrains_that_entry_only(data_built):
    root = data_built
    assert json.loads((root / "results/alpha/facts/tokenize.json").read_text())["n_points"] == 50
    (root / "entries/alpha/points.txt").write_text("40\n")
    run, ran = snakemake(root)
    done = jobs_by_entry(run.stdout + run.stderr)
    assert COMPUTE <= set(done.get("alpha", [])), done
    assert not COMPUTE & set(done.get("beta", [])), done
    assert json.loads((root / "results/alpha/facts/tokenize.json").read_text())["n_points"] == 40
    # Nothing left to do afterwards.
    _, again = snakemake(root, "-n")
    assert not COMPUTE & set(again)


def load(tmp_path, data_line, files=("points.txt",)):
    root = tmp_path / "repo"
    folder = root / "entries/alpha"
    folder.mkdir(parents=True)
    for name in files:
        (folder / name).write_text("1\n")
    (folder / "alpha.py").write_text("")
    (folder / "entry.md").write_text(
        "---\ntitle: Alpha\nsummary: One line.\ndemo: alpha.py\n" + data_line +
        "csv:\n  - {name: a.csv, columns: [x, y]}\nfigures: []\n---\nProse.\n")
    return entries.load_entry(folder, entries.load_schema(REPO / entries.SCHEMA))


def test_declared_data_loads(tmp_path):
    assert load(tmp_path, "data: [points.txt]\n")["data"] == ["points.txt"]


def test_declared_data_must_exist(tmp_path):
    with pytest.raises(entries.EntryError, match=r"data\[0\]: 'corpus\.txt' is not a file in .*; add it or "
                                                 r"remove it from data"):
        load(tmp_path, "data: [corpus.txt]\n")


def test_declared_data_must_stay_inside_the_entry(tmp_path):
    with pytest.raises(entries.EntryError, match=r"data\[0\]: '\.\./points\.txt' is outside the entry's folder"):
        load(tmp_path, "data: [../points.txt]\n")
    with pytest.raises(entries.EntryError, match=r"data\[0\]: '/etc/passwd' does not match"):
        load(tmp_path / "abs", "data: [/etc/passwd]\n")
