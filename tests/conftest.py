"""Shared by the tests: a copy of the repository to build in, and Snakemake runs on it; and how the
suite runs under pytest-xdist (`make test`, docs/testing.md)."""
import fcntl
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
sys.path.insert(0, str(REPO / "src"))

PINNED = None


def numeric_env():
    import yaml
    return yaml.safe_load((REPO / "config.yaml").read_text())["numeric_env"]


def pinned_environ(**extra):
    """os.environ with the build's numeric platform, for running demos outside Snakemake."""
    from glossary import numeric
    env = dict(os.environ)
    numeric.apply(numeric_env(), env)
    env.update(MPLBACKEND="Agg", PYTHONPATH=str(REPO / "src"), **extra)
    return env


def copy_repo(dst):
    """The repository's sources (tracked and untracked, not ignored) copied to dst."""
    from glossary import verify
    return verify.copy_sources(REPO, dst)


def copy_built(built_root, dst):
    """A copy of the sources with the results, Snakemake records, logs and site/ of a finished build."""
    work, built_root = copy_repo(dst), Path(built_root)
    built = [str(built_root / name) for name in ("results", ".snakemake", "logs", "site")
             if (built_root / name).exists()]
    subprocess.run(["cp", "-a", *built, str(work)], check=True)
    return work


def snakemake(cwd, *args, env=None, check=True):
    """Run Snakemake in cwd; returns (CompletedProcess, [names of the rules whose jobs ran])."""
    run = subprocess.run([str(BIN / "snakemake"), "--cores", "2", *args], cwd=cwd,
                         env=env or os.environ.copy(), capture_output=True, text=True)
    if check and run.returncode != 0:
        raise AssertionError(f"snakemake failed ({run.returncode}):\n{run.stdout[-3000:]}\n{run.stderr[-3000:]}")
    return run, ran_rules(run.stdout + run.stderr)


def made_by(root, staged):
    """What a job makes of the staged site file `staged` (relative to the build folder `root`): the file
    itself, or for an entry's page, Markdown or PDF, which the staged site links to its batch's folder
    (glossary.plan.Plan.link_entry_files: made as Snakemake reads the plan), that folder."""
    path = Path(root) / staged
    if not path.is_symlink():
        return staged
    return os.path.dirname(os.path.normpath(os.path.join(os.path.dirname(staged), os.readlink(path))))


def ran_rules(output):
    """The rules whose jobs a Snakemake run finished (or, for a dry run, would run); a batch's rule
    (prose_b00, page_b01, ...) counts under its stage's name (prose, page, ...)."""
    done = re.findall(r"Finished jobid: \d+ \(Rule: (\w+)\)", output)
    if not done:
        table = re.search(r"^job\s+count\n[- ]+\n(.*?)^total", output, re.M | re.S)
        done = [line.split()[0] for line in table.group(1).splitlines()] if table else []
    return [re.sub(r"_b\d+$", "", name) for name in done]


def build_site(root, env=None, cores="2"):
    """A clean build in `root` published to root/site, as `make site` does it."""
    run, ran = snakemake(root, "--cores", cores, env=env)
    subprocess.run([str(BIN / "python"), "-m", "glossary.publish", "results/site", "site"], cwd=root,
                   env=dict(env or os.environ, PYTHONPATH=str(root / "src")), check=True, capture_output=True)
    return ran


def build_elsewhere(root):
    """A clean build of `root` as build_site does it, under another time zone, locale, hash seed,
    umask and --cores than the default build: what determinism must not notice."""
    env = dict(os.environ, TZ="Pacific/Chatham", LC_ALL="C", LANG="C", PYTHONHASHSEED="12345")
    old = os.umask(0o077)
    try:
        return build_site(root, env=env, cores="1")
    finally:
        os.umask(old)


def tree_bytes(root):
    root = Path(root)
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def made_once(tmp_path_factory, name, make):
    """The folder `name` that `make(folder)` fills once per test run, under pytest-xdist too: the first
    worker to ask makes it while the others wait on its lock, then every worker reads it.  Returns
    (folder, what make returned, which must be JSON)."""
    base = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        base = base.parent              # the run's folder, above each worker's own
    folder, done = base / name, base / f"{name}.json"
    with open(base / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)       # left half-made by a worker whose make failed
            folder.mkdir()
            done.write_text(json.dumps(make(folder)))
        return folder, json.loads(done.read_text())


@pytest.fixture(scope="session")
def built(tmp_path_factory):
    """One clean build of a copy of the repository, shared by all workers; tests read its site/ and
    results/ (and copy it to change it)."""
    folder, ran = made_once(tmp_path_factory, "build", lambda folder: build_site(copy_repo(folder / "glossary")))
    return folder / "glossary", ran


def pytest_collection_modifyitems(config, items):
    """The modules with the longest tests first, so that they do not finish last (under `--dist loadfile`
    each module runs on one worker, so its module-scoped fixtures are made once)."""
    rank = {}
    for item in items:
        mark = 0 if item.get_closest_marker("longest") else 1 if item.get_closest_marker("slow") else 2
        rank[item.module.__name__] = min(mark, rank.get(item.module.__name__, 2))
    items.sort(key=lambda item: rank[item.module.__name__])     # stable: a module's tests stay in order
