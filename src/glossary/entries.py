"""Entries: a folder under entries/ with entry.md (YAML front matter, then Markdown) and a demo.

Everything is checked before any job runs; a mistake stops the build with one
message naming the file, the field and what to do.
"""
import re
from pathlib import Path

import jsonschema
import yaml

SLUG = re.compile(r"^[a-z0-9-]+$")


class EntryError(ValueError):
    """A mistake in an entry or in config.yaml, told as `file: field: problem; fix`."""


def split_front_matter(text, path):
    match = re.match(r"\A---\n(.*?)\n---\n?(.*)\Z", text, re.S)
    if not match:
        raise EntryError(f"{path}: front matter: the file must start with a '---' line, "
                         "the YAML metadata, and a closing '---' line; add them")
    try:
        meta = yaml.safe_load(match.group(1)) or {}
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


def schema_message(path, error):
    """One line for a schema violation: the file, the field, the problem, the fix."""
    field = field_path(error)
    if error.validator == "additionalProperties":
        known = ", ".join(sorted(error.schema.get("properties", {})))
        extra = re.findall(r"'([^']+)'", error.message)
        return (f"{path}: {field}: unknown field {', '.join(repr(e) for e in extra)}; "
                f"remove it or use one of: {known}")
    if error.validator == "required":
        missing = re.findall(r"'([^']+)'", error.message)[0]
        name = f"{field}.{missing}" if field != "(top level)" else missing
        return f"{path}: {name}: missing; add it"
    if error.validator == "pattern":
        return (f"{path}: {field}: {error.instance!r} does not match {error.validator_value}; "
                "use only the characters it allows")
    if error.validator == "enum":
        return f"{path}: {field}: {error.instance!r} is not one of {error.validator_value}; pick one"
    return f"{path}: {field}: {error.message}; fix the value"


def validate(data, schema, path):
    validator = jsonschema.Draft202012Validator(schema)
    errors = sorted(validator.iter_errors(data), key=lambda e: (list(e.absolute_path), e.message))
    if errors:
        raise EntryError(schema_message(path, errors[0]))


def load_schema(path):
    return yaml.safe_load(Path(path).read_text(encoding="utf-8"))


def load_entry(folder, schema):
    folder = Path(folder)
    md = folder / "entry.md"
    if not SLUG.match(folder.name):
        raise EntryError(f"{folder}: folder name: {folder.name!r} is not a slug; rename the "
                         "folder with only a-z, 0-9 and '-'")
    if not md.is_file():
        raise EntryError(f"{md}: missing; every entry folder needs an entry.md")
    meta, body = split_front_matter(md.read_text(encoding="utf-8"), md)
    validate(meta, schema, md)
    if not (folder / meta["demo"]).is_file():
        raise EntryError(f"{md}: demo: {meta['demo']!r} is not a file in {folder}; "
                         "name the demo script that sits beside entry.md")
    meta = dict(meta, slug=folder.name, path=str(md), body=body)
    meta.setdefault("see_also", [])
    meta.setdefault("preview", Path(meta["demo"]).stem + ".png")
    names = [f["name"] for f in meta["figures"]]
    for i, name in enumerate(names):
        if names.index(name) != i:
            raise EntryError(f"{md}: figures[{i}].name: {name!r} is used twice; give each figure its own name")
    return meta


def load_all(entries_dir, schema_path):
    """All entries, sorted by slug, checked one by one and then against each other."""
    schema = load_schema(schema_path)
    folders = sorted(p for p in Path(entries_dir).iterdir() if p.is_dir())
    entries = {}
    for folder in folders:
        entry = load_entry(folder, schema)
        entries[entry["slug"]] = entry
    for slug, entry in entries.items():
        for i, other in enumerate(entry["see_also"]):
            if other not in entries:
                raise EntryError(f"{entry['path']}: see_also[{i}]: no entry {other!r}; "
                                 f"name one of: {', '.join(entries)}")
    return entries
