"""Cross-references between entries: `[[slug]]` and `[[slug|text]]` in an entry's prose.

check() runs when the entries load (glossary.entries.load_all, at the workflow's parse time),
so an unknown slug stops the build before any job runs:

    entries/attention/entry.md: line 31: [[multi-head-atention]]: no entry 'multi-head-atention';
    the closest are: multi-head-attention, attention; fix the slug

The scan reads the Markdown as text, as pandoc will: `[[` ... `]]` on one line, not inside a
fenced code block or a `code span`.  (A link inside an indented code block is still scanned;
fence such code.)  The prose job (glossary.prose) resolves the same links in pandoc's AST.
"""
import difflib
import re
from pathlib import Path

from glossary.errors import EntryError

LINK = re.compile(r"\[\[([^\[\]|\n]+)(?:\|[^\[\]\n]*)?\]\]")
FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")
CODE_SPAN = re.compile(r"(`+)(?!`).*?(?<!`)\1(?!`)", re.DOTALL)


def blank(match):
    """A code span as spaces, its line breaks kept (so line numbers stay right)."""
    return re.sub(r"[^\n]", " ", match.group(0))


def without_code(body):
    """The Markdown with fenced code blocks and code spans blanked out, line for line."""
    lines, fence = [], None
    for line in body.split("\n"):
        m = FENCE.match(line)
        if fence is None and m:
            fence = m.group(1)
            lines.append("")
        elif fence is not None:
            if m and m.group(1)[0] == fence[0] and len(m.group(1)) >= len(fence) and not line.strip(" `~"):
                fence = None
            lines.append("")
        else:
            lines.append(line)
    return CODE_SPAN.sub(blank, "\n".join(lines))


def links(body):
    """[(line in the body, 1-based; slug)] of every [[...]] in the prose, in order."""
    text = without_code(body)
    return [(text.count("\n", 0, m.start()) + 1, m.group(1).strip()) for m in LINK.finditer(text)]


def unknown(slug, known):
    """The message for a link to no entry: the slug and the closest existing slugs."""
    close = difflib.get_close_matches(slug.lower(), sorted(known), n=3, cutoff=0) or sorted(known)[:3]
    return (f"[[{slug}]]: no entry {slug!r}; the closest are: {', '.join(close)}; "
            "fix the slug (the name of the entry's folder)")


def offset(entry):
    """Lines of the entry file before its body (the front matter)."""
    text = Path(entry["path"]).read_text(encoding="utf-8")
    return text[:len(text) - len(entry["body"])].count("\n")


def check(entries):
    """Every [[slug]] of every entry names an entry; returns {slug: [slugs it links to, in order]}.
    Raises EntryError naming the file, the line and the closest slugs otherwise."""
    found = {}
    for slug, entry in entries.items():
        found[slug] = []
        for line, target in links(entry["body"]):
            if target not in entries:
                raise EntryError(f"{entry['path']}: line {line + offset(entry)}: {unknown(target, entries)}")
            found[slug].append(target)
    return found


_LAST = []    # (entries, result) of the last call: every page job's params ask for the same map


def referenced_by(entries):
    """{slug: sorted slugs of the other entries whose prose links to it} (every entry a key)."""
    if _LAST and _LAST[0][0] is entries:
        return _LAST[0][1]
    back = {slug: set() for slug in entries}
    for source, targets in check(entries).items():
        for target in targets:
            if target != source:
                back[target].add(source)
    result = {slug: sorted(sources) for slug, sources in back.items()}
    _LAST[:] = [(entries, result)]
    return result


def titles(entries, slug):
    """The titles of the entries `slug`'s prose links to: what its [[...]] show."""
    return {t: entries[t]["title"] for _, t in links(entries[slug]["body"]) if t in entries}
