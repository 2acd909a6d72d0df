"""Deterministic JSON: sorted keys, fixed indentation, exact floats, final newline."""
import json
from pathlib import Path


def dumps(obj, compact=False):
    """compact: on one line, for large files that only jobs read (json's C encoder, where indenting
    takes its Python one)."""
    if compact:
        return json.dumps(obj, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False) + "\n"
    return json.dumps(obj, sort_keys=True, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def write(path, obj, compact=False):
    Path(path).write_text(dumps(obj, compact), encoding="utf-8")


def read(path):
    return json.loads(Path(path).read_text(encoding="utf-8"))
