"""`make site` after a prose-only edit: the page job replayed without Snakemake
(glossary.quick), with the bytes Snakemake's own page job writes, and Snakemake
agreeing afterwards that nothing is left to do; any other edit goes to Snakemake."""
import os
import subprocess
import time

import pytest

from conftest import BIN, copy_built, snakemake, tree_bytes
from glossary import quick, stamp

MD = "entries/attention/entry.md"
PROSE = "A useful reading:"


def make_site(work):
    env = dict(os.environ, PYTHONPATH=str(work / "src"))
    run = subprocess.run([str(BIN / "python"), "-m", "glossary.build", "--cores", "2"], cwd=work, env=env,
                         capture_output=True, text=True)
    return run, run.stdout + run.stderr


def snakemake_logs(work):
    return sorted((work / ".snakemake/log").glob("*.snakemake.log"))


@pytest.fixture(scope="module")
def stamped(built, tmp_path_factory):
    """A built copy after one `make site`: the site published and the stamp recorded."""
    root, _ = built
    work = copy_built(root, tmp_path_factory.mktemp("quick") / "glossary")
    run, out = make_site(work)
    assert run.returncode == 0, out
    assert stamp.is_fresh(work)
    return work


@pytest.fixture
def work(stamped, tmp_path):
    subprocess.run(["cp", "-a", str(stamped), str(tmp_path / "w")], check=True)
    return tmp_path / "w"


def edit(work, old, new, path=MD):
    md = work / path
    text = md.read_text()
    assert old in text
    md.write_text(text.replace(old, new, 1))


@pytest.mark.slow
def test_prose_edit_is_replayed_with_snakemakes_bytes(work):
    before = tree_bytes(work / "site")
    logs = snakemake_logs(work)
    edit(work, PROSE, "A helpful reading:")
    run, out = make_site(work)
    assert run.returncode == 0, out
    assert "attention: HTML page (prose only: replayed without Snakemake)" in out
    assert snakemake_logs(work) == logs, "Snakemake was started"
    after = tree_bytes(work / "site")
    assert [n for n in after if after[n] != before.get(n)] == ["terms/attention.html"]
    assert "A helpful reading:" in after["terms/attention.html"].decode()
    assert stamp.is_fresh(work)

    # Snakemake sees a page made from these very inputs ...
    _, ran = snakemake(work, "--dry-run")
    assert ran == [], f"Snakemake would still run {ran}"
    # ... and its own page job writes the same bytes.
    _, ran = snakemake(work, "--forcerun", "page", "--allowed-rules", "page")
    assert "page" in ran
    assert (work / "results/site/terms/attention.html").read_bytes() == after["terms/attention.html"]


@pytest.mark.slow
def test_snakemake_keeps_track_of_the_replayed_prose(work):
    """The replay notes entry.md's new hash where Snakemake keeps it: an entry.md newer than its
    page reruns the page when its content differs from what the page was made from, not otherwise."""
    original = (work / MD).read_bytes()
    edit(work, PROSE, "A helpful reading:")
    assert make_site(work)[0].returncode == 0
    later = time.time() + 60
    os.utime(work / MD, (later, later))                 # touched: same content
    _, ran = snakemake(work, "--dry-run")
    assert ran == []
    (work / MD).write_bytes(original)                   # the old prose, which the page no longer shows
    os.utime(work / MD, (later, later))
    _, ran = snakemake(work, "--dry-run")
    assert sorted(set(ran) - {"all"}) == ["page"], ran


@pytest.mark.slow
def test_front_matter_edit_goes_to_snakemake(work):
    edit(work, "title: Attention\n", "title: Attention (scaled dot-product)\n")
    run, out = make_site(work)
    assert run.returncode == 0, out
    assert "replayed" not in out and "index of the terms" in out
    assert "Attention (scaled dot-product)" in (work / "site/index.html").read_text()
    assert stamp.is_fresh(work)


@pytest.mark.slow
def test_prose_and_template_edit_goes_to_snakemake(work):
    edit(work, PROSE, "A helpful reading:")
    tpl = work / "templates/entry.html.j2"
    tpl.write_text(tpl.read_text() + "{# a comment #}\n")
    run, out = make_site(work)
    assert run.returncode == 0, out
    assert "replayed" not in out and "multi-head-attention: HTML page" in out
    assert "A helpful reading:" in (work / "site/terms/attention.html").read_text()


@pytest.mark.slow
def test_bad_prose_fails_in_a_few_lines_and_leaves_site(work):
    before = tree_bytes(work / "site")
    original = (work / MD).read_text()
    edit(work, PROSE, "A useful reading ({{ no_such_fact }}):")
    run, out = make_site(work)
    assert run.returncode == 1
    assert "replayed" in run.stdout
    lines = run.stderr.strip().splitlines()
    assert len(lines) <= 10, run.stderr
    assert lines[0] == "error: rule page failed (attention: HTML page)"
    assert "entries/attention/entry.md: body: 'no_such_fact' is undefined" in run.stderr
    assert lines[-1] == "site/ was left as it was."
    assert tree_bytes(work / "site") == before
    (work / MD).write_text(original)                    # fixed: the site is as it was
    run, out = make_site(work)
    assert run.returncode == 0, out
    assert tree_bytes(work / "site") == before
    assert snakemake(work, "--dry-run")[1] == []


@pytest.mark.slow
def test_invalid_front_matter_is_one_line(work):
    before = tree_bytes(work / "site")
    edit(work, "demo: attention.py\n", "demo: attention.py\ncolour: blue\n")
    run, out = make_site(work)
    assert run.returncode == 1
    assert run.stderr.splitlines()[0].startswith(f"error: {MD}: colour: unknown field 'colour'"), run.stderr
    assert tree_bytes(work / "site") == before


@pytest.mark.slow
@pytest.mark.parametrize("change, why", [
    (lambda w: edit(w, "lr", "lr ", "entries/attention/attention.py"), "entries/attention/attention.py is not"),
    (lambda w: (w / "results/attention/facts/train.json").write_text("{}\n"),
     "results/attention/facts/train.json changed"),
    (lambda w: (w / "results/site/terms/attention.html").write_text("old\n"), "site/ is not what"),
    (lambda w: (w / "site/index.html").write_text("touched up\n"), "site/ is not what"),
    (lambda w: (w / ".snakemake/incomplete").mkdir(exist_ok=True) or
     (w / ".snakemake/incomplete/eA").write_text(""), "half done"),
    (lambda w: os.remove(w / "results/attention/page.job.json"), "no record of attention's page job"),
])
def test_replay_only_when_all_else_is_as_recorded(work, change, why, monkeypatch):
    edit(work, PROSE, "A helpful reading:")
    change(work)
    monkeypatch.chdir(work)
    jobs, reason = quick.plan(stamp.source_hashes("."))
    assert jobs is None and why in reason, reason
