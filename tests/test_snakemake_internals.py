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
