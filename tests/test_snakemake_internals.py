"""glossary.snakemake_internals, the one module that reaches inside Snakemake, against the
Snakemake that is installed: what it touches is there, and it says so loudly when it is not."""
import threading
import types
from pathlib import Path

import pytest

from glossary import snakemake_internals as internals


def scheduler_with_limit(max_jobs, timespan, local=True):
    """A JobRateLimiter as Snakemake's own scheduler makes it, in a stand-in workflow."""
    from snakemake.scheduling.job_scheduler import JobRateLimiter
    from snakemake.settings.types import MaxJobsPerTimespan
    limit = MaxJobsPerTimespan(max_jobs, f"{timespan}s")
    scheduler = types.SimpleNamespace(job_rate_limiter=JobRateLimiter(limit))
    return types.SimpleNamespace(scheduler=scheduler, local_exec=local)


def test_the_default_limit_is_what_snakemakes_command_line_sets():
    from snakemake.cli import get_argument_parser
    from snakemake.settings.types import MaxJobsPerTimespan
    default = get_argument_parser().get_default("max_jobs_per_timespan")
    limit = default if isinstance(default, MaxJobsPerTimespan) else MaxJobsPerTimespan.parse_choice(default)
    assert (limit.max_jobs, limit.timespan) == internals.DEFAULT_RATE_LIMIT


def test_the_scheduler_still_has_the_attribute_the_hook_replaces():
    import inspect

    from snakemake.scheduling.job_scheduler import JobScheduler
    assert "self.job_rate_limiter" in inspect.getsource(JobScheduler.__init__)
    assert "threading.Timer" in inspect.getsource(JobScheduler._schedule_reevalutation)


def test_default_limit_is_dropped_from_local_runs_only():
    workflow = scheduler_with_limit(*internals.DEFAULT_RATE_LIMIT)
    assert internals.drop_default_rate_limit(workflow) is True
    assert workflow.scheduler.job_rate_limiter is None
    kept = scheduler_with_limit(10, 1)
    assert internals.drop_default_rate_limit(kept) is False and kept.scheduler.job_rate_limiter is not None
    cluster = scheduler_with_limit(*internals.DEFAULT_RATE_LIMIT, local=False)
    assert internals.drop_default_rate_limit(cluster) is False


def test_a_moved_attribute_fails_loudly():
    workflow = types.SimpleNamespace(scheduler=types.SimpleNamespace(), local_exec=True)
    with pytest.raises(internals.SnakemakeInternalsChanged, match="workflow.scheduler.job_rate_limiter"):
        internals.drop_default_rate_limit(workflow)


def test_pending_selection_timers_are_cancelled():
    fired = []
    timer = threading.Timer(30, lambda: fired.append(1))
    timer.start()
    assert internals.cancel_selection_timers() >= 1
    timer.join(5)
    assert not timer.is_alive() and not fired


def test_persistence_still_hashes_every_input_for_each_output():
    """What checksum_inputs_once answers: Persistence.finished's loop over the outputs, each hashing all
    the job's inputs through _IOFile.checksum."""
    import inspect

    from snakemake.io import _IOFile
    from snakemake.persistence import PersistenceBase
    source = inspect.getsource(PersistenceBase.finished)
    assert "for f in job.output:" in source and "await infile.checksum(self.max_checksum_file_size)" in source
    assert list(inspect.signature(_IOFile.checksum).parameters)[:4] == ["self", "threshold", "force", "algorithm"]


def counted_checksums(monkeypatch):
    """_IOFile.checksum counting what it hashes: (the names hashed, two input files)."""
    from snakemake.io import _IOFile
    hashed = []

    async def checksum(self, threshold=None, force=False, algorithm=None):
        hashed.append(str(self))
        return f"sha256:{self}"

    monkeypatch.setattr(_IOFile, "checksum", checksum)

    class File(str):
        pass

    return hashed, [File("a.txt"), File("b.txt")]


