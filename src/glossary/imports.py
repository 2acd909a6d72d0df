"""Which modules of the shared package a script imports, directly or through other modules.

A rule's library inputs are derived from its script's imports, so that editing any module a
job imports, however indirectly, reruns that job: nothing is kept by hand.
"""
import ast
from functools import lru_cache
from pathlib import Path

PACKAGE = "glossary"


@lru_cache(maxsize=None)
def imported(path):
    """Names of the modules one file imports, anywhere in it (lazy imports in functions too); each file
    is parsed once per process, however many scripts' closures hold it."""
    tree = ast.parse(Path(path).read_text(encoding="utf-8"), filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            # `from glossary import pages` names the module glossary.pages
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


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
