"""glossary.snakemake_internals, the one module that reaches inside Snakemake, against the
Snakemake that is installed: what it touches is there, and it says so loudly when it is not."""
import threading
import types

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


def test_a_finished_jobs_inputs_are_hashed_once(monkeypatch):
    import asyncio

    from snakemake.io import _IOFile
    hashed = []

    async def checksum(self, threshold=None, force=False, algorithm=None):
        hashed.append(str(self))
        return f"sha256:{self}"

    monkeypatch.setattr(_IOFile, "checksum", checksum)

    class File(str):
        pass

    inputs = [File("a.txt"), File("b.txt")]

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


def test_a_moved_persistence_fails_loudly():
    with pytest.raises(internals.SnakemakeInternalsChanged, match="workflow.persistence"):
        internals.checksum_inputs_once(types.SimpleNamespace())
