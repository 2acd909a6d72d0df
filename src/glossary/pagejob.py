"""The page job: an entry's HTML page from its prose, the run's facts and check
lines, its figures and the published demo's source.

Rule page runs it (scripts/page.py) and keeps, beside its other results, a
record of the job as plain data: its inputs, params and config values, and the
content hash of every input.  After a prose-only edit,
`make site` replays that record (glossary.quick) instead of starting Snakemake:
the same function, on the same inputs, writes the same bytes.
"""
import hashlib
from pathlib import Path

from glossary import demo, jsonio, pages, publish, stamp
from glossary.entries import split_front_matter

# The config.yaml values a page shows.
CONFIG = ("site_title", "colab_prefix")


def as_list(value):
    """A rule's input that may be one path or several."""
    return [value] if isinstance(value, str) else list(value)


def plain(value):
    return str(value) if isinstance(value, str) else [str(v) for v in value]


def from_snakemake(smk):
    """The job Snakemake is running, as plain data."""
    return {"slug": smk.wildcards["entry"],
            "input": {k: plain(v) for k, v in smk.input.items()},
            "params": dict(smk.params.items()),
            "config": {k: smk.config[k] for k in CONFIG},
            "output": {k: plain(v) for k, v in smk.output.items()},
            "log": smk.log[0]}


def fingerprint(path):
    """sha256 of a file, or of a folder's files (names and contents); None when missing."""
    path = Path(path)
    if path.is_file():
        return hashlib.sha256(path.read_bytes()).hexdigest()
    if not path.is_dir():
        return None
    return stamp.digest({rel.as_posix(): fingerprint(path / rel) for rel in publish.files(path)})


def input_paths(job):
    return sorted({p for v in job["input"].values() for p in as_list(v)})


def render(job):
    """The page's HTML."""
    inp, params, config, slug = job["input"], job["params"], job["config"], job["slug"]
    meta, others, base = params["meta"], params["others"], params["base_url"]
    _, body = split_front_matter(Path(inp["entry"]).read_text(encoding="utf-8"), inp["entry"])
    facts = {}
    for path in as_list(inp["facts"]):
        facts.update(jsonio.read(path))
    checks = "".join(Path(p).read_text(encoding="utf-8") for p in sorted(as_list(inp["checks"])))
    script = Path(inp["script"]).read_text(encoding="utf-8")
    head, blocks = demo.blocks(script)
    page = f"terms/{slug}.html"
    code_blocks, seen = [], set()
    for name, text, source in blocks:
        anchor = name if name not in seen else f"{name}-{len(seen)}"   # ids stay unique
        seen.add(anchor)
        code_blocks.append({"name": name, "anchor": anchor, "text": text, "html": pages.code(source)})
    previous, following = pages.neighbours(others, slug)
    context = dict(
        site_title=config["site_title"], page=page, entry=meta, slug=slug,
        prose=pages.prose(body, facts, inp["entry"]),
        checks=checks.rstrip("\n").split("\n"),
        csvs=sorted(p.name for p in Path(inp["data"]).glob("*.csv")),
        colab=config["colab_prefix"] + f"{slug}.ipynb",
        others=others, previous=previous, following=following,
        figure_sizes={Path(p).stem: pages.svg_size(p) for p in as_list(inp["svgs"])},
        preview_size=pages.png_size(inp["preview"]),
        code_head=pages.code(head), code_lines=script.count("\n"),
        code_blocks=code_blocks,
        bibtex=pages.bibtex(slug, meta["title"], config["site_title"], f"{base}{page}" if base else None),
    )
    template = Path(inp["template"])
    return pages.environment(template.parent).get_template(template.name).render(**context)


def run(job):
    """Write the page, then the record of the job that wrote it."""
    html = render(job)
    Path(job["output"]["html"]).write_text(html, encoding="utf-8")
    record = dict(job, hashes={p: fingerprint(p) for p in input_paths(job)})
    jsonio.write(job["output"]["job"], record)
    return record
