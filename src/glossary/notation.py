"""Two pages a reader of the dictionary looks things up in besides its terms: the notation
(notation.html) and the abbreviations (abbreviations.html).

The notation page is the dictionary's List of Symbols (the file the main file \\input's after
\\begin{document} that glossary.texmeta finds, the model's `symbols_file`: `align` environments of
rows `& symbol & \\quad & \\parbox{w}{meaning}` under `\\subsection*` headings), each symbol and
meaning read by the descriptions' reader (glossary.texprose: the macro file's definitions, \\gls
references as links to the terms) and written by the pages' writer (MathML).  A dictionary without one
gets the symbols its macro file documents: a definition with a comment at its end, or under a comment
line that heads a block of definitions; without those the page is not made, and no page links to it.

The abbreviations page lists every term that has a short form: glossaries' `short` form, or a
name (or first form) "long form (ABC)" whose ABC is the term's text= form or an acronym."""
import posixpath
import re
import sys
from pathlib import Path

from glossary import citations, plaintext, prose, render, texprose

SYMBOLS_PAGE, ABBREVIATIONS_PAGE = "notation.html", "abbreviations.html"
ALIGN = re.compile(r"\\begin\{(align|eqnarray|gather|flalign)\*?\}(.*?)\\end\{\1\*?\}", re.S)
HEADING = re.compile(r"\\(?:sub)*section\*?\s*\{")
# A row's meaning: the text inside \parbox{width}{...} or \mbox{...}.
BOX = re.compile(r"\\(parbox|mbox|makebox|text)\s*(\[[^\]]*\])?\s*(\{)")
# What only lays out the table's rows.
ROW_LAYOUT = re.compile(r"\\(hline|nonumber|notag|noalign\{[^{}]*\}|quad|qquad)(?![A-Za-z])")
# The space a row's \\[2mm] asks for, at the start of the next row's text (not a cell's "[0,1]").
ROW_SPACE = re.compile(r"^\s*\[[^\]]*\]")
DEFINITION = re.compile(r"^\s*\\(?:newcommand|renewcommand|providecommand|DeclareMathOperator)\*?\s*\{?\\([A-Za-z]+)\}?"
                        r"\s*(?:\[(\d)\])?\s*(\[[^\]]*\])?")
PLACEHOLDERS = "abcdefghi"
# \mbox{\emph{x}}, which texmath does not read in a formula: \textit{x}, as LaTeX prints it there;
# and spacing by hand (\hspace*{-1mm}), which a page lays out itself.
EMPH = re.compile(r"\\mbox\s*\{\s*\\(?:emph|textit)\s*\{([^{}]*)\}\s*\}")
SPACING = re.compile(r"\\[hv]space\*?\s*\{[^{}]*\}")


# --- reading it -------------------------------------------------------------------------------------

def top_level(text, sep):
    """`text` cut at each `sep` outside braces: [(piece, its offset)]."""
    out, depth, start, i = [], 0, 0, 0
    while i < len(text):
        if text.startswith(sep, i) and depth == 0:
            out.append((text[start:i], start))
            i += len(sep)
            start = i
            continue
        c = text[i]
        if c == "\\":
            i += 2
            continue
        depth += (c == "{") - (c == "}")
        i += 1
    out.append((text[start:], start))
    return out


def meaning_of(cell):
    """A row's meaning cell: the text of its \\parbox or \\mbox, or the cell itself."""
    m = BOX.search(cell)
    if not m:
        return cell.strip()
    opened = m.end(3) - 1
    if m.group(1) == "parbox":                  # \parbox{width}{text}: skip the width
        opened = cell.index("{", texprose.group_end(cell, opened))
    return cell[opened + 1:texprose.group_end(cell, opened) - 1].strip()


def readable(tex):
    """A row's TeX with what texmath does not read in a formula rewritten (EMPH, SPACING)."""
    return SPACING.sub(" ", EMPH.sub(r"\\textit{\1}", tex))


