"""`make site` with nothing to do, without starting Snakemake.

After a successful build and publish, record() writes .snakemake/site-stamp.json:
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
import sys
from pathlib import Path

SOURCES = ("Snakefile", "config.yaml", "requirements.lock", "workflow", "scripts", "templates", "src", "entries")
SITE = "site"
STAMP = ".snakemake/site-stamp.json"


def files(root, names):
    """The files under root/name for each name, relative, sorted; caches of Python left out."""
    root = Path(root)
    found = []
    for name in names:
        path = root / name
        candidates = [path] if path.is_file() else path.rglob("*")
        found += [p for p in candidates if p.is_file() and "__pycache__" not in p.parts]
    return sorted(p.relative_to(root).as_posix() for p in found)


def digest(root, names, salt=""):
    """sha256 over each file's path, size and content hash (a rename or a move changes it)."""
    h = hashlib.sha256(salt.encode())
    for rel in files(root, names):
        data = (Path(root) / rel).read_bytes()
        h.update(f"{rel}\0{len(data)}\0{hashlib.sha256(data).hexdigest()}\n".encode())
    return h.hexdigest()


def sources_digest(root="."):
    # The interpreter runs Snakemake and every job: another one may build other bytes.
    return digest(root, SOURCES, salt=f"{sys.executable}\0{sys.version}\0")


def site_digest(root="."):
    return digest(root, [SITE])


def is_fresh(root="."):
    """True when the last recorded build saw these very sources and left this very site/."""
    stamp = Path(root) / STAMP
    if not stamp.is_file() or not (Path(root) / SITE).is_dir():
        return False
    try:
        recorded = json.loads(stamp.read_text())
    except ValueError:
        return False
    return recorded == {"sources": sources_digest(root), "site": site_digest(root)}


def record(root=".", sources=None):
    """After a successful build and publish.  Pass the sources' digest taken *before* the build
    (sources_digest), so that an edit made while it ran is not recorded as built."""
    stamp = Path(root) / STAMP
    stamp.parent.mkdir(parents=True, exist_ok=True)
    tmp = stamp.with_suffix(".tmp")
    tmp.write_text(json.dumps({"sources": sources or sources_digest(root), "site": site_digest(root)}) + "\n")
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
