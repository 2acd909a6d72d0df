"""Rule page: an entry's HTML page (glossary.pagejob)."""
import sys

from glossary import pagejob

sys.stderr = open(snakemake.log[0], "w")
pagejob.run(pagejob.from_snakemake(snakemake))
