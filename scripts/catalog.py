"""Rule catalog: what every page, the index and the feeds show of each entry (its title, section,
summary, related entries) and which entries refer to which, from the prose jobs' results; and, per
batch, the sentences in which entries refer to that batch's entries (read by its page job alone)."""
import sys

from glossary import catalog, jsonio

sys.stderr = open(snakemake.log[0], "w")
metas = [jsonio.read(p) for p in snakemake.input["meta"]]
jsonio.write(snakemake.output["catalog"], catalog.build(
    metas, jsonio.read(snakemake.input["names"]), snakemake.params["sections"], snakemake.params["see_also"]))
quoted = catalog.backlinks(metas, snakemake.params["batches"])
for batch, path in zip(snakemake.params["batches"], snakemake.output["backlinks"], strict=True):
    jsonio.write(path, quoted[batch])
