"""Publish the staged site (results/site) to site/ in one step, or not at all.

What is published is the plan's list of the site's files (glossary.plan.Plan.site_files), which every
Snakemake run writes beside the staged tree (results/site-files.json, write_listing): a file that an
earlier build staged and the plan no longer names (a deleted or renamed term's page, Markdown and PDF,
a removed demo's script, notebook, CSVs and figures, a removed picture) is neither published nor kept
in the staged tree, so an incremental build publishes the bytes a clean build of the same sources does.

The new site is made beside the staged tree (results/site.previous) and swapped in with one rename
(renameat2 RENAME_EXCHANGE), so a reader of site/ sees the old site or the new one, never a mixture; a
failed build never gets here and leaves site/ as it was.  The old site stays there after the swap, and
the next publish brings it up to date in place: a file the site holds byte for byte is the published
file linked (an inode both trees share), any other is removed and copied anew, never written in place.
Files and folders get fixed permissions, whatever the umask.

A file is copied only where its bytes differ from the published one.  After each publish,
results/published.json records the size, modification time and inode of each staged file and of its
published twin; where neither has changed since, they still hold the same bytes, and only the other
files are read and compared (as git's index does; a time recorded less than a second before the
record was taken is not trusted, since a write in the same clock tick could keep it).
"""
import ctypes
import json
import os
import posixpath
import shutil
import stat
import sys
import time
from pathlib import Path

STAGED, SITE = Path("results/site"), Path("site")     # what the build stages, where it publishes
LISTING = "site-files.json"     # beside the staged folder: results/site-files.json
RECORD = "published.json"       # beside it too: the stats of the files last published (see above)
TRUSTED_AFTER_NS = 1_000_000_000    # a time this much older than the record is not a write's same tick
MARKER = ".snakemake_timestamp"     # Snakemake's mark in a folder it made: not part of the site
RENAME_EXCHANGE = 2
# Beside the staged folder: the site as it was before the last publish (publish() brings it up to date).
SPARE = "site.previous"
AT_FDCWD = -100


class Unbuilt(Exception):
    """The plan names a file the staged tree lacks: the build did not make it (a dry run, --until)."""


def _exchange(a, b):
    libc = ctypes.CDLL(None, use_errno=True)
    if libc.renameat2(AT_FDCWD, os.fsencode(a), AT_FDCWD, os.fsencode(b), RENAME_EXCHANGE) != 0:
        err = ctypes.get_errno()
        raise OSError(err, os.strerror(err), f"{a} <-> {b}")


def _parts(name):
    """The sort key of a relative name: by its parts, as paths sort ("a/b" before "a-c")."""
    return name.split("/")


def names(tree):
    """The site's files as relative names ("terms/a.html"), sorted; Snakemake's directory markers are
    not part of it.  Strings and os.walk, not pathlib: a publish lists every file of the site twice."""
    tree = os.fspath(tree)
    cut = len(os.path.join(tree, ""))
    found = []
    for folder, _dirs, listed_here in os.walk(tree):
        for name in listed_here:
            path = os.path.join(folder, name)
            if name != MARKER and os.path.isfile(path):
                found.append(path[cut:])
    return sorted(found, key=_parts)


def listing_path(staged):
    return Path(staged).with_name(LISTING)


def write_listing(paths, staged=STAGED):
    """Record the plan's files of the staged site (`paths` as the rules name them, under `staged`;
    a folder stands for the files in it) beside it, rewritten only when they change: several
    Snakemake processes (the Slurm jobs) may write the same list at once."""
    # the plan's paths are strings under `staged`: cut as strings, far quicker than as Path objects
    prefix = f"{Path(staged).as_posix()}/"
    listing = sorted({p[len(prefix):] if p.startswith(prefix) else Path(p).relative_to(staged).as_posix()
                      for p in map(str, paths)})
    path, text = listing_path(staged), json.dumps(listing, indent=0) + "\n"
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


def _told_missing(tree, missing):
    """Unbuilt for the listed names `missing` under `tree` (none: nothing)."""
    if missing:
        more = f" and {len(missing) - 1} more" if len(missing) > 1 else ""
        raise Unbuilt(f"{tree}/{missing[0]}{more}: not built, though the plan lists it; run the build "
                      "without --dry-run or --until to publish")


def expand(tree, listing):
    """The files of the names in `listing` under `tree` (a folder: the files in it) as relative names,
    sorted; Unbuilt when one is missing."""
    tree, found, missing = os.fspath(tree), set(), []
    for name in listing:
        path = os.path.join(tree, name)
        if os.path.isdir(path):
            found.update(f"{name}/{f}" for f in names(path))
        elif os.path.isfile(path):
            found.add(name)
        else:
            missing.append(name)
    _told_missing(tree, missing)
    return sorted(found, key=_parts)


