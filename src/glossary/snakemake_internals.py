"""The only place where this project reaches inside Snakemake (pinned: snakemake 9.27.1).

Fragile by nature: every attribute used here is Snakemake's private business and may move in
any release.  Each function checks that what it touches is there and raises
SnakemakeInternalsChanged, naming the attribute, when it is not, so a Snakemake upgrade fails
loudly instead of silently losing the behaviour; tests/test_snakemake_internals.py runs them
against the installed Snakemake.  Nothing else in the project touches Snakemake's internals.
"""
import contextvars
import json
import threading
import types

from glossary import jsonio

# The rate limit Snakemake's command line always sets (--max-jobs-per-timespan 100/1s).
DEFAULT_RATE_LIMIT = (100, 1)


class SnakemakeInternalsChanged(RuntimeError):
    pass


def _attribute(obj, name, where):
    if not hasattr(obj, name):
        raise SnakemakeInternalsChanged(
            f"Snakemake has no {where}.{name} any more: glossary.snakemake_internals needs updating "
            "for this Snakemake version (or pin the version requirements.lock names)")
    return getattr(obj, name)


def drop_default_rate_limit(workflow):
    """Remove the default job rate limit from a local run.

    With any rate limit, each pass of Snakemake's job selection starts a timer for another pass
    one timespan later, and every finished job starts such a chain: the main process ends up
    re-selecting jobs many times a second and takes a core from the jobs.  Local jobs here take
    one core each and at least 0.1 s, so the default limit never holds one back.  A limit set
    on purpose (another value, a cluster executor) stays.  Upstream, a public way to switch the
    limit off (e.g. `--max-jobs-per-timespan none`) would make this function unnecessary.
    Returns True when the limit was dropped.
    """
    scheduler = _attribute(workflow, "scheduler", "workflow")
    limiter = _attribute(scheduler, "job_rate_limiter", "workflow.scheduler")
    if limiter is None or not workflow.local_exec:
        return False
    where = "workflow.scheduler.job_rate_limiter"
    pair = (_attribute(limiter, "max_jobs", where), _attribute(limiter, "timespan", where))
    if pair != DEFAULT_RATE_LIMIT:
        return False
    scheduler.job_rate_limiter = None
    return True


def cancel_selection_timers():
    """Where a rate limit stays, Snakemake re-runs its job selection on threading.Timer threads and
    Python waits for them before it exits: once the workflow is over, nothing is left to select."""
    cancelled = 0
    for thread in threading.enumerate():
        if isinstance(thread, threading.Timer):
            thread.cancel()
            cancelled += 1
    return cancelled


# The checksums of one finished job's inputs, while Snakemake records its outputs' metadata.
_JOB_CHECKSUMS = contextvars.ContextVar("glossary_job_checksums", default=None)
# the job that finished is of a rule whose inputs are not hashed
_UNHASHED = object()


