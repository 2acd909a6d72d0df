"""Entries: a folder under entries/ with entry.md (YAML front matter, then Markdown) and a demo.

Everything is checked before any job runs; a mistake stops the build with one
message naming the file, the field and what to do:

    entries/x/entry.md: figures[1].y: x_loss.csv declares no column 'los'; use one of: iter, loss

After the export job, check_exported() holds the demo to the CSVs its entry.md
declares (field `csv`): exactly those files, each with exactly its header.
"""
import csv
import difflib
import re
from pathlib import Path

import yaml

from glossary import xref
from glossary.errors import EntryError

SLUG = re.compile(r"^[a-z0-9-]+$")
SCHEMA = "workflow/schemas/entry.schema.yaml"
# What entries_dir may hold besides entries: hidden folders and Python's caches.
IGNORED = re.compile(r"^(\..*|__pycache__)$")


class FrontMatterError(ValueError):
    def __init__(self, message, line):
        super().__init__(message)
        self.line = line


class StrictLoader(yaml.SafeLoader):
    """YAML as entries need it: a field given twice, a key that is not text, or an alias (which
    copies one part of the metadata into another unseen) is a mistake, not something to guess at."""

    def construct_mapping(self, node, deep=False):
        seen = {}
        for key_node, _ in node.value:
            key = self.construct_object(key_node, deep=True)
            line = key_node.start_mark.line
            if not isinstance(key, str):
                raise FrontMatterError(f"the key {key!r} is not a field name; write the field's name as text", line)
            if key in seen:
                raise FrontMatterError(f"field {key!r} is given twice (also on line {seen[key] + 2}); "
                                       "keep one of them", line)
            seen[key] = line
        return super().construct_mapping(node, deep)

    def compose_node(self, parent, index):
        if self.check_event(yaml.AliasEvent):
            event = self.peek_event()
            raise FrontMatterError(f"the alias *{event.anchor} repeats another part of the metadata; "
                                   "write the value out", event.start_mark.line)
        return super().compose_node(parent, index)


def split_front_matter(text, path):
    match = re.match(r"\A---\n(.*?)\n---\n?(.*)\Z", text, re.S)
    if not match:
        raise EntryError(f"{path}: front matter: the file must start with a '---' line, "
                         "the YAML metadata, and a closing '---' line; add them")
    try:
        meta = yaml.load(match.group(1), Loader=StrictLoader) or {}
    except FrontMatterError as err:
        raise EntryError(f"{path}: front matter (line {err.line + 2}): {err}") from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f" (line {mark.line + 2})" if mark else ""
        raise EntryError(f"{path}: front matter{where}: not valid YAML: "
                         f"{getattr(err, 'problem', err)}; fix the syntax") from None
    return meta, match.group(2)


def field_path(error):
    parts = []
    for part in error.absolute_path:
        parts.append(f"[{part}]" if isinstance(part, int) else ("." if parts else "") + str(part))
    return "".join(parts) or "(top level)"


def _child(field, name):
    return f"{field}.{name}" if field != "(top level)" else name