def _scan(tree, listing, prune=False):
    """{relative name: its os.stat_result (a link's: its file's)} of the files of the names in `listing`
    under `tree` (a folder: the files in it), sorted as paths; Unbuilt when one is missing.  With `prune`,
    what the listing does not name is then removed, and the folders left empty: what an earlier build
    staged for sources since deleted, which a clean build's tree has not either (a listed folder keeps all
    of it: Snakemake rewrites such a folder whole); a tree that lacks a listed file is left as it is.  One
    walk of the tree: the staged site's 18,000 files at 5,000 terms are each looked at once, their stats
    kept for the publish's record."""
    tree, listing, found, seen = os.fspath(tree), set(listing), {}, set()
    unlisted, folders = [], []      # what pruning removes; the folders it walked, the deepest last

    def visit(folder, rel, whole):
        """Walks `folder` (relative name `rel`: "" or "terms/a/"); `whole`: a listed folder, or in one."""
        with os.scandir(folder) as entries:
            for entry in entries:
                name = rel + entry.name
                listed = whole or name in listing
                if entry.is_dir(follow_symlinks=False):
                    if listed:
                        seen.add(name)
                    else:
                        folders.append(entry.path)
                    visit(entry.path, name + "/", listed)
                elif not listed:
                    unlisted.append(entry.path)
                elif not (whole and entry.name == MARKER):
                    try:
                        st = entry.stat()       # a link's file
                    except OSError:             # a link to nothing: missing
                        continue
                    if stat.S_ISDIR(st.st_mode):        # a listed link to a folder: the files in it
                        if not whole:                   # (in a listed folder, a link to one is not followed)
                            seen.add(name)
                            visit(entry.path, name + "/", True)
                    elif stat.S_ISREG(st.st_mode):
                        found[name] = st

    if os.path.isdir(tree):
        visit(tree, "", False)
    missing = sorted(listing - set(found) - seen)
    _told_missing(tree, missing)
    if prune:
        for path in unlisted:
            os.unlink(path)
        for folder in reversed(folders):        # the deepest first
            if not os.listdir(folder):
                os.rmdir(folder)
    return {name: found[name] for name in sorted(found, key=_parts)}


def site_of(tree):
    """{relative name: its stat} of the files a staged tree publishes: those the plan lists, the tree
    pruned of the others (_scan); every file of a tree without a listing."""
    listing = listed(tree)
    if listing is None:
        return {name: os.stat(os.path.join(tree, name)) for name in names(tree)}
    return _scan(tree, listing, prune=True)


def _files_of(tree):
    """({relative name: inode} of the files under tree, {relative names of its folders, "" for tree});
    anything else (a link) is a file to remove."""
    files, folders, cut = {}, {""}, len(os.path.join(os.fspath(tree), ""))
    pending = [os.fspath(tree)]
    while pending:
        with os.scandir(pending.pop()) as listed:
            for entry in listed:
                if entry.is_dir(follow_symlinks=False):
                    folders.add(entry.path[cut:])
                    pending.append(entry.path)
                else:
                    files[entry.path[cut:]] = entry.inode() if entry.is_file(follow_symlinks=False) else None
    return files, folders


def _remove(path):
    if os.path.isdir(path) and not os.path.islink(path):
        shutil.rmtree(path)
    else:
        os.unlink(path)


def same_file(a, b):
    """Whether files a and b hold the same bytes (b may be missing)."""
    try:
        if os.stat(a).st_size != os.stat(b).st_size:
            return False
        with open(a, "rb") as fa, open(b, "rb") as fb:
            return fa.read() == fb.read()
    except (FileNotFoundError, NotADirectoryError):     # b, or a folder on its path, is not there
        return False


def _stats(*paths):
    """[size, modification time (ns), inode, device] of each path; None when one is missing."""
    try:
        return [[st.st_size, st.st_mtime_ns, st.st_ino, st.st_dev] for st in map(os.stat, paths)]
    except OSError:
        return None


def stats_of(path):
    """_stats of one file (None when it is missing): what tells a later write of it (glossary.links too)."""
    found = _stats(path)
    return found and found[0]


def _unchanged(recorded, src_stat, published):
    """Whether a staged file (its stat `src_stat`, _scan's) and its published twin are as the record saw
    them (then they hold the same bytes)."""
    if recorded is None or recorded[0] != [src_stat.st_size, src_stat.st_mtime_ns, src_stat.st_ino, src_stat.st_dev]:
        return False
    return _stats(published) == recorded[1:]


