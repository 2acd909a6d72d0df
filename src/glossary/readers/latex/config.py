"""The YAML config of a LaTeX dictionary source: its main file and the site's fields, validated.

    read_config(yaml) -> the config's fields, paths joined to the YAML file's folder
    sources_in(folder) -> the dictionary sources a folder holds, the one every command takes first
"""
import os
from pathlib import Path

import yaml

from glossary import assets
from glossary.entries import EntryError, FrontMatterError, StrictLoader, check_csv_declarations, check_figures, validate
from glossary.readers.latex.lexer import decode

# The dictionary's YAML file, taken first where a folder holds several (`glossary init` writes it).
YAML_FILE = "dictionary.yaml"
# A demo's csv and figures are declared as an entry.md declares them: one schema for both.
ENTRY_PROPERTIES = yaml.safe_load(assets.path("workflow/schemas/entry.schema.yaml")
                                  .read_text(encoding="utf-8"))["properties"]
CONFIG_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "description": "a dictionary source: its main .tex file and the site's fields",
    "type": "object",
    "additionalProperties": False,
    "required": ["main"],
    "properties": {
        "main": {"type": "string", "pattern": r"\.tex$", "description": "the main .tex file, relative to this file"},
        # Each of these overrides what the main file says (glossary.texmeta).
        "title": {"type": "string", "minLength": 1, "description": "default: the main file's \\title"},
        "authors": {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1},
                    "description": "the book's authors; default: the names of the main file's \\author"},
        "year": {"type": "integer", "minimum": 1000, "maximum": 9999,
                 "description": "default: the main file's \\date or its please-cite-as text"},
        "url": {"type": "string", "pattern": "^https?://.*/$"},
        "attribution": {"type": "string", "minLength": 1},
        "license": {"description": "default: the licence the LICENSE file beside the main file names",
                    "oneOf": [{"type": "string", "minLength": 1},
                              {"type": "object", "additionalProperties": False, "required": ["name"],
                               "properties": {"name": {"type": "string", "minLength": 1},
                                              "url": {"type": "string", "pattern": "^https?://"}}}]},
        "description": {"type": "string", "minLength": 1, "description": "what the site is, in a sentence or two"},
        "manifest": {"type": "string", "pattern": r"\.json$"},
        "language": {"type": "string", "pattern": "^[a-z]{2,3}$", "description": "the language of the main file (en)"},
        "editions": {
            "description": "the translations, by language code: each a site under <lang>/ (glossary.editions)",
            "type": "object",
            "propertyNames": {"pattern": "^[a-z]{2,3}$"},
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "required": ["main"],
                "properties": {
                    "main": {"type": "string", "pattern": r"\.tex$"},
                    "title": {"type": "string", "minLength": 1},
                    "description": {"type": "string", "minLength": 1},
                    "complete": {"type": "boolean", "description": "a \\gls key it lacks is an error"},
                    "sections": {"type": "object", "additionalProperties": {"type": "string", "minLength": 1},
                                 "description": "section titles by glossary type, in this language"},
                },
            },
        },
        "demos": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "required": ["script", "kind"],
                "properties": {
                    "script": {"type": "string", "pattern": r"\.py$"},
                    "kind": {"enum": ["plain", "blocks"]},
                    # The same declarations as an entry.md's (workflow/schemas/entry.schema.yaml).
                    "csv": ENTRY_PROPERTIES["csv"],
                    "figures": ENTRY_PROPERTIES["figures"],
                    "preview": {"type": "string", "pattern": r"^[A-Za-z0-9_-]+\.(pdf|png)$",
                                "description": "plain: the image the script saves beside itself"},
                },
            },
        },
    },
}
# The fields that name files, all relative to the YAML file's folder.
CONFIG_PATHS = ("main", "manifest")


def inside(path, field, given):
    """`given` joined to the YAML file's folder (normalised), which a build reads alone: a name out of it
    (absolute, ../, or a link leading out) is an EntryError."""
    joined = os.path.normpath(path.parent / given)
    if not Path(joined).resolve().is_relative_to(path.parent.resolve()):
        raise EntryError(f"{path}: {field}: {given!r} is outside the dictionary's folder {path.parent}; a build "
                         "reads only that folder: move the file into it and name it relative to the YAML file")
    return joined


