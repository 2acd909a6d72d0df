"""Rule page_<batch>: the HTML pages of a batch of entries (glossary.pagejob)."""

from glossary import pagejob

pagejob.run_batch(snakemake)
