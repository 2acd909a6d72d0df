"""`make site` with nothing to do, without starting Snakemake.

After a successful build and publish, record() writes results/.site-stamp.json:
a digest of every source the build reads (content hashes, sorted by path) and a
digest of the published site/, with each file's size, inode and modification time.
is_fresh() recomputes both, hashing again only the files whose size, inode or time
differ (or that were modified in the second before their hash was taken: such an
edit could keep the time recorded), as git's index does: when they match,
site/ is what a build would publish, and Snakemake (seconds just to start and
to check its DAG) need not run.  Anything else (an edit, a new or removed file,
a touched-up site/, a missing stamp) says "not fresh", and the build runs as
usual.  What the digests cannot see: the system's TeX Live and poppler.

    python -m glossary.stamp check [ROOT]    # exit 0 and "site up to date" when fresh
    python -m glossary.stamp record [ROOT]
"""
import hashlib
import os
import sys
import time
from pathlib import Path

from glossary import jsonio
from glossary.plan import LOCK, SOURCES, Source

SITE = "site"
STAMP = "results/.site-stamp.json"


LEFT_OUT = {"__pycache__", ".git"}     # caches of Python, git's records


def walk(folder):
    """(path joined to `folder`, its stat) of each file under `folder`, but those of a build's folder below
    it (one holding plan.LOCK: the `glossary` command's _build/ inside the dictionary's folder), which are
    the build's, not its sources, and LEFT_OUT.  Strings and os.scandir, not pathlib: a no-op walks every
    file of site/, and a directory entry tells a file from a folder without a stat of its own."""
    todo = [folder]
    while todo:
        top = todo.pop()
        try:
            listed = list(os.scandir(top))
        except OSError:         # gone, or not a folder: as os.walk, nothing
            continue
        for entry in listed:
            if entry.name in LEFT_OUT:
                continue
            if entry.is_dir(follow_symlinks=False):
                if not os.path.isfile(os.path.join(entry.path, LOCK)):
                    todo.append(entry.path)
            elif entry.is_file():
                yield entry.path, entry.stat()


def files(root, names):
    """[(path, its stat)] of the files under root/name for each name, paths relative (with /), sorted;
    caches of Python and git's records, and builds' folders, left out."""
    root = os.fspath(root)
    prefix = os.path.join(root, "")     # each walked path starts with it: cut, not os.path.relpath (slow)
    found = []
    for name in names:
        path = os.path.join(root, name)
        if os.path.isfile(path):
            if not LEFT_OUT & set(Path(name).parts):
                found.append((Path(name).as_posix(), os.stat(path)))
            continue
        found += [(p[len(prefix):].replace(os.sep, "/"), st) for p, st in walk(path)]
    return sorted(found, key=lambda pair: pair[0])


class Hashed(dict):
    """{path: sha256 of its content}, with what each hash was taken from: `stats` {path: [size, mtime_ns,
    inode]}, and `taken`, the time (ns) the hashing began."""

    def __init__(self, hashed=(), stats=None, taken=0, read=0):
        super().__init__(hashed)
        self.stats, self.taken, self.read = stats or {}, taken, read      # read: how many files were hashed

    def record(self):
        return {"taken": self.taken, "files": {rel: [h, *self.stats[rel]] for rel, h in self.items()}}

    @classmethod
    def recorded(cls, value):
        """What record() gave, as the `known` of hashes() (None when it is not such a record)."""
        try:
            files = value["files"]
            return cls({rel: f[0] for rel, f in files.items()}, {rel: f[1:] for rel, f in files.items()},
                       int(value["taken"]))
        except (TypeError, KeyError, ValueError, IndexError):
            return None


def hashes(root, names, known=None, given=None):
    """Hashed {path: sha256 of its content} for the files under root/name for each name (`given`: {path:
    [size, modification time (ns), inode]} of those files, as glossary.publish found them, not walked
    again).  A file whose size, modification time and inode are those `known` gives (an earlier Hashed)
    keeps its hash, unless it was modified less than a second before that hash was taken."""
    found, stats, taken, read = {}, {}, time.time_ns(), 0
    listed = sorted(given.items()) if given is not None else [
        # the inode too: a file replaced by another (rsync -t, a rename over it) may keep its time; not the
        # change time, which publishing's links move on every file of site/
        (rel, [st.st_size, st.st_mtime_ns, st.st_ino]) for rel, st in files(root, names)]
    for rel, stat in listed:
        path = os.path.join(root, rel)
        stats[rel] = stat
        if known is not None and rel in known and known.stats.get(rel) == stat \
                and stat[1] < known.taken - 1_000_000_000:
            found[rel] = known[rel]
        else:
            with open(path, "rb") as f:
                found[rel] = hashlib.file_digest(f, "sha256").hexdigest()
            read += 1
    return Hashed(found, stats, taken, read)


