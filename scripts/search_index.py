"""Rule search_index: the site's search index (search-index.js and its shards in search/), from the
catalog and each entry's prose (glossary.reading)."""
import sys
from pathlib import Path

from glossary import batchfiles, jobenv, jsonio, reading

sys.stderr = open(snakemake.log[0], "w")
jobenv.beside_the_book()
catalog = jsonio.read_compact(snakemake.input["catalog"])
prose = {slug: done["html"] for slug, done in batchfiles.read(snakemake.input["prose"]).items()}
texts = reading.texts_kept(snakemake.params["cache"])   # the prose as text, by its HTML: only new prose is parsed
docs = reading.search_documents(catalog, prose, jsonio.read(snakemake.input["forms"]), texts)
lang, counts_file = snakemake.params["lang"], snakemake.params["counts"]
# each document's terms, by its text: only the documents that changed go through lunr's pipeline
counts = reading.counts_kept(counts_file, lang)
site = Path(snakemake.output["files"][0]).parent
for name, text in reading.search_files(docs, lang, counts).items():
    (site / name).write_text(text, encoding="utf-8")
reading.keep_texts(snakemake.params["cache"], texts)
reading.keep_counts(counts_file, lang, counts)
