"""Snakemake logger plugin `glossary`: Snakemake's log events as JSON lines on stdout.

`make site`, `make slurm` and the preview run Snakemake with `--logger glossary` and read
these lines (glossary.build) for progress and failures, instead of Snakemake's screen text.
Found by Snakemake's plugin registry by its module name when src/ is on PYTHONPATH.
One line per event: {"event": "<LogEvent value>", ...fields}.
"""
import json
import sys
from logging import LogRecord

from snakemake_interface_logger_plugins.base import LogHandlerBase
from snakemake_interface_logger_plugins.common import LogEvent

# The fields kept of each event (Snakemake's record attributes), all plain data.
FIELDS = {
    LogEvent.JOB_INFO: ("jobid", "rule_name", "rule_msg", "log", "output", "wildcards", "local"),
    LogEvent.JOB_STARTED: ("jobs",),
    LogEvent.JOB_FINISHED: ("job_id",),
    LogEvent.JOB_ERROR: ("jobid", "rule_name", "rule_msg", "log", "output", "shellcmd"),
    LogEvent.GROUP_ERROR: ("groupid", "aux_logs", "job_error_info"),
    LogEvent.PROGRESS: ("done", "total"),
    LogEvent.RUN_INFO: ("stats",),
    LogEvent.ERROR: ("exception",),
}


def plain(value):
    """Snakemake's values (named lists, wildcards, iterators) as JSON data."""
    if isinstance(value, (str, int, float, bool)) or value is None:
        return value
    if isinstance(value, dict):
        return {str(k): plain(v) for k, v in value.items()}
    if hasattr(value, "items"):
        return {str(k): plain(v) for k, v in value.items()}
    try:
        return [plain(v) for v in value]
    except TypeError:
        return str(value)


class LogHandler(LogHandlerBase):
    def __post_init__(self):
        self.stream = sys.stdout

    def emit(self, record: LogRecord) -> None:
        event = getattr(record, "event", None)
        if event in FIELDS:
            line = {"event": str(event)}
            line.update({f: plain(getattr(record, f, None)) for f in FIELDS[event]})
            if event == LogEvent.ERROR:
                line["message"] = record.getMessage()
        elif record.levelname in ("WARNING", "ERROR", "CRITICAL"):
            line = {"event": "text", "level": record.levelname, "message": record.getMessage()}
        else:
            return
        try:
            self.stream.write(json.dumps(line, sort_keys=True) + "\n")
            self.stream.flush()
        except (BrokenPipeError, ValueError):
            pass    # the reader is gone (an interrupted build): nothing left to tell

    @property
    def writes_to_stream(self) -> bool:
        return True

    @property
    def writes_to_file(self) -> bool:
        return False

    @property
    def has_filter(self) -> bool:
        return True

    @property
    def has_formatter(self) -> bool:
        return True

    @property
    def needs_rulegraph(self) -> bool:
        return False
