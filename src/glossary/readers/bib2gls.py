"""A bib2gls source: the `.bib` files a glossaries-extra main file names with \\GlsXtrLoadResources,
read into the tuples texdict's `entries_of` gives, so that a term read from a record enters the
model exactly where one written with \\newglossaryentry does.

    resources(preamble, main_src, root, Source) -> [(source, [(key, offset, [(field, value, offset)])])]

`Source` is the reader's own file class (comments stripped as in a .tex file, since bib2gls hands
field values to TeX; lines kept), passed in so that this module needs nothing of the reader. Every
offset is into that source's text, so a position (and each line of a description) points at the
`.bib` file and line. The record scanner is small and its own (glossary.citations has one for the
bibliography, but importing it brings pandoc's and jinja2's modules, about 100 ms, into every reader
of a dictionary): `@type{...}` or `@type(...)` blocks, values in braces or quotes or bare, `#`
concatenation, @string macros expanded, @preamble and @comment skipped, text between records ignored
as BibTeX ignores it.

Every record is read, whatever `selection=` says: a dictionary publishes all its terms (the .tex
edition says \\glsaddallunused). A resource's `type=` is the glossary of its records that give
none. The record types and what they set, before the record's own fields (which win):

- @entry: its fields as they are; @index: name=the key, description empty;
- @symbol, @number: name=symbol= when the record gives no name (as \\glsxtrnewsymbol does);
- @abbreviation, @acronym: short= and long= (both required) give name, description, text, plural,
  first and firstplural as the abbreviation style of the record's category (abbreviation or
  acronym, or its category= field) gives them; the main file's \\setabbreviationstyle[category]{style}
  picks the style, else glossaries-extra's defaults: long-short for abbreviations, short-nolong
  for acronyms. Plurals default to short+"s" and long+"s", as glossaries-extra's do;
- @dualentry: the entry, and "dual.<key>" with name and description swapped;
- seealso= (and see=, which has no location list here to stand in) becomes the term's closing
  "See also" paragraph, read and checked as a written one is.

Mistakes are EntryError with file:line, the term, what and the fix: a \\GlsXtrLoadResources file that
does not exist, an unknown record type or abbreviation style, braces that do not close (or close
before the next record, or too early), a field with no value, no '=', no ',' after it or given
twice, an undefined @string macro, an abbreviation without short= or long=. A key defined twice is
the reader's check, across all files.
"""
import difflib
import os
import re
from pathlib import Path

from glossary.entries import EntryError
from glossary.readers.latex import glossaries
from glossary.readers.latex.glossaries import STYLES

# The start of a block, "@type{" or "@type(", and the tokens that end one or a value.
BLOCK_START = re.compile(r"@[ \t]*([A-Za-z]+)[ \t\r\n]*([{(])")
BLOCK_TOKENS = {"{": re.compile(r"[{}]"), "(": re.compile(r"[{}()]")}
QUOTE_OR_BRACE = re.compile(r'[{}"]')
FIELD_NAME = re.compile(r"[\s,]*([A-Za-z][\w:.+/-]*)\s*=\s*")
BARE = re.compile(r"[^\s,#{}\"]*")
SPACE = re.compile(r"\s*")
LOAD = re.compile(r"\\GlsXtrLoadResources(?![A-Za-z])")
# A record's key: up to its first comma (or its end, for a record of no fields).
KEY = re.compile(r"[^,{}()\n]*")
# A record that starts inside the one before it: that one's braces never closed before it.
NEXT_RECORD = re.compile(r"\n[ \t]*@[ \t]*[A-Za-z]+[ \t\r\n]*[{(]")
# Text between records that reads like the rest of one: its braces closed too early.
STRAY = re.compile(r"^\s*(?:[,}]|[A-Za-z][\w:.+/-]*\s*=)")
SEPARATORS = re.compile(r"[\s,]*")
ENDS_ENVIRONMENT = re.compile(r"\\end\s*\{[^{}]*\}\s*$")
MONTHS = {m: m for m in "jan feb mar apr may jun jul aug sep oct nov dec".split()}

RECORDS = ("entry", "index", "symbol", "number", "abbreviation", "acronym", "dualentry")


def resources(preamble, main_src, root, source_class):
    """The records of every .bib file the preamble's \\GlsXtrLoadResources name, in order:
    [(source, [(key, offset, [(field, value, value offset)])])]."""
    styles = glossaries.styles_of(preamble, main_src)
    out = []
    for m in LOAD.finditer(preamble):
        opts = resource_options(preamble, m.end(), main_src)
        names = [n.strip() for n in opts.get("src", Path(main_src.rel).stem).split(",") if n.strip()]
        for name in names:
            path = root / (name if name.endswith(".bib") else name + ".bib")
            rel = Path(os.path.relpath(path, root)).as_posix()
            if not path.is_file():
                raise EntryError(f"{main_src.where(m.start())}: \\GlsXtrLoadResources[src={{{opts.get('src')}}}]: "
                                 f"no file {rel} under {root}; fix the name in src= or add the .bib file")
            src = source_class(path, rel)
            out.append((src, records(src, opts.get("type"), styles)))
    return out


