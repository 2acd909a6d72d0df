"""Rule favicon: the site's icon as SVG (linked from every page) and ICO (for /favicon.ico)."""
from pathlib import Path

from glossary import favicon

Path(snakemake.output["svg"]).write_text(favicon.svg(), encoding="utf-8")
Path(snakemake.output["ico"]).write_bytes(favicon.ico())
