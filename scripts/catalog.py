"""Rule catalog: what every page, the index and the feeds show of each entry (its title, section,
summary, related entries) and which entries refer to which, from the prose jobs' results; and, per
batch, what its pages show of it (its view, read by its page job alone)."""
import sys

from glossary import batchfiles, catalog, jsonio

sys.stderr = open(snakemake.log[0], "w")
made_by = jsonio.read(snakemake.input["plan"])          # glossary.plan.CATALOG_PLAN
built, metas = catalog.from_prose(batchfiles.read(snakemake.input["prose"]), made_by,
                                  jsonio.read(snakemake.input["names"]))
batches = dict(made_by["batches"])
# read by jobs and the preview alone, and large: on one line
jsonio.write(snakemake.output["catalog"], built, compact=True)
pages = catalog.views(built, metas, batches)
for batch, page in zip(batches, snakemake.output["views"], strict=True):
    # read by the batch's job alone, and large: on one line
    jsonio.write(page, pages[batch], compact=True)
