"""Which modules of the shared package a script imports, directly or through other modules.

A rule's library inputs are derived from its script's imports, so that editing any module a
job imports, however indirectly, reruns that job: nothing is kept by hand.
"""
import hashlib
import re
from functools import lru_cache
from pathlib import Path

PACKAGE = "glossary"
# An import statement at the start of a line: `import a.b as c, d` or `from a.b import (c, d)`, its
# names running on over parentheses and backslashed line ends.  A scan, not a parse: ast.parse of the
# package's megabyte of source was a quarter of a second of every clean build's parse, and the scan
# takes milliseconds.  tests/test_derived_inputs.py checks that it finds what ast finds in every module.
_STATEMENT = re.compile(
    r"^[ \t]*(?:import[ \t]+(?P<names>(?:[^\n#;\\]|\\\n)+)"
    r"|from[ \t]+(?P<module>[\w.]+)[ \t]+import[ \t]+(?P<items>\((?:[^)#]|#[^\n]*)*\)|(?:[^\n#;\\(]|\\\n)+))",
    re.M)
# a name in a list of them, less its `as` part and the comments of a parenthesized list
_NAME = re.compile(r"^\s*([\w.*]+)")


def _names(listed):
    listed = re.sub(r"#[^\n]*", "", listed.strip("()")).replace("\\\n", " ")
    return [m.group(1) for m in map(_NAME.match, listed.split(",")) if m]


@lru_cache(maxsize=None)
def imported(path):
    """Names of the modules one file imports, anywhere in it (lazy imports in functions too), each file
    scanned once per process however many scripts' closures hold it.  A line in a string that reads as
    an import counts too: an input too many reruns a job needlessly, one too few would leave it stale."""
    names = set()
    for found in _STATEMENT.finditer(Path(path).read_text(encoding="utf-8")):
        if found["names"]:
            names.update(_names(found["names"]))
        elif not found["module"].startswith("."):
            names.add(found["module"])
            # `from glossary import pages` names the module glossary.pages
            names.update(f"{found['module']}.{name}" for name in _names(found["items"]))
    return names


@lru_cache(maxsize=None)
def _module_file(name, src):
    parts = name.split(".")
    if parts[0] != PACKAGE:
        return None
    base = Path(src).joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


@lru_cache(maxsize=None)
def closure(path, src="src"):
    """Every file of the package that `path` imports, transitively, with the package's __init__,
    as sorted relative paths (workflow inputs)."""
    seen, todo = set(), [Path(path)]
    while todo:
        for name in imported(str(todo.pop())):
            found = _module_file(name, src)
            if found is not None and found not in seen:
                seen.add(found)
                todo.append(found)
    if seen:
        seen.add(Path(src) / PACKAGE / "__init__.py")
    return sorted(p.as_posix() for p in seen)


def digest(path, src="src"):
    """{module, relative to `src`: the sha256 of its bytes} of closure(path): what a rule's one library
    input holds (glossary.plan.Plan.lib)."""
    return {Path(p).relative_to(src).as_posix(): file_sha256(p) for p in closure(path, src)}


@lru_cache(maxsize=None)
def file_sha256(path):
    """Once per process, as closure() is: a workflow's parse asks for each module once per script."""
    return _sha256(Path(path))


def _sha256(path):
    """The sha256 of a file's bytes; None for one deleted since its closure was found."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return None
