"""What a prose batch hands the later stages: one file per batch (results/prose/<batch>.json) holding,
for each of its entries, the prose as HTML (the page's) and as LaTeX (the print section's) and its
meta (summary, titles, the entries it links to, the sentences it quotes).

One file per batch rather than three per entry: Snakemake keeps a record per output file, each
repeating the job's whole input list, so a batch's records grew with its entries times its inputs."""
from pathlib import Path

from glossary import jsonio

PATH = "results/prose/{batch}.json"


def path(batch):
    return PATH.format(batch=batch)


def write(out, results):
    """results: {slug: {"html", "latex", "meta"}}, the batch's entries."""
    jsonio.write(out, results)


def read(paths):
    """{slug: {"html", "latex", "meta"}} of the entries of these batches' files."""
    found = {}
    for p in [paths] if isinstance(paths, str) else paths:
        found.update(jsonio.read(p))
    return found


def read_build(folder):
    """{slug: {"html", "latex", "meta"}} of every batch file a build's folder holds."""
    return read(sorted(str(p) for p in (Path(folder) / "results/prose").glob("*.json")))
