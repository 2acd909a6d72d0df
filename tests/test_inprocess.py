"""The rules' scripts run in Snakemake's own process (glossary.inprocess), two jobs at a time in threads:
each job's stderr (and that of the threads it starts) reaches its own log and no other, the process's
__main__ and argv stay its own, a failing script leaves its traceback in its log from its own line on, a
non-zero sys.exit fails the job, and the names jobs write to before a rename differ between the threads.
The whole builds of the other tests run every such rule this way."""
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from glossary import inprocess

TALKER = """\
import sys, time
for i in range(50):
    print(f"{snakemake.params['name']} line {i}", file=sys.stderr)
    time.sleep(0.001)
sys.stderr.write(f"{snakemake.params['name']} ends\\n")
open(snakemake.output[0], "w").write(snakemake.input[0])
"""


def run(script, tmp_path, name, **params):
    log = tmp_path / f"{name}.log"
    inprocess.script(script, [name], [str(tmp_path / f"{name}.out")], {"name": name, **params}, {}, 1,
                     [str(log)], {})
    return log


def test_two_jobs_in_threads_each_write_their_own_log(tmp_path):
    script = tmp_path / "talker.py"
    script.write_text(TALKER)
    before, main, argv = sys.stderr, sys.modules["__main__"], list(sys.argv)
    threads = [threading.Thread(target=run, args=(script, tmp_path, name)) for name in ("one", "two")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    for name, other in (("one", "two"), ("two", "one")):
        log = (tmp_path / f"{name}.log").read_text()
        assert log.count(f"{name} line") == 50 and log.endswith(f"{name} ends\n"), log
        assert other not in log, log
        assert (tmp_path / f"{name}.out").read_text() == name
    assert getattr(sys.stderr, "stream", sys.stderr) is getattr(before, "stream", before)
    assert sys.modules["__main__"] is main and sys.argv == argv


def test_the_threads_a_job_starts_write_to_its_log(tmp_path):
    job = tmp_path / "pool.py"
    job.write_text("import sys\nprint('the job', file=sys.stderr)\nsnakemake.params['work']()\n")

    def work():
        with ThreadPoolExecutor(2, initializer=inprocess.adopt, initargs=(inprocess.current_log(),)) as pool:
            list(pool.map(lambda i: print(f"worker {i}", file=sys.stderr), range(4)))

    log = run(job, tmp_path, "pooled", work=work)
    assert sorted(log.read_text().splitlines()) == ["the job"] + [f"worker {i}" for i in range(4)]


def test_a_failing_script_leaves_its_traceback_from_its_own_line(tmp_path):
    script = tmp_path / "fails.py"
    script.write_text("x = 1\n\nraise ValueError(f\"no {snakemake.params['name']}\")\n")
    log = tmp_path / "bad.log"
    with pytest.raises(ValueError, match="no bad"):
        run(script, tmp_path, "bad")
    text = log.read_text()
    assert text.startswith("Traceback (most recent call last):"), text
    assert f'File "{script}", line 3, in <module>' in text and "runpy" not in text, text
    assert text.rstrip().endswith("ValueError: no bad"), text


def test_sys_exit_fails_the_job_only_when_not_zero(tmp_path):
    script = tmp_path / "exits.py"
    script.write_text("import sys\nprint('told', file=sys.stderr)\nsys.exit(snakemake.params['code'])\n")
    run(script, tmp_path, "fine", code=0)
    with pytest.raises(inprocess.ScriptFailed, match="exits.py exited with 1"):
        run(script, tmp_path, "dead", code=1)
    assert (tmp_path / "dead.log").read_text() == "told\n"
    with pytest.raises(inprocess.ScriptFailed):
        run(script, tmp_path, "why", code="no pages to check")
    assert (tmp_path / "why.log").read_text() == "told\nno pages to check\n"


def test_a_script_that_does_not_compile_is_told_by_its_file_and_line(tmp_path):
    script = tmp_path / "broken.py"
    script.write_text("x = 1\nif x\n    pass\n")
    with pytest.raises(SyntaxError):
        run(script, tmp_path, "broken")
    text = (tmp_path / "broken.log").read_text()
    assert f'File "{script}", line 2' in text and "SyntaxError" in text and "inprocess" not in text, text


def test_the_names_jobs_write_to_before_a_rename_differ_between_threads(tmp_path):
    target = tmp_path / "pictures.fmt"
    names, both = [], threading.Barrier(2)

    def job():
        names.append(inprocess.temporary(target))
        both.wait()     # two jobs at once, as Snakemake runs them

    threads = [threading.Thread(target=job) for _ in range(2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert len(set(names)) == 2 and all(Path(n).parent == tmp_path for n in names)
    assert inprocess.temporary(target) == inprocess.temporary(target)


def test_the_build_names_the_scripts_line_when_it_builds_in_another_folder(tmp_path):
    """A build in another folder (make site OUT=) runs the repository's scripts: the error message still
    names the script's line (glossary.build.explain_log reads the job's log)."""
    from conftest import REPO

    from glossary import build

    script = REPO / "scripts" / "sitemap.py"
    fails = tmp_path / "fails.py"
    fails.write_text("x = 1\nraise KeyError('no such page')\n")
    log = tmp_path / "sitemap.log"
    with pytest.raises(KeyError):
        inprocess.script(fails, {}, [], {}, {}, 1, [str(log)], {})
    # as if the failing script had been the repository's own, as a build's is
    log.write_text(log.read_text().replace(str(fails), str(script)))
    lines = build.explain_log(log, tmp_path / "out")
    assert lines[0] == f"{script}, line 2", lines
    assert lines[-1] == "KeyError: 'no such page'", lines
