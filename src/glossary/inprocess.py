"""A rule's script run in Snakemake's own process: its `run:` block hands the job to script(), which runs
scripts/<name>.py as the `script:` directive would (a global `snakemake` holding the job's input, output,
params, wildcards, log and config), without a Python process and its imports for each job.

Snakemake runs a `run:` job in a thread of its process when started with --force-use-threads (the
workflow profile, profiles/default, sets it), two at a time with --cores 2: a job's writes to sys.stderr
(its prints, warnings) go to its own log through the process's one stderr, which tells the threads
apart.  A failing script leaves its traceback in the log, where the build's error message reads it
(glossary.build.explain_log), as a script's own process would.  The jobs that must run in a process of
their own (a demo's, on the pinned numeric platform; matplotlib's) keep the `script:` directive.
"""
import os
import runpy
import sys
import threading
import traceback
from pathlib import Path
from types import SimpleNamespace

_job = threading.local()


class JobStderr:
    """sys.stderr of Snakemake's process: a job thread's writes go to its log, the rest to the stream."""

    def __init__(self, stream):
        self.stream = stream

    def target(self):
        return getattr(_job, "log", None) or self.stream

    def write(self, text):
        return self.target().write(text)

    def flush(self):
        self.target().flush()

    def __getattr__(self, name):
        return getattr(self.target(), name)


def routed():
    """Route sys.stderr through JobStderr, once per process."""
    if not isinstance(sys.stderr, JobStderr):
        sys.stderr = JobStderr(sys.stderr)


def temporary(path, suffix=".tmp"):
    """A name beside `path` that no other job writes to before its os.replace: the jobs in Snakemake's
    process share its pid, so the name holds the thread's too."""
    path = Path(path)
    return path.with_name(f"{path.name}.{os.getpid()}.{threading.get_ident()}{suffix}")


class ScriptFailed(Exception):
    """A script ended with a non-zero sys.exit(): its log says why."""


def script(path, input, output, params, wildcards, threads, log, config):
    """Run the script at `path` for one job, its stderr in the job's log (its `job` log where it has several)."""
    routed()
    path = str(Path(path).resolve())
    job = SimpleNamespace(input=input, output=output, params=params, wildcards=wildcards, threads=threads,
                          log=log, config=config)
    own = getattr(log, "job", None) or log[0]
    with open(own, "w", encoding="utf-8", buffering=1) as stream:
        _job.log = stream
        try:
            runpy.run_path(path, init_globals={"snakemake": job}, run_name="__main__")
        except SystemExit as stop:
            if stop.code not in (None, 0):
                raise ScriptFailed(f"{Path(path).name} exited with {stop.code}; see {own}") from None
        except BaseException as err:
            # the frames from the script's own on, as its process would have printed them
            tb = err.__traceback__
            while tb is not None and tb.tb_frame.f_code.co_filename != path:
                tb = tb.tb_next
            traceback.print_exception(type(err), err, tb or err.__traceback__, file=stream)
            raise
        finally:
            _job.log = None