def schema_message(path, error):
    """One line for a schema violation: the file, the field, the problem, the fix."""
    field = field_path(error)
    if error.validator == "additionalProperties":
        known = sorted(error.schema.get("properties", {}))
        extra = re.findall(r"'([^']+)'", error.message)
        close = difflib.get_close_matches(extra[0], known, n=1) if extra else []
        fix = (f"did you mean {close[0]!r}? Otherwise remove it (known fields: {', '.join(known)})" if close
               else f"remove it or use one of: {', '.join(known)}")
        return (f"{path}: {_child(field, extra[0]) if len(extra) == 1 else field}: unknown field "
                f"{', '.join(repr(e) for e in extra)}; {fix}")
    if error.validator == "required":
        missing = re.findall(r"'([^']+)'", error.message)[0]
        about = error.schema.get("properties", {}).get(missing, {}).get("description")
        return f"{path}: {_child(field, missing)}: missing; add it" + (f" ({about})" if about else "")
    if error.validator == "dependentRequired":
        needed, given = re.findall(r"'([^']+)'", error.message)[:2]
        if needed == "demo":
            return (f"{path}: {_child(field, given)}: given, but the entry has no demo; add the demo "
                    f"or remove {given} (a prose-only entry has no {given})")
        about = error.schema.get("properties", {}).get(needed, {}).get("description")
        return (f"{path}: {_child(field, needed)}: missing; add it" + (f" ({about})" if about else "")
                + "; an entry with a demo declares it")
    if error.validator == "pattern":
        return (f"{path}: {field}: {error.instance!r} does not match {error.validator_value}; "
                "use only the characters it allows")
    if error.validator == "enum":
        return f"{path}: {field}: {error.instance!r} is not one of {error.validator_value}; pick one"
    if error.validator == "minItems" and error.validator_value == 1:
        return f"{path}: {field}: empty; list at least one item"
    if error.validator == "type" and field == "(top level)":
        return (f"{path}: front matter: not a mapping of fields; write one `field: value` a line "
                "(title: ..., summary: ...)")
    if error.validator == "type":
        kinds = error.validator_value if isinstance(error.validator_value, list) else [error.validator_value]
        named = " or ".join({"string": "text", "array": "a list", "object": "a mapping",
                             "integer": "a whole number", "number": "a number"}.get(k, k) for k in kinds)
        fix = "quote it, as YAML reads it as something else" if kinds == ["string"] else "fix the value"
        return f"{path}: {field}: {error.instance!r} is not {named}; {fix}"
    if error.validator in ("oneOf", "anyOf") and error.schema.get("description"):
        return f"{path}: {field}: {error.instance!r} is not {error.schema['description']}; fix the value"
    return f"{path}: {field}: {error.message}; fix the value"


def validate(data, schema, path):
    import jsonschema  # here: 46 ms the jobs that only read entries or raise EntryError do without
    validator = jsonschema.Draft202012Validator(schema)
    # One mistake, the first by field (list items in order); at one place an unknown field (a typo,
    # likely) comes before the missing one it was meant to be.
    errors = sorted(validator.iter_errors(data), key=lambda e: (
        [(0, p, "") if isinstance(p, int) else (1, 0, p) for p in e.absolute_path],
        e.validator != "additionalProperties", e.message))
    if errors:
        raise EntryError(schema_message(path, errors[0]))


def load_schema(path):
    return yaml.safe_load(Path(path).read_text(encoding="utf-8"))


def as_slug(name):
    """A slug close to `name`, to suggest: 'Gradient_Descent' -> 'gradient-descent'."""
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-") or "my-term"


def check_csv_declarations(meta, md):
    """The `csv` list: each file declared once, each column once."""
    names = [c["name"] for c in meta["csv"]]
    for i, c in enumerate(meta["csv"]):
        if names.index(c["name"]) != i:
            first = names.index(c["name"])
            raise EntryError(f"{md}: csv[{i}].name: {c['name']!r} is declared twice (also csv[{first}]); "
                             "declare each CSV once")
        columns = c["columns"]
        for j, col in enumerate(columns):
            if columns.index(col) != j:
                raise EntryError(f"{md}: csv[{i}].columns[{j}]: {col!r} appears twice in {c['name']}'s header; "
                                 "give each column its own name")


def check_custom_figure(fig, where, folder, declared):
    """A custom figure: its template beside entry.md, and a declared CSV if it names one."""
    if not (Path(folder) / fig["source"]).is_file():
        raise EntryError(f"{where}.source: {fig['source']!r} is not a file in {folder}; put the figure's "
                         ".tex.j2 template beside entry.md or fix the name")
    if "csv" in fig and fig["csv"] not in declared:
        raise EntryError(f"{where}.csv: {fig['csv']!r} is not declared under csv; name one of: "
                         f"{', '.join(declared)} (or declare it under csv with its columns)")


def check_data(meta, md):
    """The declared data files: each inside the entry's folder, and there."""
    folder = Path(md).parent
    for i, name in enumerate(meta.get("data", [])):
        path = folder / name
        if ".." in Path(name).parts or not path.resolve().is_relative_to(folder.resolve()):
            raise EntryError(f"{md}: data[{i}]: {name!r} is outside the entry's folder; put the file "
                             f"in {folder} and name it relative to it")
        if not path.is_file():
            raise EntryError(f"{md}: data[{i}]: {name!r} is not a file in {folder}; add it or remove it "
                             "from data")