def list_of_symbols(text):
    """[{"title": heading's TeX or "", "rows": [{"symbol", "meaning", "offset"}]}] of a List of
    Symbols (comments dropped, offsets into the text as read)."""
    text = texprose.strip_comments(text)
    headings = [(m.start(), text[m.end():texprose.group_end(text, m.end() - 1) - 1]) for m in HEADING.finditer(text)]
    sections = [{"title": "", "rows": []}]
    starts = iter(headings)
    upcoming = next(starts, None)
    for env in ALIGN.finditer(text):
        while upcoming and upcoming[0] < env.start():
            sections.append({"title": upcoming[1].strip(), "rows": []})
            upcoming = next(starts, None)
        body, base = env.group(2), env.start(2)
        for row, at in top_level(body, "\\\\"):
            space = ROW_SPACE.match(row)
            if space:                           # blanked, so that offsets stay the source's
                row = " " * space.end() + row[space.end():]
            cells = [(ROW_LAYOUT.sub(" ", c).strip(), base + at + o) for c, o in top_level(row, "&")]
            cells = [c for c in cells if c[0]]
            if len(cells) >= 2:
                sections[-1]["rows"].append({"symbol": readable(cells[0][0]), "offset": cells[0][1],
                                             "meaning": readable(meaning_of(cells[-1][0]))})
    return [s for s in sections if s["rows"]]


def documented_macros(text):
    """[{"title", "rows": [{"name", "symbol", "meaning"}]}] of the definitions a macro file documents:
    those with a comment at the end of their line, and the block under a comment line."""
    sections, heading = [], None
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped:
            heading = None
            continue
        if stripped.startswith("%"):
            heading = stripped.lstrip("% ").strip() or heading
            continue
        m = DEFINITION.match(line)
        if not m:
            continue
        comment = re.search(r"(?<!\\)%\s*(.*)$", line)
        note = comment.group(1).strip() if comment else ""
        if not note and heading is None:
            continue
        count = int(m.group(2) or 0) - (1 if m.group(3) else 0)
        args = PLACEHOLDERS[:count]
        note = re.sub(r"#(\d)", lambda a, args=args: f"${args[int(a.group(1)) - 1]}$"
                      if int(a.group(1)) <= len(args) else "", note)
        title = heading if heading is not None else ""
        if not sections or sections[-1]["title"] != title:
            sections.append({"title": title, "rows": []})
        sections[-1]["rows"].append({"name": "\\" + m.group(1), "symbol": "\\" + m.group(1)
                                     + "".join(f"{{{a}}}" for a in args), "meaning": note})
    return sections


# --- the page -------------------------------------------------------------------------------------

def from_site_root(piece):
    """The HTML of a piece written for a term page (links to "<slug>.html") as the site's root shows it."""
    def tag(m):
        if not re.search(r'\bclass="(?:xref|ref)\b', m.group(0)):
            return m.group(0)
        # relative to terms/: "<slug>.html", or another edition's "../../terms/<slug>.html"
        return re.sub(r'\bhref="(?!#|[a-z]+:)([^"]*)"',
                      lambda h: f'href="{posixpath.normpath(posixpath.join("terms", h.group(1)))}"', m.group(0))
    return re.sub(r"<a\b[^>]*>", tag, piece)


def rendered(sections, macros, targets, path="", formatted=None):
    """(the sections with each heading, symbol and meaning as HTML (MathML), the page's references):
    one pandoc run reads them all (glossary.texprose, \\gls references as links), one writes them.
    Citations are numbered in the page's order, as a term's are (formatted: the build's records,
    glossary.citations.format_references; the references, citations.number's)."""
    terms = []

    def add(body, line=1):
        if not body:
            return None
        terms.append({"key": f"symbol {len(terms) + 1}", "slug": f"n{len(terms)}", "body": body, "path": path,
                      "body_line": line})
        return terms[-1]["slug"]

    plan = [{"title": add(s["title"]),
             "rows": [{"symbol": add(f"${r['symbol']}$", r.get("line", 1)), "name": r.get("name"),
                       "meaning": add(r["meaning"], r.get("line", 1))} for r in s["rows"]]}
            for s in sections]
    parsed = texprose.parse(terms, macros, targets, first_use=False)
    numbering = citations.Numbering(formatted or {}, "ref-")
    pieces, failures = render.html_pieces({t["slug"]: numbering.walk(parsed[t["slug"]]) for t in terms})
    refs = [{"n": n, "key": key, **numbering.formatted[key]} for key, n in numbering.numbers.items()]
    for formula, message in failures:       # the page shows it as its TeX; the build says so
        print(f"note: {path}: a formula of the List of Symbols does not convert to MathML and shows as TeX: "
              f"{formula} ({' '.join(message.split())[:120]})", file=sys.stderr)

    def shown(slug):
        """The piece's HTML, without its <p> when it is one paragraph (a heading's, a list item's)."""
        piece = from_site_root(pieces[slug]).strip() if slug else ""
        one = piece.startswith("<p>") and piece.endswith("</p>") and piece.count("<p>") == 1
        return piece[3:-4] if one else piece

    def displayed(piece):
        """A symbol as the List of Symbols' align environment sets it: in display style (a fraction full size)."""
        return piece.replace('<math display="inline"', '<math display="inline" displaystyle="true"')

    return [{"title": shown(p["title"]), "id": f"symbols-{i + 1}",
             "rows": [{"symbol": displayed(shown(r["symbol"])), "name": r["name"], "meaning": shown(r["meaning"])}
                      for r in p["rows"]]}
            for i, p in enumerate(plan)], refs


