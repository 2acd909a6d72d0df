"""Rule search_index: the site's search index (search-index.js and its shards in search/), from each
entry's prose and the catalog made of it (glossary.reading)."""
import sys
from pathlib import Path

from glossary import batchfiles, catalog, jobenv, jsonio, reading

sys.stderr = open(snakemake.log[0], "w")
jobenv.beside_the_book()
made = batchfiles.read(snakemake.input["prose"])
# the catalog as rule catalog makes it, from the same prose: the index need not wait for that job
built = catalog.from_prose(made, jsonio.read(snakemake.input["plan"]), jsonio.read(snakemake.input["names"]))[0]
prose = {slug: done["html"] for slug, done in made.items()}
texts = reading.texts_kept(snakemake.params["cache"])   # the prose as text, by its HTML: only new prose is parsed
docs = reading.search_documents(built, prose, jsonio.read(snakemake.input["forms"]), texts)
lang, counts_file = snakemake.params["lang"], snakemake.params["counts"]
# each document's terms, by its text: only the documents that changed go through lunr's pipeline
counts = reading.counts_kept(counts_file, lang)
site = Path(snakemake.output["files"][0]).parent
for name, text in reading.search_files(docs, lang, counts).items():
    (site / name).write_text(text, encoding="utf-8")
reading.keep_texts(snakemake.params["cache"], texts)
reading.keep_counts(counts_file, lang, counts)