def test_a_finished_jobs_inputs_are_hashed_once(monkeypatch):
    import asyncio

    from snakemake.io import _IOFile
    hashed, inputs = counted_checksums(monkeypatch)

    async def finished(job):          # as Persistence.finished: every input, once per output
        return [[await _IOFile.checksum(f, 1000) for f in inputs] for _ in job]

    workflow = types.SimpleNamespace(persistence=types.SimpleNamespace(finished=finished))
    assert internals.checksum_inputs_once(workflow) is True
    assert internals.checksum_inputs_once(workflow) is False
    records = asyncio.run(workflow.persistence.finished(["out1", "out2", "out3"]))
    assert records == [["sha256:a.txt", "sha256:b.txt"]] * 3 and sorted(hashed) == ["a.txt", "b.txt"]
    asyncio.run(_IOFile.checksum(inputs[0], 1000))        # outside finished(): nothing kept
    asyncio.run(workflow.persistence.finished(["out1"]))  # another job: hashed again
    assert sorted(hashed) == ["a.txt", "a.txt", "a.txt", "b.txt", "b.txt"]


def test_a_rule_named_unhashed_records_no_input_checksums(monkeypatch):
    """checksum_inputs_once(unhashed=): the jobs of those rules hash none of their inputs (Snakemake's
    finished() leaves out a None checksum); the other rules' jobs hash theirs, once."""
    import asyncio

    from snakemake.io import _IOFile
    hashed, inputs = counted_checksums(monkeypatch)

    async def finished(job):
        return [[await _IOFile.checksum(f, 1000) for f in inputs] for _ in job.output]

    workflow = types.SimpleNamespace(persistence=types.SimpleNamespace(finished=finished))
    assert internals.checksum_inputs_once(workflow, unhashed={"links"}) is True

    def job(rule):
        return types.SimpleNamespace(rule=types.SimpleNamespace(name=rule), output=["out1", "out2"])

    assert asyncio.run(workflow.persistence.finished(job("links"))) == [[None, None]] * 2 and hashed == []
    assert asyncio.run(workflow.persistence.finished(job("page"))) == [["sha256:a.txt", "sha256:b.txt"]] * 2
    assert sorted(hashed) == ["a.txt", "b.txt"]


def test_a_job_still_looks_for_pipes_among_its_dependencies_outputs():
    """What pipes_looked_for_only_where_a_rule_has_one answers: Job.prepare asks of each input, and the
    answer looks through every dependency's pipe or service outputs."""
    import inspect

    from snakemake.jobs import Job
    assert "self.is_pipe_or_service_input(f)" in inspect.getsource(Job.prepare)
    look = inspect.getsource(getattr(Job.is_pipe_or_service_input, "only_with_pipes", None)
                             or Job.is_pipe_or_service_input)
    assert "self.dag.dependencies[self]" in look and "pipe_or_service_output" in look


def test_no_pipe_is_looked_for_where_no_rule_has_one(monkeypatch):
    from snakemake.io import IOFile, flag
    from snakemake.jobs import Job
    monkeypatch.setattr(Job, "is_pipe_or_service_input", Job.is_pipe_or_service_input)

    def workflow(*outputs):
        return types.SimpleNamespace(rules=[types.SimpleNamespace(output=list(outputs))])

    class Writer:                   # a dependency that writes "p" as a pipe
        pipe_or_service_output = {"p"}

    class Dependencies:
        asked = 0

        def __getitem__(self, job):
            Dependencies.asked += 1
            return {Writer(): {"p"}}

    def job(wf):
        return types.SimpleNamespace(dag=types.SimpleNamespace(workflow=wf, dependencies=Dependencies()))

    piped = workflow(IOFile(flag("p", "pipe")))
    assert internals.pipes_looked_for_only_where_a_rule_has_one(piped) is False
    plain = workflow(IOFile("a.txt"), IOFile("b.txt"))
    assert internals.pipes_looked_for_only_where_a_rule_has_one(plain) is True
    assert internals.pipes_looked_for_only_where_a_rule_has_one(plain) is False
    assert Job.is_pipe_or_service_input(job(plain), "p") is False and Dependencies.asked == 0
    # another workflow's jobs (one with pipes) are answered as Snakemake answers them
    assert Job.is_pipe_or_service_input(job(piped), "p") is True and Dependencies.asked == 1
    with pytest.raises(internals.SnakemakeInternalsChanged, match="workflow.rules"):
        internals.pipes_looked_for_only_where_a_rule_has_one(types.SimpleNamespace())


