"""Publish the staged site (results/site) to site/ in one step, or not at all.

The staged tree is copied beside site/ and swapped in with one rename
(renameat2 RENAME_EXCHANGE), so a reader of site/ sees the old site or the new
one, never a mixture; a failed build never gets here and leaves site/ as it was.
Files get fixed permissions, whatever the umask.
"""
import ctypes
import os
import shutil
import sys
from pathlib import Path

STAGED, SITE = Path("results/site"), Path("site")     # what the build stages, where it publishes
RENAME_EXCHANGE = 2
AT_FDCWD = -100


def _exchange(a, b):
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.renameat2(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err), f"{a} <-> {b}")


def files(tree):
    """The site's files, relative and sorted; Snakemake's directory markers are not part of it."""
    tree = Path(tree)
    return sorted(p.relative_to(tree) for p in tree.rglob("*")
                  if p.is_file() and p.name != ".snakemake_timestamp")


def same_tree(a, b):
    """Whether tree b holds exactly the files of a: a folder, or [(folder, prefix)] laid together."""
    b = Path(b)
    trees = [(Path(a), "")] if isinstance(a, (str, Path)) else a
    sources = {Path(prefix) / name: tree / name for tree, prefix in trees for name in files(tree)}
    return sorted(sources) == files(b) and all(src.read_bytes() == (b / name).read_bytes()
                                              for name, src in sources.items())


def publish(staged, site, editions=None):
    """Publish `staged` to `site`; `editions` ({"de/": staged folder}) puts each language edition's
    staged site under its prefix (glossary.editions)."""
    staged, site = Path(staged), Path(site)
    trees = [(staged, "")] + sorted((Path(tree), prefix) for prefix, tree in (editions or {}).items())
    if site.is_dir() and same_tree(trees, site):
        return False
    fresh = site.with_name(site.name + ".new")
    shutil.rmtree(fresh, ignore_errors=True)
    for tree, prefix in trees:
        for name in files(tree):
            (fresh / prefix / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(tree / name, fresh / prefix / name)
    for path in sorted(fresh.rglob("*")) + [fresh]:
        path.chmod(0o755 if path.is_dir() else 0o644)
    if site.is_dir():
        _exchange(fresh, site)
        shutil.rmtree(fresh)
    else:
        fresh.rename(site)
    return True


if __name__ == "__main__":
    staged, site = sys.argv[1:3]
    changed = publish(staged, site)
    print(f"site {'published' if changed else 'unchanged'}: {site}/index.html")
