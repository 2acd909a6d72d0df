"""Rule notebook: the published script as a Jupyter notebook, one cell pair per block."""
from pathlib import Path

from glossary import notebook

nb = notebook.build(Path(snakemake.input["script"]).read_text(encoding="utf-8"),
                    snakemake.params["title"], snakemake.params["summary"], snakemake.wildcards["entry"],
                    plain=snakemake.params["plain"])
Path(snakemake.output["notebook"]).write_text(notebook.dumps(nb), encoding="utf-8")
