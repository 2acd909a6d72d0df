"""Rule pictures_<batch>: the pictures inside a batch's prose (glossary.pictures: each TikZ picture
compiled once, kept under its content's key) and the graphics files its prose includes, published
beside each entry's page as terms/<slug>/pictures/<n>.{pdf,svg} and terms/<slug>/graphics/<n><ext>: written
under <slug>/ in the batch's folder (its output, made whole at each run), which the staged site links.

Its inputs are the entries' pictures snapshots (glossary.dictionary.pictures_snapshot): what the
outputs are made of.  Where each picture sits in the dictionary (file and line) is read from the
entry's snapshot, for an error message only: a line that moves changes no picture."""
import shutil
from pathlib import Path

from glossary import dictionary, jsonio, pictures
from glossary.entries import EntryError

inp, params = snakemake.input, snakemake.params
shots = [jsonio.read(p) for p in inp["pictures"]]
preamble = Path(inp["preamble"]).read_text(encoding="utf-8")
forms = {key: f for shot in shots for key, f in shot["forms"].items()}   # what \gls shows in a picture
macros = pictures.macro_definitions(pictures.split_preamble(preamble)[1])
todo = []
for shot in shots:
    if not shot["pictures"]:
        continue
    entry = jsonio.read(dictionary.snapshot_path(shot["slug"]))
    lines = {p["n"]: p.get("line", 1) for p in entry["pictures"]}
    for pic in shot["pictures"]:
        todo.append({"n": pic["n"], "tex": pic["tex"], "term": shot["key"], "slug": shot["slug"],
                     "path": entry["path"], "line": lines.get(pic["n"], 1), "labels": pic.get("labels", {}),
                     "key": pictures.key(pic["tex"], preamble, macros, forms, root=params["root"],
                                         labels=pic.get("labels"))})
done = pictures.compile_all(todo, preamble, params["root"], params["cache"], jobs=snakemake.threads, terms=forms,
                            folder=params["folder"], sources=params["sources"])
terms = Path(snakemake.output["folder"])
for pic in todo:
    for ext in ("pdf", "svg"):
        target = terms / pic["slug"] / "pictures" / f"{pic['n']}.{ext}"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(done[pic["key"]][ext], target)
folder = Path(params["folder"] or params["root"]).resolve()
for shot in shots:
    for g in shot["graphics"]:
        if not (Path(params["root"]) / g["path"]).resolve().is_relative_to(folder):
            entry = jsonio.read(dictionary.snapshot_path(shot["slug"]))
            raise EntryError(f"{entry['path']}:{entry['line']}: term '{shot['key']}': \\includegraphics{{{g['path']}}} "
                             f"is outside the dictionary's folder {folder}; move the file into it")
        target = terms / shot["slug"] / "graphics" / f"{g['n']}{Path(g['path']).suffix.lower()}"
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(Path(params["root"]) / g["path"], target)
