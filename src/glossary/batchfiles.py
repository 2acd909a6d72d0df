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


# A batch's files of the site, one folder a kind (each a directory output of the batch's job): an entry's
# page, Markdown and PDF, named <slug><suffix> as in the site.  Snakemake's DAG of a 5,000-term site holds
# 162 such folders rather than 15,363 files; the staged site links each file (glossary.plan.ENTRY_FILES).
SITE_FILES = {"page": ".html", "markdown": ".md", "pdf": ".pdf"}
# The batch's pictures and included graphics, as its pictures job writes them: its folder holds the
# site's terms/<slug>/pictures/<n>.{pdf,svg} and terms/<slug>/graphics/<n><ext> below <slug>/ (the DAG
# then holds 51 folders at 5,000 terms, not 2,826 files each named by four jobs).
PICTURES = "pictures"
BATCH_FOLDERS = "results/batches"
SITE_FOLDER = f"{BATCH_FOLDERS}/{{kind}}/{{batch}}"


def site_folder(kind, batch):
    """The folder of the batch's job that writes its entries' SITE_FILES[kind]."""
    return SITE_FOLDER.format(kind=kind, batch=batch)


def site_file(kind, folder, slug):
    """An entry's file of the site as its batch's job writes it into `folder` (site_folder)."""
    return Path(folder) / f"{slug}{SITE_FILES[kind]}"


def entries_path(batch):
    return ENTRIES.format(batch=batch)


def read_entries(path):
    """The models of a batch's entries, in its order: the snapshots its ENTRIES file names."""
    return [jsonio.read_compact(row["path"]) for row in jsonio.read_compact(path)]


def prose_path(batch):
    return PROSE.format(batch=batch)


def sections_path(batch):
    return SECTIONS.format(batch=batch)


def write(out, results):
    """results: {slug: what the batch made of that entry}; on one line, as jobs alone read it."""
    jsonio.write(out, results, compact=True)


def read(paths):
    """{slug: ...} of the entries of these batches' files."""
    found = {}
    for p in [paths] if isinstance(paths, str) else paths:
        found.update(jsonio.read_compact(p))
    return found


def read_build(folder, kind=PROSE):
    """{slug: ...} of every batch's file of this kind (PROSE, SECTIONS) in a build's folder."""
    return read(sorted(str(p) for p in (Path(folder) / kind).parent.glob("*.json")))
