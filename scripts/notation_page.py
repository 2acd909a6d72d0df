"""Rule notation_page: notation.html, the dictionary's List of Symbols (or the symbols its macro file
documents), each symbol and meaning as the pages show formulas and references (glossary.notation)."""
from pathlib import Path

from glossary import citations, jsonio, notation, pages

inp, params = snakemake.input, snakemake.params
sections, macros, documented = notation.notation_sections(inp["symbols"][0] if inp["symbols"] else None,
                                                          inp["macros"], params["latex"])
shown, refs = notation.rendered(sections, macros, jsonio.read(inp["names"])["targets"], params["where"],
                               jsonio.read(inp["references"][0]) if inp["references"] else {})
template = Path(inp["template"])
html = pages.environment(template.parent).get_template(template.name).render(
    site_title=params["site_title"], page=notation.SYMBOLS_PAGE, sections=shown, documented=documented,
    references=citations.references_html(refs),
    site=params["site"], **pages.edition_context(inp["edition"]))
Path(snakemake.output["html"]).write_text(html, encoding="utf-8")