def check_figures(meta, md):
    """Each figure: its own name, a declared CSV, declared columns of it, what its kind needs."""
    declared = {c["name"]: (i, c["columns"]) for i, c in enumerate(meta["csv"])}
    names = [f["name"] for f in meta["figures"]]
    for i, fig in enumerate(meta["figures"]):
        where = f"{md}: figures[{i}]"
        if names.index(fig["name"]) != i:
            raise EntryError(f"{where}.name: {fig['name']!r} is used twice; give each figure its own name")
        if fig["kind"] == "custom":
            check_custom_figure(fig, where, Path(md).parent, declared)
            continue
        if fig["csv"] not in declared:
            raise EntryError(f"{where}.csv: {fig['csv']!r} is not declared under csv; name one of: "
                             f"{', '.join(declared)} (or declare it under csv with its columns)")
        k, columns = declared[fig["csv"]]
        ys = fig["y"] if isinstance(fig["y"], list) else [fig["y"]]
        fields = [("x", fig["x"])]
        fields += [("y", ys[0])] if isinstance(fig["y"], str) else [(f"y[{j}]", y) for j, y in enumerate(ys)]
        fields += [("value", fig["value"])] if "value" in fig else []
        for field, column in fields:
            if column not in columns:
                raise EntryError(f"{where}.{field}: {fig['csv']} declares no column {column!r}; use one of: "
                                 f"{', '.join(columns)} (or add it to csv[{k}].columns)")
        needs = {"heatmap": ["value", "labels"], "bar": ["labels"]}.get(fig["kind"], [])
        for need in needs:
            if need not in fig:
                what = ("the column holding the cell values" if need == "value"
                        else "the name of the list of tick labels its export() returns")
                raise EntryError(f"{where}.{need}: missing; a {fig['kind']} figure needs it: add {what}")
        if "legend" in fig and len(fig["legend"]) != len(ys):
            raise EntryError(f"{where}.legend: {len(fig['legend'])} entries for {len(ys)} y columns; "
                             "give one legend entry per y column")


def load_entry(folder, schema):
    folder = Path(folder)
    md = folder / "entry.md"
    if not SLUG.match(folder.name):
        raise EntryError(f"{folder}: slug: the folder name {folder.name!r} is not a slug (only a-z, 0-9 "
                         f"and '-'); rename the folder, e.g. to {as_slug(folder.name)!r}")
    if not md.is_file():
        raise EntryError(f"{md}: missing; every entry folder needs an entry.md "
                         "(make new-entry NAME=<slug> writes a skeleton)")
    meta, body = split_front_matter(md.read_text(encoding="utf-8"), md)
    validate(meta, schema, md)
    if "demo" in meta:
        if not (folder / meta["demo"]).is_file():
            raise EntryError(f"{md}: demo: {meta['demo']!r} is not a file in {folder}; "
                             "name the demo script that sits beside entry.md")
        check_csv_declarations(meta, md)
        check_figures(meta, md)
        check_data(meta, md)
        meta.setdefault("preview", Path(meta["demo"]).stem + ".png")
    return term(meta, slug=folder.name, path=str(md), body=body,
                body_line=len(md.read_text(encoding="utf-8").split("\n")) - len(body.split("\n")) + 1,
                pictures=tikz_pictures(body))


TIKZ_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})\s*tikz\s*$")
PICTURE_FIELD = re.compile(r"^%\s*(caption|label):\s*(.*)$")


def tikz_pictures(body):
    """The pictures of a Markdown entry: each fenced block of info string `tikz` (a tikzpicture's
    body or a whole tikzpicture), its `% caption:` and `% label:` comment lines taken out, numbered
    in order, with its line in the body (prose.py's reader turns the same blocks into figures)."""
    pictures, lines, i = [], body.split("\n"), 0
    while i < len(lines):
        m = TIKZ_FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        start, code, fields = i, [], {}
        i += 1
        while i < len(lines) and not lines[i].strip().startswith(m.group(1)):
            field = PICTURE_FIELD.match(lines[i].strip())
            if field and not code:
                fields[field.group(1)] = field.group(2).strip()
            else:
                code.append(lines[i])
            i += 1
        tex = "\n".join(code).strip("\n")
        if "\\begin{tikzpicture}" not in tex:
            tex = "\\begin{tikzpicture}\n" + tex + "\n\\end{tikzpicture}"
        pictures.append({"n": len(pictures) + 1, "tex": tex, "line": start + 1, **fields})
        i += 1
    return pictures


