"""Deterministic JSON: sorted keys, fixed indentation, exact floats, final newline."""
import json
from pathlib import Path


def dumps(obj):
    return json.dumps(obj, sort_keys=True, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def write(path, obj):
    Path(path).write_text(dumps(obj), encoding="utf-8")


def read(path):
    return json.loads(Path(path).read_text(encoding="utf-8"))
