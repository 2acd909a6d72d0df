"""The rules' scripts run in Snakemake's own process (glossary.inprocess), two jobs at a time in threads:
each job's stderr reaches its own log and no other, a failing script leaves its traceback in its log from
its own line on, a non-zero sys.exit fails the job, and the names jobs write to before a rename differ
between the threads.  The whole builds of the other tests run every such rule this way."""
import sys
import threading
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
    before = sys.stderr
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
