"""Publish the staged site (results/site) to site/ in one step, or not at all.

What is published is the plan's list of the site's files (glossary.plan.Plan.site_files), which every
Snakemake run writes beside the staged tree (results/site-files.json, write_listing): a file that an
earlier build staged and the plan no longer names (a deleted or renamed term's page, Markdown and PDF,
a removed demo's script, notebook, CSVs and figures, a removed picture) is neither published nor kept
in the staged tree, so an incremental build publishes the bytes a clean build of the same sources does.

The listed files are copied beside site/ and swapped in with one rename (renameat2
RENAME_EXCHANGE), so a reader of site/ sees the old site or the new one, never a mixture; a failed
build never gets here and leaves site/ as it was.  Files get fixed permissions, whatever the umask.
"""
import ctypes
import json
import os
import shutil
import sys
from pathlib import Path

STAGED, SITE = Path("results/site"), Path("site")     # what the build stages, where it publishes
LISTING = "site-files.json"     # beside the staged folder: results/site-files.json
MARKER = ".snakemake_timestamp"     # Snakemake's mark in a folder it made: not part of the site
RENAME_EXCHANGE = 2
AT_FDCWD = -100


class Unbuilt(Exception):
    """The plan names a file the staged tree lacks: the build did not make it (a dry run, --until)."""


def _exchange(a, b):
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.renameat2(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err), f"{a} <-> {b}")


def files(tree):
    """The site's files, relative and sorted; Snakemake's directory markers are not part of it."""
    tree = Path(tree)
    return sorted(p.relative_to(tree) for p in tree.rglob("*") if p.is_file() and p.name != MARKER)


def listing_path(staged):
    return Path(staged).with_name(LISTING)


def write_listing(paths, staged=STAGED):
    """Record the plan's files of the staged site (`paths` as the rules name them, under `staged`;
    a folder stands for the files in it) beside it, rewritten only when they change: several
    Snakemake processes (the Slurm jobs) may write the same list at once."""
    names = sorted({Path(p).relative_to(staged).as_posix() for p in paths})
    path, text = listing_path(staged), json.dumps(names, indent=0) + "\n"
    if path.is_file() and path.read_text(encoding="utf-8") == text:
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{LISTING}.{os.getpid()}")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


def listed(staged):
    """The names the plan publishes of the staged tree (relative, a folder's own name for its files),
    or None for a tree no Snakemake run of this workflow staged."""
    path = listing_path(staged)
    return json.loads(path.read_text(encoding="utf-8")) if path.is_file() else None


def expand(tree, names):
    """The files of `names` under `tree` (a folder: the files in it), relative and sorted; Unbuilt
    when one is missing."""
    tree, found, missing = Path(tree), set(), []
    for name in names:
        path = tree / name
        if path.is_dir():
            found.update(Path(name) / f for f in files(path))
        elif path.is_file():
            found.add(Path(name))
        else:
            missing.append(name)
    if missing:
        more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
        raise Unbuilt(f"{tree}/{missing[0]}{more}: not built, though the plan lists it; run the build "
                      "without --dry-run or --until to publish")
    return sorted(found)


def prune(tree, names):
    """Remove from the staged tree what `names` does not list, and the folders left empty: what an
    earlier build staged for sources since deleted, which a clean build's tree has not either.
    A listed folder keeps all of it (Snakemake rewrites such a folder whole)."""
    tree, names, folders = Path(tree), set(names), []
    for folder, dirs, found in os.walk(tree):
        here = Path(folder)
        rel = here.relative_to(tree)
        links = [d for d in dirs if (here / d).is_symlink()]    # os.walk lists them, never enters them
        dirs[:] = [d for d in dirs if d not in links and (rel / d).as_posix() not in names]
        folders.append(here)
        for name in found + links:
            if (rel / name).as_posix() not in names:
                (here / name).unlink()
    for folder in reversed(folders[1:]):        # the deepest first
        if not any(folder.iterdir()):
            folder.rmdir()


def site_of(tree):
    """The files a staged tree publishes: those the plan lists, the tree pruned of the others; every
    file of a tree without a listing."""
    names = listed(tree)
    if names is None:
        return files(tree)
    found = expand(tree, names)
    prune(tree, names)
    return found


def same_file(a, b):
    """Whether files a and b hold the same bytes (b may be missing)."""
    try:
        return a.stat().st_size == b.stat().st_size and a.read_bytes() == b.read_bytes()
    except FileNotFoundError:
        return False


def publish(staged, site, editions=None):
    """Publish `staged` to `site`; `editions` ({"de/": staged folder}) puts each language edition's
    staged site under its prefix (glossary.editions).  The new site is made beside the old one and
    swapped in whole; a file the old site already holds byte for byte is linked from it rather than
    copied (site/ is never written in place, so the link stays the published file)."""
    staged, site = Path(staged), Path(site)
    trees = [(staged, "")] + sorted((Path(tree), prefix) for prefix, tree in (editions or {}).items())
    sources = {Path(prefix) / name: tree / name for tree, prefix in trees for name in site_of(tree)}
    kept = {rel for rel, src in sources.items() if site.is_dir() and same_file(src, site / rel)}
    if site.is_dir() and len(kept) == len(sources) and sorted(sources) == files(site):
        return False
    fresh = site.with_name(site.name + ".new")
    shutil.rmtree(fresh, ignore_errors=True)
    for rel, src in sources.items():
        (fresh / rel).parent.mkdir(parents=True, exist_ok=True)
        if rel in kept:
            try:
                os.link(site / rel, fresh / rel)
                continue
            except OSError:     # a filesystem without hard links
                pass
        shutil.copyfile(src, fresh / rel)
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
