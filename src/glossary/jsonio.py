"""Deterministic JSON: sorted keys, fixed indentation, exact floats, final newline.

The large files that only jobs read (compact) are written and every file is read with orjson, which
parses and writes these files 2-4 times as fast as json (the catalog's 54 MB of views at 5,000 terms:
0.08 s rather than 0.35 s) and gives json's compact bytes for the data they hold."""
import json
from pathlib import Path

import orjson

# sorted keys as json's sort_keys; numpy's numbers as numbers, where json takes a float's subclass
COMPACT = orjson.OPT_SORT_KEYS | orjson.OPT_NON_STR_KEYS | orjson.OPT_SERIALIZE_NUMPY


def dumps(obj, compact=False):
    """compact: on one line, for large files that only jobs read; else indented, for files people read."""
    if compact:
        return _compact(obj).decode("utf-8")
    return json.dumps(obj, sort_keys=True, indent=1, ensure_ascii=False, allow_nan=False) + "\n"


def _compact(obj):
    return orjson.dumps(obj, option=COMPACT) + b"\n"


def write(path, obj, compact=False):
    if compact:
        Path(path).write_bytes(_compact(obj))
    else:
        Path(path).write_text(dumps(obj), encoding="utf-8")


def read(path):
    return loads(Path(path).read_bytes())


def loads(data):
    """The value of JSON text (bytes or str); what is not strict JSON (NaN, a lone surrogate) is left to
    json, which reads it or says where it fails as it always has."""
    try:
        return orjson.loads(data)
    except orjson.JSONDecodeError:
        return json.loads(data)
