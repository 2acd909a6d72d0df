"""Rule publish_demo: the script readers download, pinned to the build's numeric platform."""
from pathlib import Path

from glossary import notebook

source = Path(snakemake.input["demo"]).read_text(encoding="utf-8")
Path(snakemake.output["script"]).write_text(
    notebook.publish_script(source, snakemake.config["numeric_env"]), encoding="utf-8")
