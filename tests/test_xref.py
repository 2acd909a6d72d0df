"""Cross-references between entries (glossary.xref): `[[slug]]` and `[[slug|text]]` in the prose.
Every link is checked when the entries load, so an unknown slug stops the build before any job
runs, with one message naming the file, the line and the closest slugs; code is not scanned;
each entry knows the entries that link to it."""
import os
import subprocess

import pytest
import yaml
from conftest import BIN, REPO, copy_repo, tree_bytes

from glossary import entries, xref

SCHEMA = REPO / "workflow" / "schemas" / "entry.schema.yaml"


def test_links_ignores_code_and_reports_lines():
    body = ("Intro [[alpha]] and [[ beta |the second]].\n"
            "`[[in-span]]` and ``a `[[in-double]]` b``\n"
            "```\n[[in-fence]]\n```\n"
            "~~~~python\n[[in-tilde]]\n```\n[[still-in-tilde]]\n~~~~\n"
            "Last [[gamma|g|h]] line [[]] and [not [a] link].\n")
    assert xref.links(body) == [(1, "alpha"), (1, "beta"), (11, "gamma")]


def test_a_multi_line_code_span_keeps_line_numbers():
    assert xref.links("a `x\n[[no]]` b\n[[yes]]\n") == [(3, "yes")]


def write(root, slug, body, title=None):
    folder = root / "entries" / slug
    folder.mkdir(parents=True)
    meta = {"title": title or slug.capitalize(), "summary": f"About {slug}.", "demo": "d.py",
            "csv": [{"name": "d.csv", "columns": ["x", "y"]}],
            "figures": [{"name": "f", "kind": "line", "csv": "d.csv", "x": "x", "y": "y", "caption": "C.",
                         "alt": "A."}]}
    (folder / "entry.md").write_text("---\n" + yaml.safe_dump(meta, sort_keys=False) + "---\n" + body)
    (folder / "d.py").write_text("def prepare():\n    return {}\n")


@pytest.fixture
def three(tmp_path, monkeypatch):
    write(tmp_path, "gradient-descent", "See [[learning-rate]] and [[momentum|its cousin]].\n")
    write(tmp_path, "learning-rate", "Step size of [[gradient-descent]].\n\nAgain [[gradient-descent]].\n")
    write(tmp_path, "momentum", "No links, but `[[code]]`.\n")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def load():
    return entries.load_all("entries", SCHEMA)


def test_known_links_load_and_give_referenced_by(three):
    loaded = load()
    assert xref.check(loaded) == {"gradient-descent": ["learning-rate", "momentum"],
                                  "learning-rate": ["gradient-descent", "gradient-descent"], "momentum": []}
    assert xref.referenced_by(loaded) == {"gradient-descent": ["learning-rate"],
                                          "learning-rate": ["gradient-descent"], "momentum": ["gradient-descent"]}
    assert xref.titles(loaded, "gradient-descent") == {"learning-rate": "Learning-rate", "momentum": "Momentum"}


def test_unknown_slug_names_file_line_and_closest_slugs(three):
    md = three / "entries/learning-rate/entry.md"
    md.write_text(md.read_text().replace("Again [[gradient-descent]]", "Again [[gradient-decent|GD]]"))
    with pytest.raises(entries.EntryError) as info:
        load()
    message = str(info.value)
    line = md.read_text().splitlines().index("Again [[gradient-decent|GD]].") + 1
    assert message == (f"entries/learning-rate/entry.md: line {line}: [[gradient-decent]]: no entry "
                       "'gradient-decent'; the closest are: gradient-descent, learning-rate, momentum; "
                       "fix the slug (the name of the entry's folder)")


def test_a_title_instead_of_a_slug_suggests_the_slug(three):
    md = three / "entries/momentum/entry.md"
    md.write_text(md.read_text() + "\nSee [[Learning rate]].\n")
    with pytest.raises(entries.EntryError, match=r"line \d+: \[\[Learning rate\]\]: .*the closest are: learning-rate"):
        load()


@pytest.mark.slow
def test_unknown_slug_stops_the_build_before_any_job(tmp_path):
    """A real build: one line naming the file, the line and the closest slugs; no job ran
    (no results/), site/ untouched."""
    work = copy_repo(tmp_path / "xref")
    (work / "site").mkdir()
    (work / "site/index.html").write_text("the published site\n")
    before = tree_bytes(work / "site")
    md = work / "entries/attention/entry.md"
    text = md.read_text()
    assert "[[multi-head-attention|" in text
    md.write_text(text.replace("[[multi-head-attention|", "[[multi-head-atention|"))
    line = next(i for i, row in enumerate(md.read_text().splitlines(), 1) if "[[multi-head-atention|" in row)
    run = subprocess.run([str(BIN / "python"), "-m", "glossary.build", "--cores", "2"], cwd=work,
                         env=dict(os.environ, PYTHONPATH=str(work / "src")), capture_output=True, text=True)
    assert run.returncode != 0
    err = run.stderr.strip()
    assert f"entries/attention/entry.md: line {line}: [[multi-head-atention]]: no entry 'multi-head-atention'; " \
           "the closest are: multi-head-attention, attention" in err, err
    assert "Traceback" not in err and len(err.splitlines()) <= 2, err
    made = [p for d in ("results", "logs") for p in (work / d).rglob("*") if p.is_file()]
    assert [p.name for p in made] in ([], [".build.lock"]), made        # the build's lock, no job's output
    assert tree_bytes(work / "site") == before
