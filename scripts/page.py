"""Rule page_<batch>: the HTML pages of a batch of entries (glossary.pagejob)."""
import sys

from glossary import pagejob

sys.stderr = open(snakemake.log[0], "w")
pagejob.run_batch(snakemake)
