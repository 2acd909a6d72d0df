"""The files a batch job leaves for the later stages, one per batch: its entries' prose (rule
prose_<batch>: each entry's HTML, the page's; its LaTeX, the print section's; its meta: summary, titles,
the entries it links to, the sentences it quotes) and their print sections (rule section_<batch>).
Each is {slug: ...}, in JSON.

One file per batch rather than one or three per entry: Snakemake keeps a record per output file, each
repeating the job's whole input list, so a batch's records grew with its entries times its inputs."""
from pathlib import Path

from glossary import jsonio

PROSE = "results/prose/{batch}.json"
SECTIONS = "results/print/sections/{batch}.json"


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
