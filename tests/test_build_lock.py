"""One build at a time: `make site`, `make slurm` and the preview share one lock, and a
Snakemake that is running in the folder keeps its own lock: `make site` neither lifts it
nor writes into its build.  A lock that a killed build left is lifted (tests/test_failures.py)."""
import os
import shutil
import subprocess
import time

import pytest
from conftest import BIN, copy_repo, made_once, tree_bytes

pytestmark = pytest.mark.slow

# The test holds the build here until it creates the file `release` (at most `seconds`).
SLOW_STEP = ("    import os, time; _end = time.time() + {seconds}\n"
             "    while not os.path.exists({release!r}) and time.time() < _end: time.sleep(0.1)\n")


def skeleton_repo(path, slugs=("term-a",)):
    """A copy of the repository whose entries are `make new-entry` skeletons (quick to build)."""
    root = copy_repo(path)
    shutil.rmtree(root / "entries")
    for slug in slugs:
        subprocess.run([str(BIN / "python"), "scripts/new_entry.py", slug], cwd=root, check=True,
                       capture_output=True)
    return root


def built_skeleton(tmp_path_factory, dst):
    """A copy, at dst, of one skeleton repository that `make site` built (made once per test run)."""
    def build(folder):
        run = make_site(skeleton_repo(folder / "repo"))
        assert run.returncode == 0, run.stdout[-2000:] + run.stderr[-2000:]
    folder = made_once(tmp_path_factory, "skeleton", build)[0]
    dst.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(["cp", "-a", str(folder / "repo"), str(dst)], check=True)
    return dst


def slow_training(root, slug="term-a", seconds=60):
    """The entry's training waits for the file this returns (or `seconds`): the test lets it go on."""
    demo = root / "entries" / slug / f"{slug.replace('-', '_')}.py"
    text = demo.read_text()
    head = "def train(data, steps=STEPS, lr=LR):\n"
    assert head in text
    release = root.parent / f"release-{slug}"
    demo.write_text(text.replace(head, head + SLOW_STEP.format(seconds=seconds, release=str(release)), 1))
    return release


def make_site(root, *args, env=None):
    return subprocess.run([str(BIN / "python"), "-m", "glossary.build", "--cores", "2", *args], cwd=root,
                          env=dict(env or os.environ, PYTHONPATH=str(root / "src")), capture_output=True, text=True,
                          timeout=600)


def wait_for(predicate, timeout=120):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(0.2)
    return False


def test_make_site_refuses_while_another_build_holds_the_lock(tmp_path, tmp_path_factory):
    """`make slurm` takes the same lock as `make site` (both run glossary.build): a second build is
    refused, with one line, and finds site/ and the running build's lock as they were."""
    root = built_skeleton(tmp_path_factory, tmp_path / "repo")
    assert make_site(root).returncode == 0
    site = tree_bytes(root / "site")
    holder = subprocess.Popen(
        [str(BIN / "python"), "-c",
         "import sys, time\nfrom glossary import build\nwith build.build_lock():\n"
         "    print('held', flush=True)\n    time.sleep(120)\n"],
        cwd=root, env=dict(os.environ, PYTHONPATH=str(root / "src")), stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        (root / "entries/term-a/entry.md").write_text((root / "entries/term-a/entry.md").read_text() + "\nMore.\n")
        run = make_site(root)
        assert run.returncode == 1
        assert run.stderr.strip() == ("error: another build (make site, make slurm or make serve) is running in "
                                      "this folder; wait for it to end")
        assert tree_bytes(root / "site") == site
        assert holder.poll() is None
    finally:
        holder.kill()
        holder.wait()
    assert make_site(root).returncode == 0     # free once the holder is gone


def test_running_snakemake_keeps_its_lock(tmp_path, tmp_path_factory):
    """A Snakemake started by hand in the folder (no build lock of ours) holds Snakemake's own lock
    while it trains: `make site` does not lift that lock, says which process holds the folder,
    and leaves site/ alone; the running Snakemake then finishes normally."""
    root = built_skeleton(tmp_path_factory, tmp_path / "repo")
    assert make_site(root).returncode == 0
    site = tree_bytes(root / "site")
    release = slow_training(root, seconds=120)
    direct = subprocess.Popen([str(BIN / "snakemake"), "--cores", "1"], cwd=root, stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True,
                              env=dict(os.environ, PYTHONPATH=str(root / "src")))
    locks_dir, train_log, started = root / ".snakemake/locks", root / "logs/compute/term-a.log", time.time()
    try:
        assert wait_for(lambda: locks_dir.is_dir() and any(locks_dir.iterdir()) and train_log.exists()
                        and train_log.stat().st_mtime >= started), "the direct run did not start training"
        locks = sorted(p.name for p in locks_dir.iterdir())
        assert locks, "the direct Snakemake holds no lock"
        run = make_site(root)
        assert run.returncode == 1, run.stdout
        assert f"a Snakemake process is running in this folder (pid {direct.pid})" in run.stderr, run.stderr
        assert run.stderr.rstrip().endswith("site/ was left as it was.")
        assert "lifted" not in run.stdout
        assert sorted(p.name for p in locks_dir.iterdir()) == locks, "the lock was touched"
        assert tree_bytes(root / "site") == site
        assert direct.poll() is None, "the running Snakemake was disturbed"
    finally:
        release.touch()
        out = direct.communicate(timeout=300)[0]
    assert direct.returncode == 0, out[-3000:]
    assert "Finished jobid" in out
    run = make_site(root)       # and afterwards the folder builds as usual
    assert run.returncode == 0, run.stderr
    assert not locks_dir.exists() or not any(locks_dir.iterdir())


@pytest.mark.slow
def test_a_stale_lock_in_another_folder_is_lifted(tmp_path):
    """A killed `make site SOURCE=... OUT=...` leaves Snakemake's lock in OUT, where there is no Snakefile:
    the next build lifts it (the unlock names the workflow as the build does) and builds."""
    from test_dictionary_build import build, built_ok, copy_fixture, edit
    source, out = copy_fixture(tmp_path / "dictionary"), tmp_path / "out"
    built_ok(build(source, out))
    locks = out / ".snakemake/locks"
    locks.mkdir(parents=True, exist_ok=True)
    (locks / "0.output.lock").write_text("results/site/index.html\n")     # as a killed build leaves it
    tex = next(p for p in sorted(source.parent.glob("*.tex")) if "description=" in p.read_text())
    text = tex.read_text()
    word = next(w for w in text[text.index("description="):].split() if w.isalpha() and len(w) > 4)
    edit(tex, f" {word} ", f" {word[::-1]} ")           # something to build, past the no-op's stamp
    run = build(source, out)
    built_ok(run)
    assert "lifted the lock" in run.stdout, run.stdout
    assert not any(locks.glob("*.lock"))