def test_a_moved_persistence_fails_loudly():
    with pytest.raises(internals.SnakemakeInternalsChanged, match="workflow.persistence"):
        internals.checksum_inputs_once(types.SimpleNamespace())


def test_the_metadata_cache_keeps_each_record_until_it_is_written_or_deleted(monkeypatch, tmp_path):
    from snakemake.persistence import MetadataRecord
    from snakemake.persistence.file import FilePersistence
    for name in ("_read_record_cached", "_write_record", "_delete_record"):
        monkeypatch.setattr(FilePersistence, name, getattr(FilePersistence, name))
    assert FilePersistence._read_record_cached.cache_parameters()["maxsize"] is not None
    assert internals.unbounded_metadata_cache() is True
    assert internals.unbounded_metadata_cache() is False
    read = []

    class StandIn(FilePersistence):     # FilePersistence's record methods, on records of our own
        def __init__(self):
            self._metadata_path, self._incomplete_cache = tmp_path, {"kept": True}

        def _io_read(self, path, key):
            read.append(key)
            return {}

        def _io_write(self, path, record, key):
            pass

        def _io_delete(self, path, key):
            return True

    stand_in = StandIn()
    keys = [f"k{i}" for i in range(500)]
    for _ in range(2):
        for key in keys:
            stand_in._read_record(key)
    assert read == keys                                   # each record read once, however many
    stand_in._clear_cache()                               # what Snakemake does as each job starts and ends
    assert stand_in._incomplete_cache is None
    stand_in._read_record("k0")
    assert len(read) == 500                               # records are kept: none of them changed
    # a record written or deleted is read anew, and only that one
    stand_in._write_record("k1", MetadataRecord())
    stand_in._read_record("k1")
    stand_in._delete_record("k2")
    stand_in._read_record("k2")
    stand_in._read_record("k3")
    assert read[500:] == ["k1", "k2"]


def test_records_are_written_in_one_call_and_read_by_orjson(monkeypatch, tmp_path):
    """faster_record_io: FilePersistence._io_write writes a record through json.dumps (the C encoder, one
    call: the text json.dump wrote, ASCII), _io_read reads it back through orjson, and a record written
    in part, even cut inside an escaped character, raises json's JSONDecodeError, which Snakemake takes
    for a record to ignore."""
    import io
    import json

    import orjson
    from snakemake.persistence import file as persistence_file
    monkeypatch.setattr(persistence_file, "json", json)
    assert internals.faster_record_io() is True
    assert internals.faster_record_io() is False
    record = {"rule": "page_b00", "input": [f"results/_entries/{i}.json" for i in range(50)],
              "input_checksums": {f"results/{i}": "ab" * 32 for i in range(50)},
              "params": ["Gradientenabstieg – é", None, 1.5], "incomplete": False}
    stand_in = types.SimpleNamespace(_record_path=lambda subject, key: str(Path(subject) / key))
    calls, read = [], []
    monkeypatch.setattr(json, "dumps", lambda *a, _dumps=json.dumps, **k: calls.append(1) or _dumps(*a, **k))
    monkeypatch.setattr(orjson, "loads", lambda *a, _loads=orjson.loads: read.append(1) or _loads(*a))
    persistence_file.FilePersistence._io_write(stand_in, str(tmp_path), record, "rec")
    expected = io.StringIO()
    json.dump(record, expected)
    text = (tmp_path / "rec").read_text(encoding="ascii")
    assert text == expected.getvalue() and calls == [1]
    assert persistence_file.FilePersistence._io_read(stand_in, str(tmp_path), "rec") == record and read == [1]
    cut = text.index("\\u2013") + 3
    (tmp_path / "part").write_text(text[:cut], encoding="ascii")
    with pytest.raises(json.JSONDecodeError), open(tmp_path / "part") as f:
        persistence_file.json.load(f)
    assert persistence_file.json.JSONDecodeError is json.JSONDecodeError