def _read_record(staged):
    try:
        return json.loads(listing_path(staged).with_name(RECORD).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def _write_record(staged, sources, site, seen=None):
    """results/published.json: the stats of each staged file and its published twin, now the same
    bytes, where both were last written long enough ago to be told from a later write; `seen`: {name:
    its pair as the last record held it and the files still are}."""
    taken = time.time_ns() - TRUSTED_AFTER_NS
    record = {}
    for rel, src in sources.items():
        pair = (seen or {}).get(rel) or _stats(src, os.path.join(site, rel))
        if pair and pair[0][1] < taken and pair[1][1] < taken:
            record[rel] = pair
    path = listing_path(staged).with_name(RECORD)
    tmp = path.with_name(f".{RECORD}.{os.getpid()}")
    tmp.write_text(json.dumps(record, sort_keys=True, separators=(",", ":")), encoding="utf-8")
    tmp.replace(path)


def publish(staged, site, editions=None, stats=None):
    """Publish `staged` to `site`; `editions` ({"de/": staged folder}) puts each language edition's
    staged site under its prefix (glossary.editions).  The new site is made in the site before the last
    publish (SPARE) and swapped in whole; a file the old site already holds byte for byte is linked from
    it rather than copied (site/ is never written in place, so the link stays the published file).
    `stats`, a dict, gets {relative name: [size, modification time (ns), inode]} of each file of the
    site it published (what glossary.stamp records of it, without a walk of its own); none when the
    site was left as it was."""
    staged, site = Path(staged), Path(site)
    trees = [(staged, "")] + sorted((Path(tree), prefix) for prefix, tree in (editions or {}).items())
    # {relative name in site/: (its staged file, its stat)}, as strings: a publish looks at every file of the site
    scanned = {posixpath.join(prefix, name) if prefix else name: (os.path.join(tree, name), st)
               for tree, prefix in trees for name, st in site_of(tree).items()}
    sources = {rel: src for rel, (src, _) in scanned.items()}
    published = site.is_dir()
    record = _read_record(staged) if published else {}
    # the pairs as the record saw them: their stats stay the record's (a link to the published file keeps them)
    seen = {rel: record[rel] for rel, (_, st) in scanned.items()
            if published and _unchanged(record.get(rel), st, os.path.join(site, rel))}
    kept = set(seen) | {rel for rel, src in sources.items()
                        if published and rel not in seen and same_file(src, os.path.join(site, rel))}
    if published and len(kept) == len(sources) and set(sources) == set(names(site)):
        _write_record(staged, sources, site, seen)
        return False
    # the site as it was before the last publish, kept to be brought up to date: where a folder and its
    # files were kept, nothing is made or removed again (an edit at 5,000 terms changes a few of 18,000)
    fresh = Path(staged).with_name(SPARE)
    try:
        present = _files_of(fresh) if published and fresh.is_dir() else None
    except OSError:
        present = None
    if present is None:
        shutil.rmtree(fresh, ignore_errors=True)
        os.makedirs(fresh)
        present = ({}, set())
    files, folders = present
    needed = {""}           # every folder the sources lie in, and the folders above them
    for rel in sources:
        folder = os.path.dirname(rel)
        while folder not in needed:
            needed.add(folder)
            folder = os.path.dirname(folder)
    for rel in sorted(set(files) - set(sources)):
        os.unlink(os.path.join(fresh, rel))
    for folder in sorted(folders - needed, key=len, reverse=True):
        shutil.rmtree(os.path.join(fresh, folder), ignore_errors=True)
    for folder in sorted(needed - folders - {""}, key=len):
        target = os.path.join(fresh, folder)
        if os.path.lexists(target) and not os.path.isdir(target):
            os.unlink(target)
        os.makedirs(target, exist_ok=True)
        os.chmod(target, 0o755)
    made = {}       # {relative name: [size, modification time (ns), inode]} of the new site's files
    for rel, src in sources.items():
        target = os.path.join(fresh, rel)
        if rel in kept:
            published_file = os.path.join(site, rel)
            twin = seen[rel][1][:3] if rel in seen else _stats(published_file)[0][:3]
            made[rel] = twin
            if files.get(rel) == twin[2]:
                continue        # the published file already
            if rel in files or os.path.isdir(target):
                _remove(target)
            try:
                # the published file, whose mode an earlier publish set
                os.link(published_file, target)
                continue
            except OSError:     # a filesystem without hard links: the copy is a file the record has not seen
                seen.pop(rel, None)
        elif rel in files or os.path.isdir(target):
            _remove(target)     # never written in place: it may be a link to a published file
        shutil.copy2(src, target)       # with its time: the record can trust it from the next publish
        os.chmod(target, 0o644)
        made[rel] = _stats(target)[0][:3]
    if stats is not None:
        stats.update(made)
    os.chmod(fresh, 0o755)
    if published:
        # the old site is the spare now
        _exchange(fresh, site)
    else:
        fresh.rename(site)
    _write_record(staged, sources, site, seen)
    return True


if __name__ == "__main__":
    staged, site = sys.argv[1:3]
    changed = publish(staged, site)
    print(f"site {'published' if changed else 'unchanged'}: {site}/index.html")
