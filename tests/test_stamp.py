"""The no-op fast path of `make site`: fresh only while the sources and site/ are as recorded."""
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import REPO, copy_repo

from glossary import stamp


@pytest.fixture
def tree(tmp_path):
    """A small stand-in for a built checkout: some sources and a published site/."""
    for name, text in {"Snakefile": "rule all:\n", "config.yaml": "a: 1\n", "requirements.lock": "numpy==2\n",
                       "workflow/rules/x.smk": "# x\n", "scripts/s.py": "print()\n", "templates/t.j2": "{{ x }}\n",
                       "src/glossary/m.py": "X = 1\n", "entries/e/entry.md": "---\n---\ntext\n",
                       "entries/e/e.py": "x = 1\n", "site/index.html": "<p>hi</p>\n",
                       "site/terms/e.html": "<p>e</p>\n"}.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text)
    return tmp_path


def test_fresh_after_record_and_not_before(tree):
    assert not stamp.is_fresh(tree)
    stamp.record(tree)
    assert stamp.is_fresh(tree)
    (tree / "entries/e/__pycache__").mkdir()
    (tree / "entries/e/__pycache__/e.cpython-311.pyc").write_bytes(b"\0")
    assert stamp.is_fresh(tree), "Python's caches are not sources"


@pytest.mark.parametrize("change", [
    lambda t: (t / "entries/e/entry.md").write_text("---\n---\ntext!\n"),       # a prose edit
    lambda t: (t / "entries/e/e.py").write_text("x = 1  # same code, other bytes\n"),
    lambda t: (t / "entries/f").mkdir() or (t / "entries/f/entry.md").write_text("new\n"),
    lambda t: (t / "templates/t.j2").unlink(),
    lambda t: (t / "scripts/s.py").rename(t / "scripts/r.py"),
    lambda t: (t / "requirements.lock").write_text("numpy==3\n"),
    lambda t: (t / "site/index.html").write_text("<p>touched up</p>\n"),        # site/ edited by hand
    lambda t: (t / "site/terms/e.html").unlink(),
    lambda t: shutil.rmtree(t / "site"),
    lambda t: (t / stamp.STAMP).write_text("{not json"),
])
def test_any_change_means_not_fresh(tree, change):
    stamp.record(tree)
    change(tree)
    assert not stamp.is_fresh(tree)


def test_record_keeps_the_digest_taken_before_the_build(tree):
    before = stamp.source_hashes(tree)
    (tree / "entries/e/e.py").write_text("x = 2\n")          # edited while the build ran
    stamp.record(tree, before)
    assert not stamp.is_fresh(tree)


def test_the_named_source_is_part_of_the_digest(tree, tmp_path):
    """A main .tex and the YAML file beside it read the same folder's files, yet build other sites."""
    dictionary = tmp_path / "dictionary"
    dictionary.mkdir()
    (dictionary / "Main.tex").write_text("\\documentclass{article}\n")
    (dictionary / "dictionary.yaml").write_text("main: Main.tex\ntitle: Other\n")
    stamp.record(tree, stamp.source_hashes(stamp.source_roots(tree, dictionary / "Main.tex")))
    assert stamp.is_fresh(tree, stamp.source_roots(tree, dictionary / "Main.tex"))
    assert not stamp.is_fresh(tree, stamp.source_roots(tree, dictionary / "dictionary.yaml"))


def test_command_line_on_a_built_copy(built, tmp_path):
    root, _ = built
    work = copy_repo(tmp_path / "copy")
    shutil.copytree(root / "site", work / "site")
    env = dict(os.environ, PYTHONPATH=str(REPO / "src"))
    check = lambda: subprocess.run([sys.executable, "-m", "glossary.stamp", "check", str(work)],
                                   env=env, capture_output=True, text=True)
    assert check().returncode == 1
    subprocess.run([sys.executable, "-m", "glossary.stamp", "record", str(work)], env=env, check=True)
    run = check()
    assert (run.returncode, run.stdout.strip()) == (0, "site up to date")
    md = work / "entries/attention/entry.md"
    md.write_text(md.read_text() + "\n")
    assert check().returncode == 1


