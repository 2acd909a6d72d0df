"""How Snakemake is run: the workflow profile it reads, and a prompt exit after the last job."""
import os
import re
import shutil
import subprocess
import sys

import pytest
import yaml
from conftest import BIN, REPO, copy_built, copy_repo, made_by

pytestmark = pytest.mark.slow

PAGE = "results/site/terms/attention.html"


def test_every_snakemake_run_reads_the_default_profile(built, tmp_path):
    """Snakemake finds a workflow profile only at profiles/default beside a top-level Snakefile."""
    assert yaml.safe_load((REPO / "profiles/default/config.yaml").read_text())["scheduler"] == "greedy"
    work = copy_built(built[0], tmp_path / "glossary")
    run = subprocess.run([str(BIN / "snakemake"), "-n"], cwd=work, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    assert "Using workflow specific profile profiles/default" in run.stdout + run.stderr


@pytest.mark.parametrize("outcome", ["success", "error"])
def test_snakemake_exits_once_the_workflow_is_done(built, tmp_path, outcome):
    """Snakemake's job-selection timer runs every --max-jobs-per-timespan span and Python waits for it
    at exit; the workflow's onsuccess/onerror hooks cancel it.  With a 300 s span, a run that waited
    for the timer would take over 300 s; this one has 120."""
    work = copy_built(built[0], tmp_path / "glossary")
    shutil.rmtree(work / made_by(work, PAGE))      # the page's batch folder: its job runs again
    if outcome == "error":
        md = work / "entries/attention/entry.md"
        md.write_text(md.read_text() + "\n{{ no_such_fact }}\n")
    run = subprocess.run([str(BIN / "snakemake"), "--cores", "2", "--max-jobs-per-timespan", "50/300s"],
                         cwd=work, capture_output=True, text=True, timeout=120)
    out = run.stdout + run.stderr
    assert (run.returncode == 0) == (outcome == "success"), out[-2000:]
    assert "Finished jobid" in out if outcome == "success" else "Error in rule prose" in out


def test_local_runs_do_not_load_the_slurm_plugin():
    """Snakemake imports every executor plugin it can find at each start; the Slurm one (and the
    pandas it imports) is installed apart, in .venv/slurm, for Slurm runs only."""
    find = "import importlib.util as u; print(u.find_spec('snakemake_executor_plugin_slurm'), u.find_spec('pandas'))"
    run = subprocess.run([str(BIN / "python"), "-c", find], capture_output=True, text=True, check=True,
                         env={"PATH": "/usr/bin:/bin"})
    assert run.stdout.split() == ["None", "None"]


def test_each_finished_job_gives_one_job_selection(tmp_path):
    """Under Snakemake's default job rate limit every selection pass starts a timer for another pass,
    and each finished job starts such a chain: a build of n jobs ran up to n passes a second.  A local
    run drops the default limit (glossary.snakemake_internals, called from an onstart hook), so passes
    follow finished jobs one to one.
    Four skeleton entries at --cores 1 keep several jobs ready for the whole build."""
    root = copy_repo(tmp_path / "glossary")
    shutil.rmtree(root / "entries")
    for i in range(4):
        subprocess.run([str(BIN / "python"), "scripts/new_entry.py", f"term-{i}"], cwd=root, check=True,
                       capture_output=True)
    run = subprocess.run([str(BIN / "snakemake"), "--cores", "1", "--verbose"], cwd=root,
                         capture_output=True, text=True, timeout=600)
    out = run.stdout + run.stderr
    assert run.returncode == 0, out[-3000:]
    finished = len(re.findall(r"^Finished jobid: \d+", out, re.M))
    passes = len(re.findall(r"^Ready jobs: \d+", out, re.M))
    assert finished > 40, finished
    assert passes <= finished + 1, f"{passes} job selections for {finished} jobs"


def test_jobs_do_not_compile_the_package_again(tmp_path):
    """Where the environment sets PYTHONDONTWRITEBYTECODE, Python writes no bytecode, so each job would
    compile every module of the package it imports; a build compiles the package once (glossary.jobenv),
    and a job started as Snakemake starts it, with that setting, loads the compiled modules."""
    work = copy_repo(tmp_path / "glossary")
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=str(work / "src"))

    def loaded_from_source():
        run = subprocess.run([str(BIN / "python"), "-v", "-c", "import glossary.typeset"], cwd=tmp_path, env=env,
                             capture_output=True, text=True, check=True)
        return set(re.findall(r"^# code object from '?\S*/src/glossary/(\S+)\.py'?$", run.stderr, re.M))

    assert "typeset" in loaded_from_source()        # nothing compiled yet: a copy holds no __pycache__
    run = subprocess.run([str(BIN / "snakemake"), "-n"], cwd=work, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stderr[-2000:]
    assert loaded_from_source() == set()


def test_a_staged_file_that_is_gone_is_built_again(built, tmp_path):
    """Rule all asks for the link report and the book, and for any staged file that is missing: Snakemake
    builds a missing file only for a target or a job that reruns, and the link check, up to date, does
    not rerun for an input that is gone.  An entry's page, Markdown or PDF is a link into its batch's
    folder: a link that is gone is made again as Snakemake reads the plan; a folder that lacks a file is
    removed by the build (glossary.plan.mend_batch_folders, holding its lock) and made again whole, as is a
    folder no link points into (an earlier plan's batch) removed."""
    work = copy_built(built[0], tmp_path / "glossary")
    gone = [work / PAGE, work / "results/site/style.css"]
    for path in gone:
        path.unlink()
    run = subprocess.run([str(BIN / "snakemake"), "--cores", "2"], cwd=work, capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, (run.stdout + run.stderr)[-2000:]
    assert all(path.is_file() for path in gone)
    markdown = PAGE.replace(".html", ".md")
    made = work / made_by(work, markdown) / os.path.basename(markdown)
    made.unlink()
    earlier = work / "results/batches/page/b99"
    earlier.mkdir()
    run = subprocess.run([str(BIN / "python"), "-m", "glossary.build", "--cores", "2"], cwd=work,
                         env=dict(os.environ, PYTHONPATH=str(work / "src")), capture_output=True, text=True,
                         timeout=300)
    assert run.returncode == 0, (run.stdout + run.stderr)[-2000:]
    assert made.is_file() and (work / markdown).is_file() and not earlier.exists()
    assert (work / "site" / os.path.relpath(markdown, "results/site")).read_bytes() == made.read_bytes()


def test_a_job_beside_the_book_runs_at_a_lower_priority():
    """jobenv.beside_the_book (the search index's and the link check's jobs): nice 10 more than the
    process had."""
    code = ("import os; from glossary import jobenv; before = os.nice(0); jobenv.beside_the_book(); "
            "print(os.nice(0) - before)")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(REPO / "src")})
    assert done.stdout.strip() == "10"