def read_config(yaml_path, check=True):
    """A source config: its fields, with main/manifest/demo scripts joined to the YAML file's folder
    (normalised, not made absolute) and "path" the YAML file itself.  check=False: not checked against
    its schema, for the no-op's look at the stamp alone (glossary.plan.Source.roots_unchecked)."""
    path = Path(yaml_path)
    try:
        # a byte that is not UTF-8: a Mistake naming its line, column and bytes (YAML files are UTF-8)
        data = yaml.load(decode(path.read_bytes(), str(path)), Loader=StrictLoader)
    except FileNotFoundError:
        raise EntryError(f"{path}: no such file; write the dictionary's config there") from None
    except FrontMatterError as err:
        raise EntryError(f"{path}:{err.line + 1}: {err}") from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        raise EntryError(f"{path}{f':{mark.line + 1}' if mark else ''}: not valid YAML: "
                         f"{getattr(err, 'problem', err)}; fix the syntax") from None
    if check:
        validate(data, CONFIG_SCHEMA, path)
    config = dict(data, path=str(path))
    for field in CONFIG_PATHS:
        if field in data:
            config[field] = inside(path, field, data[field])
    if not Path(config["main"]).is_file():
        raise EntryError(f"{path}: main: {data['main']!r} is not a file next to {path.name}; give the main "
                         ".tex file's path relative to the YAML file")
    config["demos"] = {key: read_demo(path, key, demo) for key, demo in sorted(data.get("demos", {}).items())}
    for lang, edition in sorted(data.get("editions", {}).items()):
        main = inside(path, f"editions.{lang}.main", edition["main"])
        if not Path(main).is_file():
            raise EntryError(f"{path}: editions.{lang}.main: {edition['main']!r} is not a file; give the "
                             "edition's main .tex file relative to the YAML file")
        config["editions"][lang] = dict(edition, main=main)
    return config


def read_demo(path, key, demo):
    """One entry of `demos:` checked as an entry.md's demo is (csv, figures), its script's path joined
    to the YAML file's folder; the fields it does not give are left out (csv and figures default to
    none, the preview of a plain script to <script>.png or .pdf)."""
    script = inside(path, f"demos.{key}.script", demo["script"])
    if not Path(script).is_file():
        raise EntryError(f"{path}: demos.{key}.script: {demo['script']!r} is not a file; give the "
                         "script's path relative to the YAML file")
    if "preview" in demo and demo["kind"] != "plain":
        raise EntryError(f"{path}: demos.{key}.preview: only a plain script names its preview image; a "
                         "blocks demo draws <script>.png with its preview(): remove the field")
    where = f"{path}: demos.{key}"
    meta = {"csv": demo.get("csv", []), "figures": demo.get("figures", [])}
    check_csv_declarations(meta, where)
    # check_figures looks for a custom figure's template beside the declaring file; here it sits
    # beside the script, so custom figures are checked here and the others by check_figures.
    names = [f["name"] for f in meta["figures"]]
    declared = [c["name"] for c in meta["csv"]]
    for i, fig in enumerate(meta["figures"]):
        if fig["kind"] != "custom":
            continue
        if names.index(fig["name"]) != i:
            raise EntryError(f"{where}: figures[{i}].name: {fig['name']!r} is used twice; give each figure its "
                             "own name")
        inside(path, f"demos.{key}.figures[{i}].source", os.path.relpath(Path(script).parent / fig["source"],
                                                                         path.parent))
        if not (Path(script).parent / fig["source"]).is_file():
            raise EntryError(f"{where}: figures[{i}].source: {fig['source']!r} is not a file in "
                             f"{Path(script).parent}; put the figure's .tex.j2 template beside the script")
        if fig.get("csv") and fig["csv"] not in declared:
            raise EntryError(f"{where}: figures[{i}].csv: {fig['csv']!r} is not declared under csv; name one of: "
                             f"{', '.join(declared)} (or declare it under csv with its columns)")
    check_figures(dict(meta, figures=[f for f in meta["figures"] if f["kind"] != "custom"]), where)
    return {"script": script, "kind": demo["kind"],
            **{k: demo[k] for k in ("csv", "figures", "preview") if k in demo}}


def main_files(folder):
    """The glossaries-extra main files in `folder`: .tex files that open a document using glossaries."""
    found = []
    for tex in sorted(Path(folder).glob("*.tex")):
        text = tex.read_text(encoding="utf-8", errors="replace")
        if "\\documentclass" in text and "glossaries" in text:
            found.append(tex)
    return found


def yaml_files(folder):
    """The YAML files in `folder` that name a main file (`main: X.tex`), as the build's YAML file does."""
    found = []
    for path in sorted([*Path(folder).glob("*.yaml"), *Path(folder).glob("*.yml")]):
        try:
            data = yaml.safe_load(path.read_text(encoding="utf-8"))
        except (OSError, yaml.YAMLError, UnicodeDecodeError):
            continue    # not a dictionary's YAML file: another tool's
        if isinstance(data, dict) and str(data.get("main", "")).endswith(".tex"):
            found.append(path)
    return found


def sources_in(folder):
    """The dictionary sources `folder` holds, in the order every command (glossary build, serve, the
    language server) takes them: its dictionary.yaml alone; else the YAML files naming a main file;
    else the main .tex files.  More than one: the folder is ambiguous (the build asks for --source)."""
    folder = Path(folder)
    if (folder / YAML_FILE).is_file():
        return [folder / YAML_FILE]
    return yaml_files(folder) or main_files(folder)