def term(meta, *, slug, path, body, body_line, pictures):
    """An entry.md as this reader hands it to the model (glossary.dictionary.as_model): its metadata
    with the defaults of the optional fields, its prose and where it starts, its pictures."""
    entry = dict(meta, slug=slug, key=slug, path=path, line=1, section="main", body=body, body_line=body_line,
                 format="markdown", pictures=list(pictures))
    entry.setdefault("see_also", [])
    entry.setdefault("summary", None)
    entry.setdefault("csv", [])
    entry.setdefault("figures", [])
    return entry


# Markdown's citations: [@key; @other] and @key (pandoc's syntax; not an e-mail address).
CITE = re.compile(r"(?<![\w\\])@([A-Za-z0-9_][A-Za-z0-9_:.#$%&+?<>~/-]*[A-Za-z0-9_])")


def mentions(source, line):
    """([(slug, line)], [], [(citation key, line)], []) of prose starting on `line` of its file: the
    entries its [[...]] link to and the keys it cites, in order (code left out); Markdown prose neither
    defines nor refers to labels."""
    text = xref.without_code(source)
    links = [(slug, line + at - 1) for at, slug in xref.links(source)]
    cites = [(m.group(1), line + text.count("\n", 0, m.start())) for m in CITE.finditer(text)]
    return links, [], cites, []


# The model's fields that are not its source's metadata (glossary.model.Entry: the prose and what
# it names, and the file it came from).
NOT_METADATA = ("path", "document", "links", "label_refs", "citations")


def front_matter(entry):
    """An entry's metadata as its page, terms.json and notebook use it: all but the prose."""
    return {k: v for k, v in entry.items() if k not in NOT_METADATA}


def load_all(entries_dir, schema_path):
    """All entries, sorted by slug, checked one by one and then against each other."""
    schema = load_schema(schema_path)
    if not Path(entries_dir).is_dir():
        raise EntryError(f"config.yaml: entries_dir: no folder {str(entries_dir)!r}; "
                         "name the folder that holds the entries")
    folders = sorted(p for p in Path(entries_dir).iterdir() if p.is_dir() and not IGNORED.match(p.name))
    entries = {}
    for folder in folders:
        entry = load_entry(folder, schema)
        entries[entry["slug"]] = entry
    for slug, entry in entries.items():
        for i, other in enumerate(entry["see_also"]):
            if other == slug:
                raise EntryError(f"{entry['path']}: see_also[{i}]: {other!r} is this entry itself; remove it")
            if other not in entries:
                close = difflib.get_close_matches(other, list(entries), n=1)
                hint = f"did you mean {close[0]!r}? " if close else ""
                raise EntryError(f"{entry['path']}: see_also[{i}]: no entry {other!r}; {hint}"
                                 f"name one of: {', '.join(s for s in entries if s != slug)}")
    xref.check(entries)         # every [[slug]] in the prose names an entry
    return entries


def header(path):
    """The first row of a CSV file, as a list ([] for an empty file)."""
    with open(path, newline="", encoding="utf-8") as f:
        return next(csv.reader(f), [])


def check_exported(declared, out_dir, entry_file):
    """The demo's export() wrote exactly the declared CSVs, each with exactly the declared header."""
    out_dir = Path(out_dir)
    wrote = sorted(p.name for p in out_dir.iterdir() if not p.name.startswith(".snakemake"))
    names = [c["name"] for c in declared]
    missing = [n for n in names if not (out_dir / n).is_file()]
    if missing:
        raise EntryError(f"{entry_file}: csv: the demo's export() wrote no {', '.join(missing)} "
                         f"(it wrote: {', '.join(wrote) or 'nothing'}); make export() write "
                         f"{'them' if len(missing) > 1 else 'it'} into out_dir or remove "
                         f"{'them' if len(missing) > 1 else 'it'} from csv")
    extra = [n for n in wrote if n not in names]
    if extra:
        raise EntryError(f"{entry_file}: csv: the demo's export() also wrote {', '.join(extra)}, "
                         f"which csv does not declare; declare {'them' if len(extra) > 1 else 'it'} "
                         "under csv (name, columns) or stop export() writing "
                         f"{'them' if len(extra) > 1 else 'it'}")
    for i, c in enumerate(declared):
        have = header(out_dir / c["name"])
        if have != list(c["columns"]):
            raise EntryError(f"{entry_file}: csv[{i}].columns: {c['name']} has the header "
                             f"{','.join(have)!r} but csv declares {','.join(c['columns'])!r}; "
                             "make export() write the declared header or declare the one it writes")
