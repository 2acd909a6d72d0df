"""The book's own parts, which no entry holds: one bibliography for every entry, numbered in the order
of first citation through the book (IEEE, as citeproc's style numbers each page's list), and the List
of Symbols the dictionary's main file inputs, typeset with the dictionary's macros.

An entry's section ends with its own reference list, numbered from 1 as its page numbers it
(glossary.citations.references_latex, anchors ref-<slug>-<n>); its term PDF keeps that list.  The
book takes the lists out (split_references), gives each record one number for the whole book
(Bibliography: the same record cited by two entries is one item), points every citation of the
section at that number and prints one list at the end, anchors bib-<n>.

    bib = Bibliography(formatted)              # formatted: references.json, {key: {"latex", ...}}
    symbols = symbols_latex(text, macros, targets, bib)   # first: its citations come first
    sections = [bib.section(tex, slug) for slug, tex in ...]
    bib.latex()                                # the one list
"""
import re

from glossary import citations, texprose
from glossary.readers.latex.citations import CITE as LATEX_CITE

# The book's anchors of its bibliography's items (an entry's own are ref-<slug>-<n>).
BOOK_PREFIX = "bib-"
# The heading render.references_in writes above an entry's list.
HEADING = re.compile(r"\\glossarypart\{([^\n]*)\}\n\Z")
OPTIONAL = re.compile(r"\[([^\]]*)\]")
# A comment, to its line's end (an escaped \% is text).
COMMENT = re.compile(r"(?<!\\)%.*")


# The start of the anchors of every entry's own reference list (entry_prefix).
ENTRY_ANCHOR = "ref-"
# render.resolve's citation link: \hyperlink{<entry_prefix><n>}{ then the label "[n" or "[n, pinpoint" (pandoc
# writes "[" as "{[}"); the prefix up to the anchor's last hyphen, one pattern for every entry's.
CITATION_LINK = re.compile(r"\\hyperlink\{(" + re.escape(ENTRY_ANCHOR) + r"[^}]*-)(\d+)\}\{\{\[\}(\d+)(?!\d)")


def entry_prefix(slug):
    """The anchors of an entry's own reference list (glossary.render: prefix of citations.number)."""
    return f"{ENTRY_ANCHOR}{slug}-"


def split_references(tex, slug):
    """(tex without the entry's reference list and its heading, the heading or None, [each record's
    LaTeX, in the order of its number]).  The list is found as citations.references_latex writes it:
    its items are read by their labels, then the list is written again from them and must be there
    as it is (a change of that format fails here, not silently in print)."""
    prefix = entry_prefix(slug)
    marks = []
    n = 1
    while True:
        mark = citations.latex_item({"n": n, "latex": ""}, prefix).rstrip("\n")
        at = tex.find(mark)
        if at < 0:
            break
        marks.append((at, len(mark)))
        n += 1
    if not marks:
        return tex, None, []
    records = []
    for i, (at, size) in enumerate(marks):
        end = marks[i + 1][0] - 1 if i + 1 < len(marks) else tex.index("\n\\end{list}", at)
        records.append(tex[at + size:end])
    # (the prose may end with the list's last line, without its newline)
    block = citations.references_latex([{"n": i, "latex": r} for i, r in enumerate(records, 1)], prefix).rstrip("\n")
    start = tex.find(block)
    if start < 0:
        raise ValueError(f"{slug}: its reference list is not as glossary.citations.references_latex writes it")
    heading = HEADING.search(tex, 0, start)
    cut = heading.start() if heading else start
    return tex[:cut].rstrip("\n") + "\n" + tex[start + len(block):], heading.group(1) if heading else None, records


