"""Rule stylesheet: templates/style.css, then the code colours Pygments generates."""
from pathlib import Path

from glossary import pages

css = Path(snakemake.input["css"]).read_text(encoding="utf-8").rstrip("\n") + "\n\n" + pages.code_css()
Path(snakemake.output["css"]).write_text(css, encoding="utf-8")
