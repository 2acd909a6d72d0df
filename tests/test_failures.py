"""`make site` when things go wrong: a failed build (a demo's assertion, a template
error, a LaTeX error, a missing program) is told in at most ten lines naming the
file at fault, and leaves site/ exactly as it was; a build killed in the middle
of training is finished by the next one, with the same bytes as an uninterrupted
build; publishing swaps the whole site in one step or not at all."""
import os
import re
import shutil
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest
from conftest import BIN, copy_built, copy_repo, tree_bytes

from glossary import build, latex, publish

MAX_LINES = 10

# the message of rule compute, the demo's steps (workflow/rules/compute.smk)
COMPUTING = "tokenize the corpus, train the model, export the CSVs"


def run_build(work, env=None):
    env = dict(env or os.environ, PYTHONPATH=str(work / "src"))
    return subprocess.run([str(BIN / "python"), "-m", "glossary.build", "--cores", "2"], cwd=work, env=env,
                          capture_output=True, text=True)


def built_copy(built, tmp_path, name):
    return copy_built(built[0], tmp_path / name)


def site_state(work):
    site = work / "site"
    return site.stat().st_ino, tree_bytes(site)


def edit(path, old, new):
    """Replace old by new in path; returns the number of the first line that changed."""
    text = path.read_text()
    assert old in text, f"{path}: {old!r} not found"
    path.write_text(text.replace(old, new, 1))
    pairs = zip(text.splitlines(), path.read_text().splitlines())
    return next(i for i, (a, b) in enumerate(pairs, 1) if a != b)


def assert_told_briefly(run, work, before, *needles):
    """Failed, in at most MAX_LINES lines of stderr naming what it must, site/ untouched."""
    err = run.stderr.rstrip("\n")
    assert run.returncode != 0, run.stdout
    lines = err.splitlines()
    assert len(lines) <= MAX_LINES, f"{len(lines)} lines:\n{err}"
    assert lines[-1] == "site/ was left as it was.", err
    for needle in needles:
        if isinstance(needle, re.Pattern):
            assert needle.search(err), f"{needle.pattern!r} not in:\n{err}"
        else:
            assert needle in err, f"{needle!r} not in:\n{err}"
    assert "Traceback" not in err and "snakemake" not in err.lower(), err
    assert site_state(work) == before, "site/ changed"
    return err


# --- failures told in a few lines; site/ untouched ----------------------------------

@pytest.mark.slow
def test_failed_demo_assertion_names_the_demo_line(built, tmp_path):
    work = built_copy(built, tmp_path, "demo")
    before = site_state(work)
    line = edit(work / "entries/attention/attention.py",
                "    vocab = sorted({tok for s in sentences for tok in s})\n",
                "    vocab = sorted({tok for s in sentences for tok in s})\n"
                "    assert len(vocab) > 1000, f\"too few distinct tokens: {len(vocab)}\"\n")
    run = run_build(work)
    assert_told_briefly(run, work, before, f"error: rule compute failed (attention: {COMPUTING})",
                        f"entries/attention/attention.py, line {line}, in prepare",
                        "AssertionError: too few distinct tokens: 98", "logs/compute/attention.log")


@pytest.mark.slow
def test_template_error_names_the_template_line(built, tmp_path):
    work = built_copy(built, tmp_path, "template")
    before = site_state(work)
    line = edit(work / "templates/entry.html.j2", 'content="{{ entry.summary }}">',
                'content="{{ entry.summery }}">')
    run = run_build(work)
    failed = re.compile(r"error: rule page_b\d+ failed \(b\d+: HTML pages of 2 entries\)")
    assert_told_briefly(run, work, before, failed, f"templates/entry.html.j2, line {line}",
                        "UndefinedError: 'dict object' has no attribute 'summery'",
                        re.compile(r"logs/page/[\w-]+\.log"))


@pytest.mark.slow
def test_latex_error_names_the_tex_file_line_and_message(built, tmp_path):
    work = built_copy(built, tmp_path, "latex")
    before = site_state(work)
    edit(work / "templates/figures/line.tex.j2", "\\begin{tikzpicture}\n", "\\begin{tikzpicture}\\undefinedmacro\n")
    run = run_build(work)
    err = assert_told_briefly(
        run, work, before, "error: rule figure failed",
        re.compile(r"logs/figure/[\w-]+/[\w-]+\.tex:\d+: Undefined control sequence\. \(at: .*\\undefinedmacro\)"),
        "templates/figures/line.tex.j2", re.compile(r"full log: logs/figure/[\w-]+/[\w-]+\.tex\.log"))
    tex = re.search(r"(logs/\S+\.tex):(\d+):", err)
    assert "\\undefinedmacro" in (work / tex.group(1)).read_text().splitlines()[int(tex.group(2)) - 1]
    assert "This is pdfTeX" not in err and "Transcript written" not in err     # not the whole log


