"""`make site` with nothing to do, without starting Snakemake.

After a successful build and publish, record() writes results/.site-stamp.json:
a digest of every source the build reads (content hashes, sorted by path) and a
digest of the published site/.  is_fresh() recomputes both: when they match,
site/ is what a build would publish, and Snakemake (seconds just to start and
to check its DAG) need not run.  Anything else (an edit, a new or removed file,
a touched-up site/, a missing stamp) says "not fresh", and the build runs as
usual.  What the digests cannot see: the system's TeX Live and poppler.

    python -m glossary.stamp check [ROOT]    # exit 0 and "site up to date" when fresh
    python -m glossary.stamp record [ROOT]
"""
import hashlib
import json
import os
import sys
from pathlib import Path

from glossary.plan import LOCK, SOURCES, Source

SITE = "site"
STAMP = "results/.site-stamp.json"


def walk(folder):
    """The files under `folder`, but those of a build's folder below it (one holding plan.LOCK: the
    `glossary` command's _build/ inside the dictionary's folder), which are the build's, not its sources."""
    for top, folders, names in os.walk(folder):
        folders[:] = [f for f in folders if not (Path(top) / f / LOCK).is_file()]
        yield from (Path(top) / name for name in names)


def files(root, names):
    """The files under root/name for each name, relative, sorted; caches of Python and git's
    records, and builds' folders, left out."""
    root = Path(root)
    found = []
    for name in names:
        path = root / name
        candidates = [path] if path.is_file() else walk(path)
        found += [p for p in candidates if p.is_file() and not {"__pycache__", ".git"} & set(p.parts)]
    return sorted(p.relative_to(root).as_posix() for p in found)


def hashes(root, names):
    """{path: sha256 of its content} for the files under root/name for each name."""
    return {rel: hashlib.sha256((Path(root) / rel).read_bytes()).hexdigest() for rel in files(root, names)}


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


def source_hashes(roots="."):
    """{path: sha256} of every source; `roots` is a folder (this repository's SOURCES under it) or
    source_roots()' list."""
    if isinstance(roots, (str, Path)):
        return hashes(roots, SOURCES)
    if len(roots) == 1:
        return hashes(roots[0][0], roots[0][1])
    # The file the build was named (a main .tex or the YAML file beside it): the same folder's
    # files build another site from the other one.
    folder, names = roots[1]
    found = {"\0source": f"{folder}/{names[0]}"}
    for folder, names in roots:
        found.update({f"{folder}/{rel}": h for rel, h in hashes(folder, names).items()})
    return found


def sources_digest(root=".", hashed=None):
    return digest(source_hashes(root) if hashed is None else hashed, salt=interpreter())


def site_digest(root="."):
    return digest(hashes(root, [SITE]))


def recorded(root="."):
    """What record() wrote after the last build, or None."""
    try:
        return json.loads((Path(root) / STAMP).read_text())
    except (OSError, ValueError):
        return None


def is_fresh(root=".", roots=None):
    """True when the last recorded build in `root` saw these very sources (those under `roots`,
    source_roots(); by default this repository's under `root`) and left this very site/."""
    last = recorded(root)
    if not isinstance(last, dict) or not (Path(root) / SITE).is_dir():
        return False
    return (last.get("sources"), last.get("site")) == (sources_digest(roots or root), site_digest(root))


def record(root=".", hashed=None):
    """After a successful build and publish.  Pass the sources' hashes taken *before* the build
    (source_hashes), so that an edit made while it ran is not recorded as built."""
    hashed = source_hashes(root) if hashed is None else hashed
    stamp = Path(root) / STAMP
    stamp.parent.mkdir(parents=True, exist_ok=True)
    tmp = stamp.with_suffix(".tmp")
    tmp.write_text(json.dumps({"sources": sources_digest(root, hashed), "site": site_digest(root)},
                              sort_keys=True) + "\n")
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