def digest(hashed, salt=""):
    """One sha256 over each file's path and content hash (a rename or a move changes it)."""
    h = hashlib.sha256(salt.encode())
    for rel in sorted(hashed):
        h.update(f"{rel}\0{hashed[rel]}\n".encode())
    return h.hexdigest()


def interpreter():
    # The interpreter runs Snakemake and every job: another one may build other bytes.
    return f"{sys.executable}\0{sys.version}"


def source_roots(repo=".", source=None):
    """[(folder, names under it)] of what a build reads (glossary.plan.Source.roots); `source` is a
    Source or the path SOURCE= names."""
    return (source if isinstance(source, Source) else Source(source)).roots(repo)


def source_hashes(roots=".", known=None):
    """Hashed {path: sha256} of every source; `roots` is a folder (this repository's SOURCES under it) or
    source_roots()' list; `known`: an earlier Hashed of the same roots (hashes())."""
    if isinstance(roots, (str, Path)):
        return hashes(roots, SOURCES, known)
    if len(roots) == 1:
        return hashes(roots[0][0], roots[0][1], known)
    # The file the build was named (a main .tex or the YAML file beside it): the same folder's
    # files build another site from the other one.
    folder, names = roots[1]
    found = Hashed({"\0source": f"{folder}/{names[0]}"}, {"\0source": []}, time.time_ns())
    for folder, names in roots:
        part = hashes(folder, names, None if known is None else Hashed(
            {rel[len(folder) + 1:]: h for rel, h in known.items() if rel.startswith(f"{folder}/")},
            {rel[len(folder) + 1:]: st for rel, st in known.stats.items() if rel.startswith(f"{folder}/")},
            known.taken))
        found.update({f"{folder}/{rel}": h for rel, h in part.items()})
        found.stats.update({f"{folder}/{rel}": st for rel, st in part.stats.items()})
        found.read += part.read
    return found


def sources_digest(hashed):
    return digest(hashed, salt=interpreter())


def read_key(hashed):
    """The key of a read of the dictionary from these sources (glossary.texdict.check_main's memo): the
    driver's and its Snakemake's (whose interpreter is named python3 where the driver's is python)."""
    return digest(hashed, salt=sys.version)


def recorded(root="."):
    """What record() wrote after the last build, or None."""
    try:
        return jsonio.read_compact(Path(root) / STAMP)
    except (OSError, ValueError):
        return None


def known_sources(root="."):
    """The sources' Hashed of the last record() in `root` (None: no such record)."""
    return Hashed.recorded((recorded(root) or {}).get("source_files"))


def is_fresh(root=".", roots=None):
    """True when the last recorded build in `root` saw these very sources (those under `roots`,
    source_roots(); by default this repository's under `root`) and left this very site/."""
    last = recorded(root)
    if not isinstance(last, dict) or not (Path(root) / SITE).is_dir():
        return False
    sources = source_hashes(roots or root, known_sources(root))
    if sources_digest(sources) != last.get("sources"):
        return False
    site = hashes(root, [SITE], Hashed.recorded(last.get("site_files")))
    if digest(site) != last.get("site"):
        return False
    if sources.read or site.read:
        # files hashed again (modified in the second before the last record): now they are older
        write(root, dict(last, source_files=sources.record(), site_files=site.record()))
    return True


def record(root=".", hashed=None, site_stats=None):
    """After a successful build and publish.  Pass the sources' hashes taken *before* the build
    (source_hashes), so that an edit made while it ran is not recorded as built; `site_stats`: the
    published files' (glossary.publish.publish's `stats`; none: site/ is walked)."""
    hashed = source_hashes(root) if hashed is None else hashed
    given = {f"{SITE}/{rel}": stat for rel, stat in site_stats.items()} if site_stats else None
    site = hashes(root, [SITE], Hashed.recorded((recorded(root) or {}).get("site_files")), given)
    write(root, {"sources": sources_digest(hashed), "site": digest(site), "source_files": hashed.record(),
                 "site_files": site.record()})


def write(root, stamp_):
    stamp = Path(root) / STAMP
    stamp.parent.mkdir(parents=True, exist_ok=True)
    tmp = stamp.with_suffix(f".{os.getpid()}.tmp")
    jsonio.write(tmp, stamp_, compact=True)
    tmp.replace(stamp)


if __name__ == "__main__":
    command, root = (sys.argv[1:] + ["check", "."][len(sys.argv) - 1:])[:2]
    if command == "record":
        record(root)
    elif command == "check":
        fresh = is_fresh(root)
        print("site up to date" if fresh else "site needs a build")
        sys.exit(0 if fresh else 1)
    else:
        sys.exit(__doc__)
