"""Rule references: every record the entries cite, formatted once for the whole build by pandoc's
citeproc in the pinned IEEE style (glossary.citations); the prose jobs number them per entry."""

from glossary import citations, jsonio

jsonio.write(snakemake.output["json"], citations.format_references(
    snakemake.params["cited"], snakemake.input["bib"], snakemake.input["csl"]))