def checksum_inputs_once(workflow, unhashed=()):
    """Hash each input of a finished job once, not once for each of its outputs, and not at all for a
    job of the rules named in `unhashed`.

    Persistence.finished records with each output the checksum of every input of the job, and
    computes them again for each output: a page batch of 96 outputs and 300 inputs hashed 28,800
    files in Snakemake's own process, which took a core from the jobs.  While one finished() runs,
    the inputs do not change (the job is over), so each checksum is kept for its other outputs;
    outside finished() nothing is kept.  The records are the same.

    A recorded checksum lets a job whose input was rewritten with the same bytes stay undone.  A rule
    whose job reruns after any edit anyway (the site's link check, which reads every page) gains nothing
    from its inputs' checksums, and hashing its 18,000 inputs at 5,000 terms took 1.4 s of Snakemake's
    own thread at each edit: its records keep none (Snakemake then compares the inputs' times alone, as
    for a file above --max-checksum-file-size).  Returns True when installed (False: it already was)."""
    from snakemake.io import _IOFile
    persistence = _attribute(workflow, "persistence", "workflow")
    finished = _attribute(persistence, "finished", "workflow.persistence")
    checksum = _attribute(_IOFile, "checksum", "snakemake.io._IOFile")
    if getattr(checksum, "once_per_job", False):
        return False

    async def once(self, threshold=None, force=False, algorithm=None):
        memo = _JOB_CHECKSUMS.get()
        if memo is None or force or algorithm is not None:
            return await checksum(self, threshold, force, algorithm)
        if memo is _UNHASHED:
            return None
        key = (str(self), threshold)
        if key not in memo:
            memo[key] = await checksum(self, threshold)
        return memo[key]

    skipped = frozenset(unhashed)

    async def finished_once(job, *args, **kwargs):
        rule = getattr(getattr(job, "rule", None), "name", None)
        token = _JOB_CHECKSUMS.set(_UNHASHED if rule in skipped else {})
        try:
            return await finished(job, *args, **kwargs)
        finally:
            _JOB_CHECKSUMS.reset(token)

    once.once_per_job = True
    _IOFile.checksum = once
    persistence.finished = finished_once
    return True


def pipes_looked_for_only_where_a_rule_has_one(workflow):
    """Answer "is this input a pipe or a service?" without a look where no rule has such an output.

    Job.prepare asks it of each input of a job about to run, and Job.is_pipe_or_service_input looks for
    the input among the outputs of each of the job's dependencies in turn: for the link check, every
    page of the site against every job that made one, in Snakemake's own process.  When no rule of the
    workflow flags an output pipe() or service(), no job has such an output and the answer is False.
    Install it once every rule is defined (onstart).  Returns True when installed (False: a rule has
    such an output, or it already was)."""
    from snakemake.io import is_flagged
    from snakemake.jobs import Job
    where = "snakemake.jobs.Job"
    look = _attribute(Job, "is_pipe_or_service_input", where)
    rules = _attribute(workflow, "rules", "workflow")
    if getattr(look, "only_with_pipes", None) is not None:
        return False
    if any(is_flagged(f, "pipe") or is_flagged(f, "service") for rule in rules for f in rule.output):
        return False

    def only_with_pipes(self, path):
        if self.dag.workflow is workflow:
            return False
        return look(self, path)

    only_with_pipes.only_with_pipes = look
    Job.is_pipe_or_service_input = only_with_pipes
    return True


def unbounded_metadata_cache():
    """Keep every metadata record read until that record is written or deleted.

    FilePersistence reads each output's record (.snakemake/metadata/) through an lru_cache of
    Snakemake's default size, 128; the real dictionary's build has 4,435 records, so each was read
    from disk about seven times while the DAG was built (29,856 reads).  And Snakemake clears the
    whole cache (_clear_cache) whenever a job starts or ends, though only that job's records change.
    Here each record is kept until it is written or deleted (where Snakemake changes records);
    _clear_cache still forgets what else it keeps (the incomplete markers).  Returns True when
    installed."""
    from snakemake.persistence.file import FilePersistence
    where = "snakemake.persistence.file.FilePersistence"
    cached = _attribute(FilePersistence, "_read_record_cached", where)
    _attribute(FilePersistence, "_clear_cache", where)
    write = _attribute(FilePersistence, "_write_record", where)
    delete = _attribute(FilePersistence, "_delete_record", where)
    if getattr(cached, "kept_until_changed", False):
        return False
    read = _attribute(cached, "__wrapped__", "FilePersistence._read_record_cached")

    def records(self):
        return self.__dict__.setdefault("_glossary_records", {})

    def kept(self, key):
        found = records(self)
        if key not in found:
            found[key] = read(self, key)
        return found[key]

    def written(self, key, record):
        try:
            return write(self, key, record)
        finally:
            records(self).pop(key, None)

    def deleted(self, key):
        try:
            return delete(self, key)
        finally:
            records(self).pop(key, None)

    kept.kept_until_changed = True
    # Snakemake's _clear_cache calls this on the method it replaces (and forgets the incomplete markers)
    kept.cache_clear = lambda: None
    FilePersistence._read_record_cached = kept
    FilePersistence._write_record = written
    FilePersistence._delete_record = deleted
    return True