@pytest.mark.slow
def test_missing_pdflatex_is_named_with_its_debian_package(built, tmp_path):
    work = built_copy(built, tmp_path, "nopdflatex")
    before = site_state(work)
    (work / "results/site/terms/attention/figures/loss.pdf").unlink()       # pdflatex must run again
    bin_dir = tmp_path / "bin"          # every program on PATH but pdflatex
    bin_dir.mkdir()
    for folder in os.environ["PATH"].split(os.pathsep):
        if os.path.isdir(folder):
            for name in os.listdir(folder):
                if name != "pdflatex" and not (bin_dir / name).exists():
                    (bin_dir / name).symlink_to(Path(folder) / name)
    env = dict(os.environ, PATH=str(bin_dir))
    assert shutil.which("pdflatex", path=env["PATH"]) is None
    run = run_build(work, env)
    # The first jobs to need pdflatex are the two formats (figures', entry PDFs'): no TeX version to record
    # reruns them, and either may be the one to fail first.
    assert_told_briefly(run, work, before, "pdflatex is missing", "apt-get install texlive-latex-base",
                        re.compile(r"error: rule (latex|print)_format failed"))


def test_missing_pgfplots_is_named_with_its_debian_package(tmp_path, monkeypatch):
    fake = tmp_path / "kpsewhich"      # a TeX Live without pgfplots
    fake.write_text('#!/bin/sh\n[ "$1" = pgfplots.sty ] || echo "/usr/share/texmf/$1"\n')
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", f"{tmp_path}{os.pathsep}{os.environ['PATH']}")
    assert ("pgfplots.sty", "texlive-pictures") in build.missing_tools()
    message = "x.tex:6: LaTeX Error: File `pgfplots.sty' not found. (at: \\usepackage)"
    assert latex.missing_file_hint(message) == "; install Debian's texlive-pictures: apt-get install texlive-pictures"
    events = [{"event": "job_error", "jobid": 3, "rule_name": "pdflatex", "log": ["nowhere.log"]}]
    summary = build.failure_summary(events, root=tmp_path)
    assert summary[0] == ("error: pgfplots.sty is missing; install Debian's texlive-pictures: "
                                       "apt-get install texlive-pictures")


def test_summary_of_many_failures_stays_short(tmp_path, monkeypatch):
    logs = []
    for i in range(6):
        log = tmp_path / f"logs/train/e{i}.log"
        log.parent.mkdir(parents=True, exist_ok=True)
        log.write_text("Traceback (most recent call last):\n"
                       f'  File "{tmp_path}/entries/e{i}/demo.py", line 7, in train\n'
                       "    assert False, 'no'\n"
                       "AssertionError: no\n")
        logs += [{"event": "job_info", "jobid": i, "rule_name": "train", "rule_msg": f"e{i}: train the model"},
                 {"event": "job_error", "jobid": i, "rule_name": "train", "rule_msg": None,
                  "log": [f"logs/train/e{i}.log"]}]
    monkeypatch.setattr(build, "INVOKED", tmp_path)       # the user runs the build where it builds
    lines = build.failure_summary(logs, root=tmp_path)
    summary = "\n".join(lines)
    # the first failure's account stays short; each further one (--keep-going) is one line with its error
    first = [line for line in lines if not line.startswith("also failed")]
    assert len(first) <= MAX_LINES - 1, summary
    assert lines[:4] == ["error: rule train failed (e0: train the model)", "  entries/e0/demo.py, line 7, in train",
                         "      assert False, 'no'", "  AssertionError: no"]
    assert lines[len(first):] == [f"also failed: rule train (e{i}: train the model): AssertionError: no; "
                                  f"log: logs/train/e{i}.log" for i in range(1, 6)], summary
    # run from the folder above (glossary build into _build/, make site OUT=): the logs are named from there
    monkeypatch.setattr(build, "INVOKED", tmp_path.parent)
    assert build.failure_summary(logs, root=tmp_path)[-1].endswith(f"log: {tmp_path.name}/logs/train/e5.log")