def resource_options(text, pos, main_src):
    """The `[key=value,...]` after \\GlsXtrLoadResources as {key: value}, a braced value unbraced."""
    start = len(text) - len(text[pos:].lstrip(" \t\n%"))
    if not text.startswith("[", start):
        return {}
    depth, items, begin = 0, [], start + 1
    for i in range(start, len(text)):
        c = text[i]
        if c in "[{":
            depth += 1
        elif c in "]}":
            depth -= 1
            if depth == 0:
                items.append(text[begin:i])
                break
        elif c == "," and depth == 1:
            items.append(text[begin:i])
            begin = i + 1
    else:
        raise EntryError(f"{main_src.where(start)}: \\GlsXtrLoadResources: its options' '[' never closes; "
                         "add the ']'")
    opts = {}
    for item in items:
        name, _, value = item.partition("=")
        value = value.strip(" \t\n%")
        if value.startswith("{") and value.endswith("}"):
            value = value[1:-1]
        if name.strip(" \t\n%"):
            opts[name.strip(" \t\n%")] = value
    return opts


def records(src, resource_type, styles):
    """[(key, offset, [(field, value, offset)])] of one .bib file, in file order."""
    text, strings, found, pos = src.text, dict(MONTHS), [], 0
    while (m := BLOCK_START.search(text, pos)) is not None:
        check_between(src, found, text[pos:m.start()], pos)
        kind = m.group(1).lower()
        key = KEY.match(text, m.end()).group().strip()
        term = f"term {key!r}" if key else f"@{kind}"
        end = block_end(text, m.end(), m.group(2))
        closed = end is not None
        end = end or len(text)
        inner = NEXT_RECORD.search(text, m.end(), end)
        if inner and kind != "comment":
            raise EntryError(f"{src.where(m.start())}: {term}: the braces of this record do not close before "
                             f"the next record (line {src.line(inner.start() + 1)}); add the missing '}}' "
                             "in this record")
        if not closed:
            raise EntryError(f"{src.where(m.start())}: {term}: the braces of this record do not close before "
                             f"the end of {src.rel}; add the missing '}}'")
        pos = end
        if kind in ("comment", "preamble"):
            continue
        if kind == "string":
            for name, value, _ in fields(src, m.end(), end - 1, "@string", strings):
                strings[name] = value
            continue
        if kind not in RECORDS:
            close = difflib.get_close_matches(kind, RECORDS, n=1, cutoff=0.6)
            hint = f"did you mean @{close[0]}?" if close else f"use one of @{', @'.join(RECORDS)}"
            raise EntryError(f"{src.where(m.start())}: {term}: bib2gls has no record type @{kind} that this "
                             f"reader knows; {hint}")
        if not key:
            raise EntryError(f"{src.where(m.start())}: @{kind}: the record has no key; write @{kind}{{key, ...}}")
        items = fields(src, m.end() + len(KEY.match(text, m.end()).group()), end - 1, f"term {key!r}", strings)
        found += entries(src, kind, key, m.start(), items, resource_type, styles)
    check_between(src, found, text[pos:], pos)
    return found


def block_end(text, start, opener):
    """The offset just past the block whose delimiter `opener` ends at `start`, or None when it never
    closes (braces nest; a "(" block closes at the first ")" outside braces)."""
    depth = 0
    for match in BLOCK_TOKENS[opener].finditer(text, start):
        char = match.group()
        depth += {"{": 1, "}": -1}.get(char, 0)
        if (depth < 0 and opener == "{") or (char == ")" and depth == 0):
            return match.end()
    return None


def value_parts(text, pos):
    """The parts of a field value at pos, joined by `#`: ([(start, end, delimiter)], the offset after
    the value and its spaces), delimiter "{", '"' or "" for a bare macro name or number."""
    parts = []
    while True:
        pos = SPACE.match(text, pos).end()
        if text.startswith("{", pos):
            end = block_end(text, pos + 1, "{") or len(text)
        elif text.startswith('"', pos):
            depth, end = 0, len(text)
            for match in QUOTE_OR_BRACE.finditer(text, pos + 1):
                if match.group() == '"' and depth == 0:
                    end = match.end()
                    break
                depth += {"{": 1, "}": -1}.get(match.group(), 0)
        else:
            end = BARE.match(text, pos).end()
        if end == pos:
            return parts, pos
        parts.append((pos, end, text[pos] if text[pos] in '{"' else ""))
        pos = SPACE.match(text, end).end()
        if not text.startswith("#", pos):
            return parts, pos
        pos += 1


def check_between(src, found, stray, offset):
    """Text after a record that reads like its fields: the record's braces closed too early."""
    if found and STRAY.match(stray):
        key, at, _ = found[-1]
        raise EntryError(f"{src.where(offset)}: term {key!r}: text after the record's closing brace "
                         f"({stray.strip()[:30]!r}): its braces close too early; remove the stray '}}' between "
                         f"line {src.line(at)}, where the record starts, and here")


