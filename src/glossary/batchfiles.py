"""The files of a batch, one per batch: what its jobs read of its entries (ENTRIES: each entry's snapshot,
written at the workflow's parse by glossary.dictionary.batch_snapshots), and what a batch job leaves for
the later stages: its entries' prose (rule prose_<batch>: each entry's HTML, the page's; its LaTeX, the
print section's; its meta: summary, titles, the entries it links to, the sentences it quotes) and their
print sections (rule section_<batch>), each {slug: ...}, in JSON.

One file per batch rather than one or three per entry: Snakemake keeps a record per output file, each
repeating the job's whole input list, so a batch's records grew with its entries times its inputs."""
from pathlib import Path

from glossary import jsonio

# "_": no entry slug, so no per-entry rule claims these files (as the snapshots beside them)
ENTRIES = "results/_entries/_batches/{batch}.json"
PROSE = "results/prose/{batch}.json"
SECTIONS = "results/print/sections/{batch}.json"


def entries_path(batch):
    return ENTRIES.format(batch=batch)


def read_entries(path):
    """The models of a batch's entries, in its order: the snapshots its ENTRIES file names."""
    return [jsonio.read(row["path"]) for row in jsonio.read(path)]


def prose_path(batch):
    return PROSE.format(batch=batch)


def sections_path(batch):
    return SECTIONS.format(batch=batch)


def write(out, results):
    """results: {slug: what the batch made of that entry}."""
    jsonio.write(out, results)


def read(paths):
    """{slug: ...} of the entries of these batches' files."""
    found = {}
    for p in [paths] if isinstance(paths, str) else paths:
        found.update(jsonio.read(p))
    return found


def read_build(folder, kind=PROSE):
    """{slug: ...} of every batch's file of this kind (PROSE, SECTIONS) in a build's folder."""
    return read(sorted(str(p) for p in (Path(folder) / kind).parent.glob("*.json")))