def test_entry_error_before_any_job_is_one_line(tmp_path):
    message = ('EntryError in file "/x/workflow/rules/common.smk", line 14:\n'
               "entries/a/entry.md: demo: 'a.py' is not a file in entries/a; name the demo script\n"
               '  File "/x/workflow/rules/common.smk", line 14, in <module>\n')
    events = [{"event": "error", "exception": "EntryError", "message": message}]
    assert build.failure_summary(events, root=tmp_path) == \
        ["error: entries/a/entry.md: demo: 'a.py' is not a file in entries/a; name the demo script"]


@pytest.mark.slow
def test_entry_error_stops_the_build_before_any_job(built, tmp_path):
    work = built_copy(built, tmp_path, "entry")
    before = site_state(work)
    edit(work / "entries/attention/entry.md", "demo: attention.py", "demo: attention_v2.py")
    run = run_build(work)
    err = assert_told_briefly(run, work, before, "entries/attention/entry.md: demo: 'attention_v2.py' is not a file")
    assert len(err.splitlines()) == 2, err


# --- publishing: all or nothing ---------------------------------------------------------

def test_publish_swaps_the_whole_site_or_nothing(tmp_path, monkeypatch):
    staged, site = tmp_path / "results/site", tmp_path / "site"
    for tree, text in ((staged, "new"), (site, "old")):
        (tree / "terms").mkdir(parents=True)
        (tree / "index.html").write_text(text)
        (tree / "terms/a.html").write_text(text)
    (staged / "terms/b.html").write_text("new")
    before = (site.stat().st_ino, tree_bytes(site))

    def crash(a, b):
        raise OSError("killed before the swap")
    monkeypatch.setattr(publish, "_exchange", crash)
    with pytest.raises(OSError):
        publish.publish(staged, site)
    assert (site.stat().st_ino, tree_bytes(site)) == before      # the old site, whole
    monkeypatch.undo()
    assert publish.publish(staged, site) is True
    # the old site is kept beside the staged one, for the next publish to bring up to date
    assert tree_bytes(site) == tree_bytes(staged) and tree_bytes(staged.with_name(publish.SPARE)) == before[1]
    assert publish.publish(staged, site) is False


def test_second_build_in_the_same_folder_is_refused_while_one_runs(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    with build.build_lock():
        child = subprocess.run([str(BIN / "python"), "-c", "from glossary import build\nwith build.build_lock(): pass"],
                               env=dict(os.environ, PYTHONPATH=str(Path(build.__file__).parents[1])),
                               capture_output=True, text=True)
    assert child.returncode != 0 and "another build (make site, make slurm or make serve) is running" in child.stderr
    with build.build_lock():     # free again once the first one ended
        pass


# --- a build killed in the middle of training -------------------------------------------

@pytest.mark.slow
def test_build_killed_while_training_completes_with_the_same_bytes(built, tmp_path):
    root, _ = built
    work = copy_repo(tmp_path / "killed")
    env = dict(os.environ, PYTHONPATH=str(work / "src"))
    proc = subprocess.Popen([str(BIN / "python"), "-m", "glossary.build", "--cores", "2"], cwd=work, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True)
    watchdog = threading.Timer(600, lambda: os.killpg(proc.pid, signal.SIGKILL))
    watchdog.start()
    try:
        seen = []
        for line in proc.stdout:
            seen.append(line)
            if line.rstrip().endswith(f"] attention: {COMPUTING}") or f"] attention: {COMPUTING}  (" in line:
                break
        time.sleep(3)
        assert proc.poll() is None, "".join(seen)
        assert (work / "logs/compute/attention.log").exists()    # the training job is running
        os.killpg(proc.pid, signal.SIGKILL)                      # the build, Snakemake and its jobs
        proc.wait()
    finally:
        watchdog.cancel()
        proc.stdout.close()
    assert not (work / "site").exists()
    assert not (work / "results/attention/model.json").exists()
    assert any((work / ".snakemake/locks").iterdir()), "Snakemake's lock was not left behind"
    assert any(p.is_file() for p in (work / ".snakemake/incomplete").rglob("*")), "no job was left incomplete"

    run = run_build(work)
    assert run.returncode == 0, run.stdout + run.stderr
    assert f"attention: {COMPUTING}" in run.stdout
    first, again = tree_bytes(root / "site"), tree_bytes(work / "site")
    assert sorted(again) == sorted(first)
    assert [name for name in first if first[name] != again[name]] == []