def fields(src, pos, end, term, strings):
    """[(field, value, offset of the value's text)] of a record's fields from pos (its key's comma)
    to end (its closing brace): names lower-cased, `#` parts joined, @string macros expanded."""
    text, out, seen = src.text, [], set()
    while True:
        rest = SEPARATORS.match(text, pos).end()
        if rest >= end:
            return out
        name = FIELD_NAME.match(text, rest)
        if name is None or name.end() > end:
            word = text[rest:end].split("\n")[0].strip()[:30]
            raise EntryError(f"{src.where(rest)}: {term}: {word!r} is no field; write name={{value}} and "
                             "separate fields with ','")
        parts, pos = value_parts(text, name.end())
        field = name.group(1).lower()
        if not parts:
            raise EntryError(f"{src.where(name.start(1))}: {term}: field {field!r} has no value; write "
                             f"{field}={{...}} or remove it")
        if parts[-1][1] > end:
            raise EntryError(f"{src.where(parts[-1][0])}: {term}: field {field!r}: its value does not end inside "
                             "the record; close its '\"' (or write the value in braces)")
        if field in seen:
            raise EntryError(f"{src.where(name.start(1))}: {term}: field {field!r} is given twice; keep one")
        seen.add(field)
        if pos < end and text[pos] != ",":
            raise EntryError(f"{src.where(parts[-1][1])}: {term}: no ',' after field {field!r}; add it (or close the "
                             "value's braces where it ends)")
        value = []
        for start, stop, delim in parts:
            if delim:
                value.append(text[start + 1:stop - 1])
            elif text[start:stop].isdigit():
                value.append(text[start:stop])
            elif text[start:stop].lower() in strings:
                value.append(strings[text[start:stop].lower()])
            else:
                raise EntryError(f"{src.where(start)}: {term}: field {field!r}: {text[start:stop]!r} is no "
                                 "@string macro; define it with @string or put the value in braces")
        offset = parts[0][0] + (1 if parts[0][2] else 0)
        out.append((field, "".join(value), offset))


def entries(src, kind, key, at, items, resource_type, styles):
    """The reader's entries of one record: [(key, offset, options)], options as `entries_of` gives
    them (name, value, value offset), those this record sets pointing at the field they come from."""
    given = {name: (value, offset) for name, value, offset in items}
    options = list(items)

    def default(name, value, offset=at):
        if name not in given:
            options.append((name, value, offset))
            given[name] = (value, offset)

    if resource_type and "type" not in given:
        default("type", resource_type)
    if kind == "index":
        default("name", key)
        default("description", "")
    elif kind in ("symbol", "number") and "symbol" in given:
        default("name", *given["symbol"])
        default("sort", key, at)        # bib2gls' symbol-sort-fallback: the record's id
    elif kind in ("abbreviation", "acronym"):
        abbreviation(src, kind, key, at, given, styles, default)
    found = [(key, at, options)]
    if kind == "dualentry":
        swapped = {"name": "description", "description": "name"}
        found.append(("dual." + key, at, [(swapped.get(n, n), v, o) for n, v, o in options
                                          if n not in ("text", "first", "plural", "firstplural", "see", "seealso")]))
    see = [k.strip() for f in ("seealso", "see") if f in given for k in given[f][0].split(",") if k.strip()]
    if see and "description" in given:
        value, offset = given["description"]
        # Appended on the description's last line, so its lines keep their numbers.
        # After an environment, a paragraph starts without \\ (the authors' rule: none after a figure).
        sep = " " if ENDS_ENVIRONMENT.search(value) else " \\\\ "
        options.append(("description", f"{value.rstrip()}{sep}See also: "
                        + ", ".join(f"\\gls{{{k}}}" for k in see) + ".", offset))
    return found


def abbreviation(src, kind, key, at, given, styles, default):
    """The fields an abbreviation style sets from short= and long=."""
    for field in ("short", "long"):
        if field not in given:
            raise EntryError(f"{src.where(at)}: term {key!r}: @{kind} needs {field}={{...}}; add it "
                             f"(short= the abbreviation, long= what it stands for)")
    category = given.get("category", (kind, at))[0]
    # a category without a style of its own takes its kind's (styles_of checked every style given)
    name, first, long_is_description = STYLES[styles.get(category, styles[kind])]
    short, short_at = given["short"]
    long, long_at = given["long"]
    plurals = {"short": given.get("shortplural", (short + "s",))[0], "long": given.get("longplural", (long + "s",))[0]}
    default("name", name.format(short=short, long=long), short_at)
    if long_is_description:
        default("description", long, long_at)
    default("text", short, short_at)
    default("plural", plurals["short"], short_at)
    default("first", first.format(short=short, long=long), long_at)
    default("firstplural", first.format(**plurals), long_at)
