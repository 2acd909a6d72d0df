"""An entry's Document parsed into pandoc's AST by its reader: the one place after the readers
that maps glossary.model.Document.reader to the reader's parser (glossary.prose for Markdown,
glossary.texprose for LaTeX), so that the writers (glossary.render, glossary.plaintext) hand every
entry here and never ask which format it came from.

    bodies = parse(entries, facts, context)             # {slug: blocks}
    names = parse_names(entries, context)               # {slug: blocks of its name}, where it is prose
"""
from glossary import prose, texprose

# Each reader's module parses a batch of entries (parse_entries), the names it reads as prose
# (name_reader, parse_names), short texts (parse_texts), and tells a formula that does not convert
# (raise_entry_formula).
READERS = {"markdown": prose, "latex": texprose}


def parse(entries, facts, context):
    """{slug: pandoc blocks} of a batch of Entry, each by its reader (all LaTeX terms in one pandoc process)."""
    bodies = {}
    for name, reader in READERS.items():
        mine = [e for e in entries if e.document.reader == name]
        if mine:
            bodies.update(reader.parse_entries(mine, facts, context))
    return bodies


def name_reader(entry):
    """The reader that reads the entry's name as prose (a LaTeX term's name with a formula or an accent),
    by its name, or None; `entry`: a glossary.model.Entry or the plan's dict of one."""
    reader, title = ((entry["document"]["reader"], entry["title"]) if isinstance(entry, dict)
                     else (entry.document.reader, entry.title))
    return reader if READERS[reader].reads_name(title) else None


def parse_names(entries, context):
    """{slug: blocks of its name} of the entries whose reader reads their name as prose (name_reader)."""
    names = {}
    for name, reader in READERS.items():
        mine = [e for e in entries if e.document.reader == name]
        if mine:
            names.update(reader.parse_names(mine, context["latex_macros"], context["targets"]))
    return names


def parse_texts(items, latex_macros=""):
    """{key: pandoc blocks} of {key: (text, reader)}: short texts (a name's forms) read as their
    entry's prose is."""
    blocks = {}
    for name, reader in READERS.items():
        mine = {k: text for k, (text, by) in items.items() if by == name}
        if mine:
            blocks.update(reader.parse_texts(mine, latex_macros))
    return blocks


def raise_formula(failure, ast, entry, macros=""):
    """The EntryError of a formula of `entry` (an Entry; `ast` its blocks) that does not convert,
    told by its reader with the file and line."""
    READERS[entry.document.reader].raise_entry_formula(failure, ast, entry, macros)
