"""An entry's Document parsed into pandoc's AST by its reader: the one place after the readers
that maps glossary.model.Document.reader to the reader's parser (glossary.prose for Markdown,
glossary.texprose for LaTeX), so that the writers (glossary.render, glossary.plaintext) hand every
entry here and never ask which format it came from.

    bodies, names = parse(entries, facts, context)     # {slug: blocks}, {slug: blocks of its name}
"""
from glossary import prose, texprose

# Each reader's module parses a batch of entries (parse_entries), short texts (parse_texts), and tells
# a formula that does not convert (raise_entry_formula).
READERS = {"markdown": prose, "latex": texprose}


def parse(entries, facts, context):
    """({slug: pandoc blocks}, {slug: blocks of its name}) for a batch of Entry, each by its reader
    (all LaTeX terms in one pandoc process); the second holds the names that the reader reads as prose (a
    LaTeX term's name with a formula or an accent)."""
    bodies, names = {}, {}
    for name, reader in READERS.items():
        mine = [e for e in entries if e.document.reader == name]
        if mine:
            read, titles = reader.parse_entries(mine, facts, context)
            bodies.update(read)
            names.update(titles)
    return bodies, names


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