class Bibliography:
    """The book's one list of references: each record (its LaTeX, as citeproc formatted it) numbered
    once, in the order the book first cites it."""

    def __init__(self, formatted=None):
        self.formatted = formatted or {}
        self.numbers = {}

    def number(self, latex):
        return self.numbers.setdefault(latex, len(self.numbers) + 1)

    def section(self, tex, slug):
        """An entry's section as the book sets it: its list taken out, its citations the book's numbers."""
        body, _, records = split_references(tex, slug)
        if not records:
            return tex
        book = {n: self.number(latex) for n, latex in enumerate(records, 1)}
        prefix = entry_prefix(slug)
        return CITATION_LINK.sub(lambda m: self.link_head(book[int(m.group(2))])
                                 if m.group(1) == prefix and m.group(2) == m.group(3) else m.group(0), body)

    @staticmethod
    def link_head(n):
        return f"\\hyperlink{{{BOOK_PREFIX}{n}}}{{{{[}}{n}"

    def cite(self, keys, pinpoint=None):
        """A \\cite of the List of Symbols as the book's numbered links ("[3], [7, Ch. 2]"); a key
        with no formatted record shows as "[?]", as LaTeX shows it."""
        links = []
        for i, key in enumerate(keys):
            where = f", {pinpoint}" if pinpoint and i == len(keys) - 1 else ""
            if key in self.formatted:
                n = self.number(self.formatted[key]["latex"])
                links.append(f"{{\\hyperlink{{{BOOK_PREFIX}{n}}}{{[{n}{where}]}}}}")
            else:
                links.append(f"[?{where}]")
        return ", ".join(links)

    def latex(self):
        """The list, as citations.references_latex writes an entry's ("" when nothing is cited)."""
        return citations.references_latex([{"n": n, "latex": latex} for latex, n in self.numbers.items()],
                                          BOOK_PREFIX)


# The List of Symbols is set inside a group, with the dictionary's macro file read there: a macro the
# book's own notation also defines takes the dictionary's meaning for the list alone, and
# \DeclareMathOperator (a preamble command) defines its operator in the document too.  \bm and
# \mleft/\mright, from packages the book does not load, fall back to their amsmath forms.
SYMBOLS_SETUP = r"""\makeatletter
\providecommand{\bm}{\boldsymbol}
\providecommand{\mleft}{\left}
\providecommand{\mright}{\right}
\def\glossary@operator#1#2#3{\DeclareRobustCommand#2{#1{#3}}}
\def\DeclareMathOperator{\@ifstar{\glossary@operator{\operatorname*}}{\glossary@operator{\operatorname}}}
\let\newcommand\DeclareRobustCommand
\let\renewcommand\DeclareRobustCommand
"""


def macro_text(text):
    """A macro file as the List of Symbols reads it: without comments and \\usepackage lines."""
    return re.sub(r"\\usepackage(\[[^\]]*\])?\{[^{}]*\}", "", texprose.strip_comments(text)).strip() + "\n"


def glossary_ref(match, targets):
    """A \\gls-family call as the link the prose's cross-references are (\\glossaryref{slug}{form})."""
    command, key = match.group(1), match.group(3).strip()
    form, capital = texprose.GLS[command]
    target = targets.get(key)
    if not target:
        return key
    text = texprose.form_text(target["forms"], form)
    if capital and text[:1].isalpha():
        text = text[0].upper() + text[1:]
    return f"\\glossaryref{{{target['slug']}}}{{{text}}}"


def symbols_latex(text, macros, targets, bibliography):
    """The List of Symbols (the authors' file) as the book inputs it: its glossary references linked
    to the entries, its citations the book's numbers, its macros the dictionary's (`macros`: the macro
    files' text), all inside a group."""
    def cite(m):
        options = OPTIONAL.findall(m.group(0)[:m.group(0).rfind("{")])
        keys = [k.strip() for k in m.group(1).split(",") if k.strip()]
        return bibliography.cite(keys, options[-1].strip() if options and options[-1].strip() else None)

    # comments go (a commented-out citation takes no number), each leaving its % (no space where it was)
    body = texprose.GLS_CALL.sub(lambda m: glossary_ref(m, targets), COMMENT.sub("%", text))
    body = LATEX_CITE.sub(cite, body)
    return ("\\begingroup\n" + SYMBOLS_SETUP + macro_text(macros) + "\\makeatother\n\\phantomsection\n"
            + body.strip() + "\n\\endgroup\n")
