"""`make site` after a prose-only edit, without starting Snakemake.

When the only sources that changed since the last build are entry.md files,
each with the same front matter as before (the same title, figures, CSVs ...:
only the Markdown below it), the one job Snakemake would run for each is its
page (its only rule with entry.md as an input).  Starting Snakemake costs
seconds; rendering a page costs a fraction of one.  So the build replays the
page job that rule page recorded (glossary.pagejob) with the edited prose:

- only when everything else is as that job left it: the stamp of the last build
  (glossary.stamp) matches site/, the staged site matches site/, every other
  input of the job still has its recorded hash, no Snakemake job was left
  half done, and Snakemake's record of the page names entry.md's old hash;
- then it writes the page, the job's record, and in Snakemake's own record of
  the page entry.md's new hash (what Snakemake writes after running the job),
  so that a later Snakemake run sees a page it built from these very inputs.

Anything else (a changed front matter, template, demo, config or package file,
a missing record) goes to Snakemake as usual.  The page bytes are the same
either way (tests/test_quick.py rebuilds both ways and compares).
"""
import base64
import json
import os
from pathlib import Path, PurePosixPath

from glossary import stamp

# The page's libraries (jinja2, Pygments, markdown-it, latex2mathml, jsonschema: half a
# second) are imported only once the edit is known to be prose only, so that any other
# build goes to Snakemake without paying for them.

METADATA = ".snakemake/metadata"


def job_record(slug):
    return Path(f"results/{slug}/page.job.json")


def metadata_path(output):
    # Snakemake's key for an output's record: its path in urlsafe base64 (one file name when short).
    key = base64.urlsafe_b64encode(output.encode()).decode()
    return Path(METADATA) / key if len(key) <= 255 else None


def snakemake_records(job):
    """Snakemake's records of the job's outputs, when each names entry.md's hash: [(path, record)]."""
    found = []
    for output in job["output"].values():
        path = metadata_path(output)
        try:
            record = json.loads(path.read_text())
        except (AttributeError, OSError, ValueError):
            return None
        if record.get("record_format_version") != 6 or record.get("incomplete") or \
                job["input"]["entry"] not in (record.get("input_checksums") or {}):
            return None
        found.append((path, record))
    return found


def changed_sources(last, hashed):
    old = last.get("files") or {}
    return sorted(p for p in set(old) | set(hashed) if old.get(p) != hashed.get(p))


def plan(hashed):
    """([page jobs to replay], None), or (None, why not): is this edit prose only?"""
    last = stamp.recorded(".")
    if not isinstance(last, dict) or "files" not in last:
        return None, "no record of the last build"
    if last.get("sources") == stamp.sources_digest(".", hashed):
        return None, "no source changed"
    if last["sources"] != stamp.digest(last["files"], salt=stamp.interpreter()):
        return None, "another Python ran the last build"
    import yaml
    entries_dir = yaml.safe_load(Path("config.yaml").read_text(encoding="utf-8"))["entries_dir"]
    slugs = []
    for path in changed_sources(last, hashed):
        p = PurePosixPath(path)
        if p.name != "entry.md" or str(p.parent.parent) != str(PurePosixPath(entries_dir)) \
                or path not in last["files"] or path not in hashed:
            return None, f"{path} is not the prose of an entry built before"
        slugs.append(p.parent.name)
    from glossary import entries, jsonio, pagejob, publish
    if any(Path(".snakemake/incomplete").glob("*")) or any(Path(".snakemake/locks").glob("*")):
        return None, "Snakemake left a job half done"
    if last.get("site") != stamp.site_digest(".") or not publish.same_tree(publish.STAGED, publish.SITE):
        return None, "site/ is not what the last build published"
    schema = entries.load_schema(entries.SCHEMA)
    jobs = []
    for slug in slugs:
        try:
            job = jsonio.read(job_record(slug))
        except (OSError, ValueError):
            return None, f"no record of {slug}'s page job"
        md = job["input"]["entry"]
        for path in pagejob.input_paths(job):
            if path != md and pagejob.fingerprint(path) != job["hashes"].get(path):
                return None, f"{path} changed since {slug}'s page was made"
        records = snakemake_records(job)
        if records is None:
            return None, f"Snakemake's record of {slug}'s page is not one this replay knows"
        entry = entries.load_entry(Path(md).parent, schema)     # an EntryError tells the editor
        if jsonio.dumps(entries.front_matter(entry)) != jsonio.dumps(job["params"]["meta"]):
            return None, f"{md}: its front matter changed"
        jobs.append((job, records))
    return jobs, None


def replay(jobs):
    """Run each page job on its edited prose; then note entry.md's new hash where Snakemake keeps it."""
    from glossary import pagejob
    for job, records in jobs:
        Path(job["log"]).parent.mkdir(parents=True, exist_ok=True)
        with open(job["log"], "w", encoding="utf-8"):
            pass                         # the log of a page job that wrote nothing to stderr
        record = pagejob.run(job)
        md = job["input"]["entry"]
        for path, meta in records:
            meta["input_checksums"][md] = "sha256:" + record["hashes"][md]
            tmp = Path(".snakemake/glossary-metadata.tmp")     # not in metadata/, where names are paths
            tmp.write_text(json.dumps(meta))
            os.replace(tmp, path)
