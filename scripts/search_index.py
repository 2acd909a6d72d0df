"""Rule search_index: the site's search index (search-index.js and its shards in search/), from the
catalog and each entry's prose (glossary.reading)."""
import sys
from pathlib import Path

from glossary import batchfiles, jsonio, reading

sys.stderr = open(snakemake.log[0], "w")
catalog = jsonio.read(snakemake.input["catalog"])
prose = {slug: done["html"] for slug, done in batchfiles.read(snakemake.input["prose"]).items()}
texts = reading.texts_kept(snakemake.params["cache"])   # the prose as text, by its HTML: only new prose is parsed
docs = reading.search_documents(catalog, prose, jsonio.read(snakemake.input["forms"]), texts)
site = Path(snakemake.output["files"][0]).parent
for name, text in reading.search_files(docs, snakemake.params["lang"]).items():
    (site / name).write_text(text, encoding="utf-8")
reading.keep_texts(snakemake.params["cache"], texts)