def age(tree, seconds=3600):
    """Every file of the tree modified an hour ago: older than the stamp's second of doubt."""
    past = os.stat(tree).st_mtime - seconds
    for path in tree.rglob("*"):
        if path.is_file():
            os.utime(path, (past, past))


def test_a_file_as_recorded_by_size_and_time_is_not_read_again(tree):
    """Like git's index: an unchanged size and modification time keep the recorded hash, so a no-op reads
    no file; the same bytes swapped behind the stamp's back, the time put back, go unseen."""
    age(tree)
    stamp.record(tree)
    path = tree / "entries/e/entry.md"
    st = path.stat()
    path.write_text("---\n---\ntexT\n")                       # the same size
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert stamp.is_fresh(tree)
    path.write_text("---\n---\ntexT\n")                       # now with its own time
    assert not stamp.is_fresh(tree)


def test_an_edit_within_a_second_of_the_hash_is_read_again(tree, monkeypatch):
    """A file modified just before its hash was taken could change again within the same tick of the
    clock: its recorded hash is not trusted."""
    import types
    path = tree / "site/index.html"
    st = path.stat()
    monkeypatch.setattr(stamp, "time", types.SimpleNamespace(time_ns=lambda: st.st_mtime_ns + 500_000_000))
    stamp.record(tree)                                        # half a second after the file's time
    path.write_text("<p>ho</p>\n")                            # the same size, the time put back
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert not stamp.is_fresh(tree)


def test_a_file_replaced_by_another_of_the_same_size_and_time_is_read_again(tree):
    age(tree)
    stamp.record(tree)
    path = tree / "entries/e/e.py"
    st = path.stat()
    other = path.with_name("e.py.new")
    other.write_text("x = 2\n")                               # as rsync -t leaves it: renamed over, time kept
    os.utime(other, ns=(st.st_atime_ns, st.st_mtime_ns))
    other.replace(path)
    assert not stamp.is_fresh(tree)


def test_a_no_op_records_the_files_it_hashed_again(tree, monkeypatch):
    """Files published in the second before the record are hashed again by the next check; once it finds
    the site fresh it records them, so the check after it reads no file."""
    import types
    stamp.record(tree)                  # every file of the tree is new: all hashed again next time
    site = stamp.Hashed.recorded(stamp.recorded(tree)["site_files"])
    assert stamp.hashes(tree, [stamp.SITE], site).read == 2
    later = stamp.time.time_ns() + 2_000_000_000
    monkeypatch.setattr(stamp, "time", types.SimpleNamespace(time_ns=lambda: later))
    assert stamp.is_fresh(tree)
    site = stamp.Hashed.recorded(stamp.recorded(tree)["site_files"])
    assert stamp.hashes(tree, [stamp.SITE], site).read == 0
    assert stamp.source_hashes(tree, stamp.known_sources(tree)).read == 0
    assert stamp.is_fresh(tree)


def test_the_read_key_is_the_same_whatever_the_interpreter_is_called(tree):
    """The driver runs as `python`, its Snakemake as `python3`: the key of the dictionary's read that the
    one keeps and the other looks for (stamp.read_key) must not name the interpreter, as the stamp's does."""
    code = ("import sys; from glossary import stamp; h = stamp.source_hashes(sys.argv[1]); "
            "print(stamp.read_key(h), stamp.sources_digest(h))")
    keys = []
    for name in ("python", "python3"):
        run = subprocess.run([str(Path(sys.executable).with_name(name)), "-c", code, str(tree)], check=True,
                             capture_output=True, text=True, env=dict(os.environ, PYTHONPATH=str(REPO / "src")))
        keys.append(run.stdout.split())
    assert keys[0][0] == keys[1][0] and keys[0][1] != keys[1][1]