def test_a_moved_record_writer_fails_loudly(monkeypatch):
    from snakemake.persistence import file as persistence_file
    monkeypatch.delattr(persistence_file, "json")
    with pytest.raises(internals.SnakemakeInternalsChanged, match="snakemake.persistence.file.json"):
        internals.faster_record_io()


def test_producers_found_by_set_plan_the_same_jobs(tmp_path):
    """constant_outputs_as_a_set, installed by a Snakefile as common.smk does: the same jobs, for outputs
    with and without wildcards, as Snakemake's own Rule.is_producer."""
    import os
    import re
    import subprocess
    import sys
    (tmp_path / "Snakefile").write_text(
        "import os\n"
        "if os.environ.get('BY_SET'):\n"
        "    from glossary import snakemake_internals\n"
        "    assert snakemake_internals.constant_outputs_as_a_set()\n"
        "rule all:\n    input: 'c/y.out', 'c/z.out', 'b/x.txt'\n"
        "rule batch:\n    output: 'b/x.txt', 'b/w.txt'\n    shell: 'touch {output}'\n"
        "rule each:\n    input: 'b/w.txt'\n    output: 'c/{name}.out'\n    shell: 'touch {output}'\n")
    plans = []
    for by_set in ("", "1"):
        run = subprocess.run([sys.executable, "-m", "snakemake", "-n", "--cores", "1", "--quiet", "rules"],
                             cwd=tmp_path, capture_output=True, text=True,
                             env=dict(os.environ, BY_SET=by_set, PYTHONPATH=str(Path(internals.__file__).parents[1])))
        assert run.returncode == 0, run.stderr
        plans.append(sorted(set(re.findall(r"^(all|batch|each) +(\d+)$", run.stdout + run.stderr, re.M))))
    assert plans[0] == plans[1] == [("all", "1"), ("batch", "1"), ("each", "2")]


def test_a_remote_executors_interval_stays_at_most_the_setting(monkeypatch):
    """What the Slurm plugin does after each status check (sets its next interval, 10 s longer when
    no job ended), on a stand-in executor of Snakemake's RemoteExecutor class."""
    from snakemake_interface_executor_plugins.executors.remote import RemoteExecutor
    monkeypatch.setattr(RemoteExecutor, "next_seconds_between_status_checks",
                        RemoteExecutor.next_seconds_between_status_checks)
    settings = types.SimpleNamespace(seconds_between_status_checks=3)
    unused = dict.fromkeys(("run_job", "check_active_jobs", "cancel_jobs"), lambda *args: None)
    executor = object.__new__(type("StandIn", (RemoteExecutor,), unused))   # no __init__: no workflow
    executor.workflow = types.SimpleNamespace(remote_execution_settings=settings)
    executor._next_seconds_between_status_checks = None
    executor.next_seconds_between_status_checks = 41
    assert executor.next_seconds_between_status_checks == 41          # the plugin's own, unpatched
    assert internals.status_checks_at_most_the_setting() is True
    assert internals.status_checks_at_most_the_setting() is False
    for plugin_sets, waits in ((1, 1), (11, 3), (41, 3), (None, 3)):    # None: Snakemake's setting
        executor.next_seconds_between_status_checks = plugin_sets
        assert executor.next_seconds_between_status_checks == waits


def test_a_moved_status_interval_fails_loudly(monkeypatch):
    from snakemake_interface_executor_plugins.executors.remote import RemoteExecutor
    monkeypatch.setattr(RemoteExecutor, "next_seconds_between_status_checks", property(lambda self: 10))
    with pytest.raises(internals.SnakemakeInternalsChanged, match="next_seconds_between_status_checks"):
        internals.status_checks_at_most_the_setting()


