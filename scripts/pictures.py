"""Rule pictures_<batch>: the pictures inside a batch's prose (glossary.pictures: each TikZ picture
compiled once, kept under its content's key) and the graphics files its prose includes, published
beside each entry's page as terms/<slug>/pictures/<n>.{pdf,svg} and terms/<slug>/graphics/<n><ext>."""
import shutil
import sys
from pathlib import Path

from glossary import jsonio, pictures

sys.stderr = open(snakemake.log[0], "w")
inp, params = snakemake.input, snakemake.params
entries = [jsonio.read(p) for p in inp["entries"]]
preamble = Path(inp["preamble"]).read_text(encoding="utf-8")
names = jsonio.read(inp["names"])
texts = {key: target["forms"]["text"] for key, target in names["targets"].items()}   # what \\gls shows in a picture
macros = pictures.macro_definitions(pictures.split_preamble(preamble)[1])
todo = []
for e in entries:
    for pic in e["pictures"]:
        todo.append(dict(pic, term=e["key"], path=e["path"], key=pictures.key(pic["tex"], preamble, macros, texts,
                                                                                      root=params["root"])))
done = pictures.compile_all(todo, preamble, params["root"], params["cache"], jobs=snakemake.threads,
                            terms=texts)
terms = Path(params["site_terms"])
for pic in todo:
    slug = next(e["slug"] for e in entries if e["key"] == pic["term"])
    for ext in ("pdf", "svg"):
        target = terms / slug / "pictures" / f"{pic['n']}.{ext}"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(done[pic["key"]][ext], target)
for e in entries:
    for g in e.get("graphics", []):
        target = terms / e["slug"] / "graphics" / f"{g['n']}{Path(g['path']).suffix.lower()}"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(Path(params["root"]) / g["path"], target)