def faster_record_io():
    """Write each metadata record with json.dumps, not json.dump, and read it with orjson.

    FilePersistence._io_write writes a record with json.dump, which always takes the json module's
    Python encoder, chunk by chunk; json.dumps takes its C encoder and gives the same text (ASCII, as
    Snakemake opens records in the locale's encoding).  A build writes one record per output, each
    listing its job's inputs and their checksums: the Python encoder was half of the time Snakemake
    spent recording finished jobs.  _io_read and the incomplete markers read with json.load; orjson
    (glossary.jsonio.loads) reads the 3,300 records (50 MB) of an edit at 5,000 terms in 0.12 s rather
    than 0.23 s, and a record written in part still raises json.JSONDecodeError, which Snakemake takes
    for a record to ignore.  Returns True when installed."""
    from snakemake.persistence import file as persistence_file
    module = _attribute(persistence_file, "json", "snakemake.persistence.file")
    _attribute(persistence_file.FilePersistence, "_io_write", "snakemake.persistence.file.FilePersistence")
    _attribute(persistence_file.FilePersistence, "_io_read", "snakemake.persistence.file.FilePersistence")
    if getattr(module, "faster", False):
        return False
    if module is not json:
        raise SnakemakeInternalsChanged("snakemake.persistence.file.json is not the json module any more: "
                                        "glossary.snakemake_internals needs updating")

    def dump(obj, fp, **kwargs):
        fp.write(json.dumps(obj, **kwargs))

    def load(fp, **kwargs):
        return jsonio.loads(fp.read()) if not kwargs else json.load(fp, **kwargs)

    shim = types.ModuleType("json")
    shim.__dict__.update({k: v for k, v in vars(json).items() if not k.startswith("__")},
                         dump=dump, load=load, faster=True)
    persistence_file.json = shim
    return True


def constant_outputs_as_a_set():
    """Look an output without wildcards up in a set, not by trying each output's regular expression.

    Rule.is_producer tries every output (and log) of a rule in turn; a batch rule lists 96 to 384
    files, and the DAG asks for the producer of every input of every job: 716,275 matches for the
    real dictionary's DAG.  A name without wildcards matches only itself (its expression is the escaped
    name and `$`), so those are a set; outputs with wildcards are tried as before.  Returns True when
    installed."""
    from snakemake.rules import Rule
    is_producer = _attribute(Rule, "is_producer", "snakemake.rules.Rule")
    _attribute(Rule, "products", "snakemake.rules.Rule")
    if getattr(is_producer, "by_set", False):
        return False

    def by_set(self, requested_output):
        products = list(self.products())
        # kept on the rule itself: an id() could be another rule's once this one is gone
        known = self.__dict__.get("_glossary_constant_outputs")
        if known is None or known[0] != len(products):
            constant = {str(p) for p in products if not p.get_wildcard_names()}
            known = self.__dict__["_glossary_constant_outputs"] = (len(products), constant,
                                                                   len(constant) < len(products))
        if str(requested_output) in known[1]:
            return True
        # a rule with wildcards in its outputs: Snakemake's own answer (and its errors)
        return is_producer(self, requested_output) if known[2] else False

    by_set.by_set = True
    Rule.is_producer = by_set
    return True


