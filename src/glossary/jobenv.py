"""The environment every job of the workflow starts from (Snakemake's own, which its jobs inherit)."""
import compileall
import os
from pathlib import Path

from glossary import numeric


def prepare(basedir, numeric_env, environ=os.environ):
    """The pinned numeric platform, the shared package importable, matplotlib without a display."""
    numeric.apply(numeric_env, environ)
    src = str(Path(basedir) / "src")
    rest = [p for p in environ.get("PYTHONPATH", "").split(os.pathsep) if p and p != src]
    environ["PYTHONPATH"] = os.pathsep.join([src, *rest])
    environ["MPLBACKEND"] = "Agg"
    # Every job imports the package: compiled here once for all of them, since where the environment sets
    # PYTHONDONTWRITEBYTECODE (which stops only Python's own writes) each job would compile it again.
    compileall.compile_dir(Path(src) / "glossary", quiet=2)


def beside_the_book():
    """Lower this job's priority (nice 10): a whole-site job (the search index, the link check) that runs
    beside the book, whose pdflatex and join an edit waits for, lets them come first on a busy machine.
    Where the system forbids it (a sandbox), the job runs at the priority it has."""
    try:
        os.nice(10)
    except OSError:
        pass