def test_an_output_inside_another_jobs_output_is_refused_as_before(tmp_path):
    """nested_outputs_found_by_parents, installed as common.smk does: an output inside another job's
    directory output is refused with Snakemake's own message, with or without it; one inside its own
    job's, or beside it, is not."""
    import os
    import subprocess
    import sys
    nested = (
        "rule all:\n    input: 'd', 'd/sub/x.txt', 'e/z.txt'\n"
        "rule folder:\n    output: directory('d')\n    shell: 'mkdir -p {output}'\n"
        "rule inside:\n    output: 'd/sub/x.txt'\n    shell: 'touch {output}'\n"
        "rule own:\n    output: directory('e'), 'e/z.txt'\n    shell: 'mkdir -p e && touch e/z.txt'\n")
    fine = nested.replace("'d/sub/x.txt',", "'dd/x.txt',").replace("output: 'd/sub/x.txt'", "output: 'dd/x.txt'")
    for text, refused in ((nested, True), (fine, False)):
        outcomes = []
        for by_parents in ("", "1"):
            (tmp_path / "Snakefile").write_text(
                "import os\n"
                "if os.environ.get('BY_PARENTS'):\n"
                "    from glossary import snakemake_internals\n"
                "    assert snakemake_internals.nested_outputs_found_by_parents()\n" + text)
            run = subprocess.run([sys.executable, "-m", "snakemake", "-n", "--cores", "1", "--quiet", "rules"],
                                 cwd=tmp_path, capture_output=True, text=True,
                                 env=dict(os.environ, BY_PARENTS=by_parents,
                                          PYTHONPATH=str(Path(internals.__file__).parents[1])))
            outcomes.append((run.returncode != 0, "is a child to another output" in run.stdout + run.stderr))
        assert outcomes == [(refused, refused)] * 2, outcomes


def test_a_moved_directory_check_fails_loudly(monkeypatch):
    from snakemake.dag import DAG
    monkeypatch.delattr(DAG, "check_directory_outputs")
    with pytest.raises(internals.SnakemakeInternalsChanged, match="snakemake.dag.DAG.check_directory_outputs"):
        internals.nested_outputs_found_by_parents()


def test_producers_looked_up_by_prefix_are_snakemakes(monkeypatch):
    """producers_looked_up_by_prefix: for every file, the rules OutputIndex.match finds by its own
    sorted prefixes (outputs with and without wildcards, prefixes of one another, the empty one)."""
    import itertools

    from snakemake.output_index import OutputIndex
    for name in ("__init__", "match"):
        monkeypatch.setattr(OutputIndex, name, getattr(OutputIndex, name))

    class Product:
        def __init__(self, prefix, suffix):
            self.prefix, self.suffix = prefix, suffix

        def constant_prefix(self):
            return self.prefix

        def constant_suffix(self):
            return self.suffix

    class Rule:
        def __init__(self, name, *products):
            self.name, self._products = name, [Product(*p) for p in products]

        def products(self):
            return self._products

        def __repr__(self):
            return self.name

    rules = [Rule("page", *[(f"results/site/terms/{s}.html", "") for s in ("a", "ab", "b")]),
             Rule("figure", ("results/site/terms/", ".svg"), ("results/site/terms/", ".pdf")),
             Rule("each", ("results/", ".json")), Rule("anything", ("", ".txt")), Rule("html", ("results/", ".html")),
             Rule("log", ("logs/page/", ".log"))]
    targets = ["".join(t) for t in itertools.product(
        ["", "results/", "results/site/terms/", "logs/page/", "x/"], ["a", "ab", "b", "abc", ""],
        [".html", ".svg", ".pdf", ".json", ".txt", ".log", ""])]
    theirs = OutputIndex(rules)
    expected = {t: theirs.match(t) for t in targets}
    assert internals.producers_looked_up_by_prefix() is True
    assert internals.producers_looked_up_by_prefix() is False
    ours = OutputIndex(rules)
    assert {t: ours.match(t) for t in targets} == expected
    # the cases find rules, some several
    assert sum(map(bool, expected.values())) > 40 and any(len(found) > 1 for found in expected.values())


def test_a_moved_output_index_fails_loudly(monkeypatch):
    from snakemake.output_index import OutputIndex
    monkeypatch.delattr(OutputIndex, "match")
    with pytest.raises(internals.SnakemakeInternalsChanged, match="snakemake.output_index.OutputIndex.match"):
        internals.producers_looked_up_by_prefix()
