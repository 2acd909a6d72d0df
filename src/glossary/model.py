"""The entry model: what every stage after the readers knows of an entry, whatever its source.

    entry = Entry.from_json(jsonio.read("results/_entries/attention.json"))
    entry.title, entry.forms["plural"], entry.document.source, [c.name for c in entry.citations]

A reader (glossary.entries for entry.md, glossary.texdict for a LaTeX dictionary, through
glossary.dictionary.as_model) builds an `Entry`; the loaded dictionary, the snapshots the jobs read
(results/_entries/<slug>.json) and Snakemake's params hold its JSON form (`to_json`).  The prose is a
`Document`: its source text, the line it starts on, and the name of the reader that parses it into
pandoc's AST.  That name is read in two places alone: here (`MENTIONS`: what the prose names, other
entries, labels, citations, found at load time, each with its line) and glossary.documents (the
parse, in the prose job), so a writer never asks which format an entry came from.  This module
imports no reader's parser: every job and the no-op build import it through glossary.dictionary.
"""
from dataclasses import asdict, dataclass, field, fields

from glossary import entries
from glossary.readers.latex import mentions

# What each Document.reader's prose names (its links, label references and citations, with lines):
# found when the entry is read (glossary.documents parses it into pandoc's AST, in the prose job).
MENTIONS = {"markdown": entries.mentions, "latex": mentions.of}


@dataclass(frozen=True)
class Document:
    """An entry's prose as its reader hands it on: `reader` (a key of MENTIONS and of
    glossary.documents.READERS), the source text and the line of the entry's file it starts on."""
    reader: str
    source: str
    line: int = 1


@dataclass(frozen=True)
class Mention:
    """A name the prose uses (an entry's key or slug, a label, a citation key) and its line in the
    entry's file."""
    name: str
    line: int


@dataclass(frozen=True)
class Label:
    """A label the prose defines: what it labels ("figure", "equation", "table"), the number its
    references show, and its line in the entry's file."""
    name: str
    kind: str
    number: int
    line: int


@dataclass
class Entry:
    """One entry of the dictionary, whatever its source: its names, where it is, its prose and what
    the prose names and defines, each with its line."""
    slug: str
    key: str
    title: str
    path: str
    line: int
    section: str
    document: Document
    forms: dict
    see_also: list = field(default_factory=list)
    summary: str | None = None
    links: list = field(default_factory=list)        # [Mention]: the entries it links to (key or slug)
    label_refs: list = field(default_factory=list)   # [Mention]: the labels its prose refers to
    citations: list = field(default_factory=list)    # [Mention]: the bibliography keys it cites
    labels: list = field(default_factory=list)       # [Label]: the labels it defines
    pictures: list = field(default_factory=list)     # [{"n", "tex", "line", ...}]: its TikZ pictures
    graphics: list = field(default_factory=list)     # [{"n", "path", "line"}]: its included graphics
    meta: dict = field(default_factory=dict)         # the rest of its source's fields (demo, csv, sort ...)

    def to_json(self):
        """The entry as the loaded dictionary, the snapshots and the jobs hold it: one flat dict, its
        source's other fields beside the model's own."""
        own = {f.name: getattr(self, f.name) for f in fields(self) if f.name != "meta"}
        own["document"] = asdict(self.document)
        for name in ("links", "label_refs", "citations", "labels"):
            own[name] = [asdict(m) for m in own[name]]
        return dict(self.meta, **own)

    @classmethod
    def from_json(cls, data):
        own = {f.name for f in fields(cls)} - {"meta"}
        values = {k: v for k, v in data.items() if k in own}
        values["document"] = Document(**data["document"])
        for name in ("links", "label_refs", "citations"):
            values[name] = [Mention(**m) for m in data.get(name, [])]
        values["labels"] = [Label(**m) for m in data.get("labels", [])]
        return cls(**values, meta={k: v for k, v in data.items() if k not in own})


def entry(meta, *, slug, path, document, key=None, forms=None, section="main", line=1, pictures=(),
          graphics=(), labels=None):
    """The Entry of a term whose reader gave `meta` (its fields: title, summary, see_also and the
    rest) and `document`; the prose's mentions are found by the document's reader, `labels` ({name:
    {"kind", "number"}}: the reader's numbering of the labels it defines) placed on their lines, and
    the forms a cross-reference shows default to the title."""
    meta = dict(meta)
    title = meta.pop("title")
    forms = dict(forms or {})
    forms.setdefault("text", title)
    forms.setdefault("first", forms["text"])
    forms.setdefault("plural", forms["text"] + "s")
    forms.setdefault("firstplural", forms["first"] + "s")
    own = {"see_also": meta.pop("see_also", []), "summary": meta.pop("summary", None)}
    meta.setdefault("csv", [])
    meta.setdefault("figures", [])
    found = Entry(slug=slug, key=key or slug, title=title, path=path, line=line, section=section, document=document,
                  forms=forms, pictures=list(pictures), graphics=list(graphics), meta=meta, **own)
    return placed(found, labels or {})


def placed(entry, labels):
    """`entry` with the mentions of its document found by its reader, and its labels ({name: {"kind",
    "number"}}) each on the line of its first definition."""
    links, label_refs, citations, defined = MENTIONS[entry.document.reader](entry.document.source,
                                                                           entry.document.line)
    entry.links, entry.label_refs = [Mention(*m) for m in links], [Mention(*m) for m in label_refs]
    entry.citations = [Mention(*m) for m in citations]
    lines = {}
    for name, at in defined:
        lines.setdefault(name, at)
    entry.labels = [Label(name, info["kind"], info["number"], lines.get(name, entry.document.line))
                    for name, info in labels.items()]
    return entry


def with_prose(data, source, start, **changed):
    """An entry's JSON model with its prose replaced (its document starting on line `start`), the
    mentions and its labels' lines found again, and `changed` fields (the preview's edit of a
    description, which keeps its labels)."""
    entry = Entry.from_json(dict(data, **changed))
    entry.document = Document(entry.document.reader, source, start)
    return placed(entry, {x.name: {"kind": x.kind, "number": x.number} for x in entry.labels}).to_json()
