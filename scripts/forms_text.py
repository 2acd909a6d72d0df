"""Rule forms_text: results/forms.json, the forms of every term's name (text=, first=, plural=, ...)
as text, formulas as their characters (glossary.plaintext): what the search, terms.json and the
abbreviations page show of them."""
from pathlib import Path

from glossary import jsonio, notation

macros = "".join(Path(p).read_text(encoding="utf-8") for p in snakemake.input["macros"])
jsonio.write(snakemake.output["json"], notation.forms_text(snakemake.params["entries"], macros))
