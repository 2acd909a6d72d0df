"""Which modules of the shared package a script imports, directly or through other modules.

A rule's library inputs are derived from its script's imports, so that editing any module a
job imports, however indirectly, reruns that job: nothing is kept by hand.
"""
import ast
import hashlib
import json
import os
from functools import lru_cache
from pathlib import Path

PACKAGE = "glossary"
# What each file imports, by the sha256 of its bytes, kept between processes (keep_in); and, to prune
# that file, the sha256 of the files this process looked up and of the modules in their folders.
_KEPT = {"path": None, "found": {}}
_CODE = hashlib.sha256(Path(__file__).read_bytes()).hexdigest()


def keep_in(path):
    """Keep what each file imports in the JSON file `path`, under the sha256 of the file's bytes and of
    this module, so that a build's parse of the workflow parses only the modules that changed: parsing
    the package's 90-odd modules was most of the parse."""
    path = Path(path)
    try:
        kept = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        kept = {}
    _KEPT.update(path=path, found=kept.get("found", {}) if kept.get("code") == _CODE else {}, seen=set(), folders={})


def _current_keys():
    """The sha256 of the files this process looked up and of every module in their folders: what the
    kept file may hold (each folder is hashed once per process, on its first write)."""
    folders = _KEPT["folders"]
    for folder in [f for f, keys in folders.items() if keys is None]:
        folders[folder] = {_sha256(p) for p in Path(folder).glob("*.py")} - {None}
    return _KEPT["seen"].union(*folders.values())


def _sha256(path):
    """The sha256 of a file's bytes; None for one deleted since its folder was listed."""
    try:
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except FileNotFoundError:
        return None


def _keep(key, names):
    path = _KEPT["path"]
    if path is None:
        _KEPT["found"][key] = sorted(names)
        return
    # an edited module's earlier bytes are dropped, so the file holds one entry per module
    current = _current_keys()
    _KEPT["found"] = {k: v for k, v in _KEPT["found"].items() if k in current}
    _KEPT["found"][key] = sorted(names)
    # whole or not at all: a preview's parse may read it while a build writes it
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(f".{path.name}.{os.getpid()}")
    partial.write_text(json.dumps({"code": _CODE, "found": _KEPT["found"]}, sort_keys=True), encoding="utf-8")
    os.replace(partial, path)


@lru_cache(maxsize=None)
def imported(path):
    """Names of the modules one file imports, anywhere in it (lazy imports in functions too); each file
    is parsed once per process, however many scripts' closures hold it, and not at all when keep_in's
    file knows its bytes."""
    data = Path(path).read_bytes()
    key = hashlib.sha256(data).hexdigest()
    if _KEPT["path"] is not None:
        _KEPT["seen"].add(key)
        _KEPT["folders"].setdefault(str(Path(path).parent), None)
    if key in _KEPT["found"]:
        return set(_KEPT["found"][key])
    tree = ast.parse(data, filename=str(path))
    names = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            # `from glossary import pages` names the module glossary.pages
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    _keep(key, names)
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
    return {Path(p).relative_to(src).as_posix(): _file_sha256(p) for p in closure(path, src)}


@lru_cache(maxsize=None)
def _file_sha256(path):
    """Once per process, as closure() is: a workflow's parse asks for each module once per script."""
    return _sha256(Path(path))
