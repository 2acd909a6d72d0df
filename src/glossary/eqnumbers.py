"""How LaTeX (amsmath) numbers a term's displayed equations: the one home of the rule, read by the
LaTeX reader (glossary.texdict: the number each \\label names) and by the prose (glossary.texprose:
the numbers a page shows beside each display), so that a page, its PDF and the book agree.

As pdflatex with amsmath numbers them (checked on a test document, commit message):

- `equation` and `multline` take one number; `align`, `gather`, `flalign`, `alignat`, `eqnarray`
  one per row (rows split at the `\\\\` outside groups and inner environments, an empty last row
  after a trailing `\\\\` included: LaTeX numbers it too);
- a row with `\\nonumber` or `\\notag` takes none, nor does a starred environment;
- `\\tag{x}` shows "(x)" (`\\tag*{x}` "x") and takes no number; a \\label there names the tag;
- a \\label in a row without a number names the number the next row would take (what LaTeX's
  \\ref then prints), and takes nothing;
- `$$...$$` and `\\[...\\]` are not numbered; environments nested inside a row (split, aligned,
  pmatrix, cases) belong to that row.
"""
import html as html_lib
import json
import re

from glossary.readers.latex import lexer

ONE = frozenset({"equation", "multline"})
ROWS = frozenset({"align", "gather", "flalign", "alignat", "eqnarray", "xalignat"})
NUMBERED = ONE | ROWS
ENVIRONMENTS = NUMBERED | {name + "*" for name in NUMBERED}
# A row ends at a \\ outside groups and inner environments (glossary.readers.latex.lexer.top_level).
ROW_END = re.compile(r"\\\\")
NO_NUMBER = re.compile(r"\\(nonumber|notag)(?![A-Za-z])")
TAG = re.compile(r"\\tag(\*?)\s*\{([^{}]*)\}")
LABEL = re.compile(r"\\label\s*\{([^{}]*)\}")
# An entry's LaTeX starts its own numbering, so that its PDF, the book and its page show the same
# equation and table numbers (figures: each document's \glossaryentry resets them); the link targets
# of the book's entries stay apart (hyperref's \theH... names).
PRINT_RESET = ("\\setcounter{equation}{0}\\setcounter{table}{0}%\n"
               "\\def\\theHequation{\\arabic{glossaryentry}.\\arabic{equation}}%\n"
               "\\def\\theHtable{\\arabic{glossaryentry}.\\arabic{table}}%")


def row_spans(env, body):
    """[(start, end)] of the rows of `body` (the text between \\begin{env} and \\end{env})."""
    if env.rstrip("*") not in ROWS:
        return [(0, len(body))]
    return lexer.top_level(body, ROW_END, environments=True)


def rows(env, body):
    """[{"start", "end", "numbered", "tag", "labels"}] of each row of the environment `env` whose
    text (between \\begin and \\end) is `body`: whether LaTeX numbers the row, the tag it shows
    instead ("(x)", or None) and the labels in it."""
    out = []
    for start, end in row_spans(env, body):
        text = body[start:end]
        tag = TAG.search(text)
        shown = None if tag is None else (tag.group(2) if tag.group(1) else f"({tag.group(2)})")
        numbered = not env.endswith("*") and tag is None and not NO_NUMBER.search(text)
        out.append({"start": start, "end": end, "numbered": numbered, "tag": shown,
                    "labels": LABEL.findall(text)})
    return out


class Counter:
    """A term's equation counter, run through its displays in order (reset per term, as the print
    edition resets it per entry)."""

    def __init__(self):
        self.value = 0

    def number(self, env, body):
        """Each row of the display with what it shows and its labels name: [{"shown": "(3)", "(x)" or
        None, "number": what a \\label in the row names (an int, a tag's text or None), "labels"}]."""
        out = []
        for row in rows(env, body):
            if row["numbered"]:
                self.value += 1
                shown, named = f"({self.value})", self.value
            elif row["tag"] is not None:
                shown, named = row["tag"], row["tag"].strip("()") if row["tag"].startswith("(") else row["tag"]
            else:
                shown, named = None, self.value + 1 if not env.endswith("*") else None
            out.append({"shown": shown, "number": named, "labels": row["labels"],
                        "start": row["start"], "end": row["end"]})
        return out

    def anchored(self, tex):
        """[[what each row shows ("(3)", a tag, or ""), its anchor (its label, else eq-N, or "")]] of a
        displayed formula's TeX, or [] when it shows no number."""
        found = display(tex)
        rows = self.number(*found) if found else []
        if not any(r["shown"] for r in rows):
            return []
        return [[r["shown"] or "", r["labels"][0] if r["labels"] else (f"eq-{r['number']}" if r["shown"] else "")]
                for r in rows]


def display(tex):
    """(environment, body) of a displayed formula's TeX that is one numbered (or starred) environment
    (pandoc keeps `\\begin{align}...\\end{align}` as the formula), else None."""
    m = re.match(r"\s*\\begin\s*\{([A-Za-z]+\*?)\}", tex)
    if not m or m.group(1) not in ENVIRONMENTS:
        return None
    end = tex.rfind("\\end")
    return m.group(1), tex[m.end():end if end > m.end() else len(tex)]


# A numbered display as pandoc writes it: the Span (its id, classes, data-eqnos) and its formula.
NUMBERED_HTML = re.compile(r'<span((?: id="([^"]*)")?[^>]*?) data-eqnos="([^"]*)"([^>]*)>(<math .*?</math>)</span>',
                           re.S)


def equation_numbers(html):
    """The HTML with each numbered display's numbers beside it, as print sets them: after the
    formula, <span class="eqnos"> with one <a class="eqno" href="#anchor">(N)</a> a numbered row (an
    empty <span class="eqno-none"> a row without one, so that the numbers keep to their rows), each
    row's anchor (its label, else eq-N) the link's id when it is not the display's own."""
    def span(m):
        own, rows = m.group(2) or "", json.loads(html_lib.unescape(m.group(3)))
        marks = []
        for shown, anchor in rows:
            ident = f' id="{html_lib.escape(anchor)}"' if anchor and anchor != own else ""
            if shown:
                target = html_lib.escape(anchor or own)
                marks.append(f'<a class="eqno" href="#{target}"{ident}>{html_lib.escape(shown, quote=False)}</a>')
            else:
                marks.append(f'<span class="eqno-none"{ident}></span>')
        return (f'<span{m.group(1)}{m.group(4)}>{m.group(5)}<span class="eqnos">{"".join(marks)}</span></span>')
    return NUMBERED_HTML.sub(span, html)
