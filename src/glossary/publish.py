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
    a, b = Path(a), Path(b)
    names = files(a)
    return names == files(b) and all((a / f).read_bytes() == (b / f).read_bytes() for f in names)


def publish(staged, site):
    staged, site = Path(staged), Path(site)
    if site.is_dir() and same_tree(staged, site):
        return False
    fresh = site.with_name(site.name + ".new")
    shutil.rmtree(fresh, ignore_errors=True)
    for name in files(staged):
        (fresh / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(staged / name, fresh / name)
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
