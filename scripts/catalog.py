"""Rule catalog: what every page, the index and the feeds show of each entry (its title, section,
summary, related entries) and which entries refer to which, from the prose jobs' results."""
import sys

from glossary import catalog, jsonio

sys.stderr = open(snakemake.log[0], "w")
jsonio.write(snakemake.output["catalog"], catalog.build(
    [jsonio.read(p) for p in snakemake.input["meta"]], jsonio.read(snakemake.input["names"]),
    snakemake.params["sections"], snakemake.params["see_also"]))
