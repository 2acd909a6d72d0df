"""Rule page: an entry's HTML page (glossary.pagejob), and the record of the job
that `make site` replays after a prose-only edit."""
import sys

from glossary import pagejob

sys.stderr = open(snakemake.log[0], "w")
pagejob.run(pagejob.from_snakemake(snakemake))