def notation_sections(symbols_path, macro_paths, latex=True):
    """(sections to render, macros for the reader, documented?): the List of Symbols when there is one,
    else the documented definitions of the macro files (a LaTeX dictionary's, or a Markdown one's
    notation.sty: latex=False)."""
    texts = [Path(m).read_text(encoding="utf-8") for m in macro_paths]
    macros = texprose.normalise_macros("".join(texts)) if latex else prose.macro_lines("".join(texts))
    if symbols_path:
        text = Path(symbols_path).read_text(encoding="utf-8")
        found = list_of_symbols(text)
        clean = texprose.strip_comments(text)
        for s in found:
            for r in s["rows"]:
                r["line"] = clean[:r["offset"]].count("\n") + 1
        return found, macros, False
    return [s for t in texts for s in documented_macros(t)], macros, True


def has_notation(symbols_path, macro_paths):
    """Whether the dictionary has a notation page (a List of Symbols, or documented definitions)."""
    return bool(symbols_path) or any(documented_macros(Path(m).read_text(encoding="utf-8")) for m in macro_paths)


# --- abbreviations ----------------------------------------------------------------------------------

TRAILING = re.compile(r"^(.*\S)\s*\(([^()]+)\)\s*$")


def short_form(name, forms):
    """(short form, long form) of a term, or None (see the module's docstring): from its forms'
    `short`/`long` when it has them, else "long (ABC)" in its name or its first form whose ABC is its
    text= form, or one word with two capitals (an acronym: "MLP")."""
    if forms.get("short"):
        return forms["short"], forms.get("long") or name
    text = (forms.get("text") or "").strip("{} ")
    for source in (name, forms.get("first") or ""):
        m = TRAILING.match(source)
        if not m:
            continue
        short = m.group(2).strip()
        if short.strip("{}") == text or (" " not in short and sum(c.isupper() for c in short) >= 2):
            return short.strip("{}"), (m.group(1) if source == name else name)
    return None


def abbreviations(catalog, forms):
    """[{"short", "long", "slug"}] of every term with a short form, by short form; catalog: the build's
    (titles as text); forms: {slug: {form: text}} (results/forms.json)."""
    rows = []
    for r in catalog["entries"]:
        found = short_form(r["title"], forms.get(r["slug"], {}))
        if found:
            rows.append({"short": found[0], "long": found[1], "slug": r["slug"]})
    return sorted(rows, key=lambda r: (r["short"].casefold(), r["short"], r["slug"]))


def has_abbreviations(entries):
    """Whether any entry of the model has a short form (its source's forms, before the build)."""
    return any(short_form(e["title"], e.get("forms", {})) for e in entries.values())


# --- forms as text ----------------------------------------------------------------------------------

def forms_text(entries, latex_macros):
    """{slug: {form: text}} of {slug: {"forms", "reader": its prose's reader}} (forms as their source
    writes them): every form that holds markup read and written as text once (glossary.plaintext)."""
    items = {(slug, k): (v, e["reader"]) for slug, e in entries.items()
             for k, v in sorted(e.get("forms", {}).items())}
    done = plaintext.sources(items, latex_macros)
    out = {}
    for (slug, k), text in done.items():
        out.setdefault(slug, {})[k] = text
    return {slug: out.get(slug, {}) for slug in sorted(entries)}
