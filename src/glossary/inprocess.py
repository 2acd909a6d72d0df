"""A rule's script run in Snakemake's own process: its `run:` block hands the job to script(), which runs
scripts/<name>.py as the `script:` directive would (a global `snakemake` holding the job's input, output,
params, wildcards, threads, log and config), without a Python process and its imports for each job.

Snakemake runs a `run:` job in a thread of its process when started with --force-use-threads (the
workflow profile, profiles/default, sets it), two at a time with --cores 2: a job's writes to sys.stderr
(its prints, warnings) go to its own log through the process's one stderr, which tells the threads
apart.  A failing script leaves its traceback in the log, where the build's error message reads it
(glossary.build.explain_log), as a script's own process would.  The jobs that must run in a process of
their own keep the `script:` directive: a demo's (on the pinned numeric platform), and the few over the
whole site (the catalog, the search index, the link check, the book), whose memory and Python time at
thousands of terms belong in a process of their own, which an interrupt also stops at once.
"""
import builtins
import os
import sys
import threading
import traceback
from pathlib import Path
from types import SimpleNamespace

_job = threading.local()
_routing = threading.Lock()


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
    """Route sys.stderr through JobStderr, once per process (the Snakefile calls it before any job)."""
    with _routing:
        if not isinstance(sys.stderr, JobStderr):
            sys.stderr = JobStderr(sys.stderr)


def current_log():
    """The log of the job running in this thread (None outside a job)."""
    return getattr(_job, "log", None)


def adopt(log):
    """A thread a job starts (its ThreadPoolExecutor's initializer) writes to the job's log too."""
    _job.log = log


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
    # its own globals, as a script's process has: not runpy, which swaps sys.modules["__main__"] and
    # sys.argv for the whole process, and two jobs at once would leave each other's in place
    scope = {"__name__": "__main__", "__file__": path, "__builtins__": builtins, "snakemake": job}
    with open(own, "w", encoding="utf-8", buffering=1) as stream:
        _job.log = stream
        try:
            exec(compile(Path(path).read_bytes(), path, "exec"), scope)
        except SystemExit as stop:
            if stop.code in (None, 0):
                return
            if not isinstance(stop.code, int):      # as Python prints sys.exit("why") on its way out
                print(stop.code, file=stream)
            raise ScriptFailed(f"{Path(path).name} exited with {stop.code}; see {own}") from None
        except BaseException as err:
            # the frames from the script's own on, as its process would have printed them; a script that
            # does not compile has none (the SyntaxError names its file and line)
            tb = err.__traceback__
            while tb is not None and tb.tb_frame.f_code.co_filename != path:
                tb = tb.tb_next
            if tb is None:
                stream.write("".join(traceback.format_exception_only(type(err), err)))
            else:
                traceback.print_exception(type(err), err, tb, file=stream)
            raise
        finally:
            _job.log = None
            scope.clear()
