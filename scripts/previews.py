"""Rule previews: previews.js, what a cross-reference's preview shows of each entry."""
import sys
from pathlib import Path

from glossary import jsonio, reading

sys.stderr = open(snakemake.log[0], "w")
catalog = jsonio.read(snakemake.input["catalog"])
Path(snakemake.output["js"]).write_text(reading.previews_script(catalog), encoding="utf-8")