def nested_outputs_found_by_parents():
    """Look for an output inside another job's output by its parent folders, not by sorting paths.

    DAG.check_directory_outputs sorts every output of every job as a pathlib path and compares the
    neighbours: with 18,000 outputs at 5,000 terms that took 0.7 s of each build's DAG.  Each output's
    parent folders are looked up among the outputs instead: every output inside another job's output
    raises the same ChildIOException (the sorted neighbours caught only those that end up side by
    side).  Returns True when installed."""
    import os
    from pathlib import Path

    from snakemake.dag import DAG
    from snakemake.exceptions import ChildIOException
    check = _attribute(DAG, "check_directory_outputs", "snakemake.dag.DAG")
    _attribute(DAG, "jobs", "snakemake.dag.DAG")
    if getattr(check, "by_parents", False):
        return False

    def by_parents(self):
        owner = {}
        for job in self.jobs:
            for f in job.output:
                owner.setdefault(os.path.abspath(f), job)
        for path in sorted(owner):
            job, folder = owner[path], os.path.dirname(path)
            while folder and folder != os.path.dirname(folder):
                other = owner.get(folder)
                if other is not None and other != job:
                    raise ChildIOException(parent=(Path(folder), other), child=(Path(path), job))
                folder = os.path.dirname(folder)

    by_parents.by_parents = True
    DAG.check_directory_outputs = by_parents
    return True


def producers_looked_up_by_prefix():
    """Find the rules whose outputs may produce a file by a dict of their outputs' constant prefixes.

    OutputIndex.match walks a sorted list of every output's prefix, comparing strings character by
    character in Python: at 5,000 terms the DAG asks it for 60,000 files, 1.4 s.  The same rules (those
    with an output whose constant prefix starts the file's name and whose constant suffix ends it) are
    found by looking each of the name's beginnings up in a dict.  Returns True when installed."""
    from snakemake.output_index import OutputIndex
    where = "snakemake.output_index.OutputIndex"
    init = _attribute(OutputIndex, "__init__", where)
    match = _attribute(OutputIndex, "match", where)
    if getattr(match, "by_prefix", False):
        return False

    def indexed(self, rules):
        init(self, rules)
        by_prefix = {}
        for rule in rules:
            for product in rule.products():
                by_prefix.setdefault(str(product.constant_prefix()), []).append((rule, str(product.constant_suffix())))
        # the lengths of the prefixes: a file's beginnings of those lengths are looked up
        self._glossary_prefixes = by_prefix, sorted({len(p) for p in by_prefix})

    def by_prefix(self, targetfile):
        prefixes, lengths = self._glossary_prefixes
        found = set()
        for length in lengths:
            if length > len(targetfile):
                break
            for rule, suffix in prefixes.get(targetfile[:length], ()):
                if targetfile.endswith(suffix):
                    found.add(rule)
        return found

    by_prefix.by_prefix = True
    OutputIndex.__init__ = indexed
    OutputIndex.match = by_prefix
    return True


def status_checks_at_most_the_setting():
    """Let a remote executor wait at most --seconds-between-status-checks between status checks.

    The Slurm plugin sets its own next interval after each check: back to its initial one when a
    job ended, else 10 s longer, up to 180 s, whatever Snakemake's setting says.  A job that ends
    while the interval has grown waits that long to be seen, and its dependants with it: on the
    throwaway localhost cluster most of a build was such waiting.  The plugin's intervals are kept
    below the setting (Snakemake's default 10 s; profiles/slurm names it).  Returns True when
    installed."""
    from snakemake_interface_executor_plugins.executors.remote import RemoteExecutor
    where = "snakemake_interface_executor_plugins.executors.remote.RemoteExecutor"
    interval = _attribute(RemoteExecutor, "next_seconds_between_status_checks", where)
    if not isinstance(interval, property) or interval.fset is None:
        raise SnakemakeInternalsChanged(f"{where}.next_seconds_between_status_checks is no settable property "
                                        "any more: glossary.snakemake_internals needs updating")
    if getattr(interval.fset, "at_most_the_setting", False):
        return False

    def capped(self, value):
        most = self.workflow.remote_execution_settings.seconds_between_status_checks
        interval.fset(self, value if value is None or most is None else min(value, most))

    capped.at_most_the_setting = True
    RemoteExecutor.next_seconds_between_status_checks = property(interval.fget, capped)
    return True
