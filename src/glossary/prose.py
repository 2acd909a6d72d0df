"""An entry's prose: its Markdown, {{ facts }} filled in, parsed once by pandoc and written as
HTML (math as MathML) for the page, LaTeX (math native) for the print edition and plain
Markdown for machines (terms/<slug>.md).

    out = render(body, facts, "entries/attention/entry.md", macros=notation, titles={"multi-head-attention": ...})
    out["html"], out["latex"], out["markdown"], out["refs"]

The one parse (Markdown -> pandoc's JSON AST) is followed by a pass over the AST in Python:

- `[[slug]]` and `[[slug|text]]` become links to another entry: `<slug>.html` on the page,
  `\\glossaryref{slug}{text}` in the LaTeX (each LaTeX document defines the macro), `<slug>.md`
  in the Markdown.  `[[slug]]` shows the entry's title.
- Raw TeX and raw HTML in the prose are shown as text: pandoc reads raw TeX only so that the
  notation package's `\\newcommand`s (prepended to the text) expand inside formulas; every raw
  TeX piece of the entry's own text becomes a plain string again.
- Links and images to javascript:, vbscript:, file: or data: addresses lose their address.

Formulas are expanded by pandoc's own macro expander, so both outputs carry the same formula.
A formula pandoc's texmath cannot convert (an undefined macro, a typo) is an error naming the
file, the line and the macro, never a box of raw TeX on the page.
"""
import functools
import importlib.util
import json
import os
import re
import subprocess
import tempfile
from pathlib import Path

import jinja2
import jinja2.sandbox

from glossary import xref
from glossary.entries import EntryError, split_front_matter

# Raw HTML off (shown as text); raw TeX on, for the macro definitions (undone in the AST pass);
# citations ([@key], @key) read as pandoc's; no smart quotes, metadata blocks or title blocks: what the
# author typed is what shows;
# no attribute syntax ({onclick=...} on a div, span, link, heading or code), which the HTML writer
# would copy onto the element.
READER = ("markdown+raw_tex+latex_macros+tex_math_dollars+wikilinks_title_after_pipe"
          "-raw_html-raw_attribute-auto_identifiers-smart-yaml_metadata_block-pandoc_title_block"
          "-implicit_figures-native_divs-native_spans-fenced_divs-bracketed_spans-link_attributes"
          "-header_attributes-fenced_code_attributes-inline_code_attributes-markdown_attribute")
WRITERS = {
    "html": ["-t", "html5", "--mathml", "--wrap=preserve", "--syntax-highlighting=none"],
    "latex": ["-t", "latex", "--wrap=preserve", "--syntax-highlighting=none"],
    "markdown": ["-t", "markdown-smart-citations-raw_html-raw_attribute", "--wrap=preserve"],
}
# The abbreviations whose dot ends no sentence (glossary.sentences, glossary.texprose's first uses).
ABBREVIATIONS = ("e.g.", "i.e.", "cf.", "Fig.", "Eq.", "Sec.", "vs.", "etc.", "resp.", "Ch.", "approx.")
# The class of a Span only print shows (the book's \\index entries): the LaTeX writer writes its content,
# the others nothing (for_format).
PRINT_ONLY = "print-only"
# The class of a Span that is a horizontal gap the author gave a width (\hspace{10em} between two labels):
# print writes its TeX, a page an empty box of that width ("width": a TeX length in a unit CSS shares),
# Markdown nothing (for_format).
GAP = "gap"
# The Spans a reader makes of raw TeX it knows (PRINT_ONLY, GAP): not the author's unknown TeX.
KNOWN_RAW = (PRINT_ONLY, GAP)


def known_raw(x):
    return x.get("t") == "Span" and any(k in x["c"][0][1] for k in KNOWN_RAW)
# Where an [[xref]] points, by output format ("latex" is a macro instead).
XREF_TARGET = {"html": "{slug}.html", "markdown": "{slug}.md"}
UNSAFE_URL = re.compile(r"^\s*(javascript|vbscript|file|data):", re.IGNORECASE)
# TeX that reads or writes files, runs commands or redefines TeX, refused inside formulas
# (texmath lets some of it through in \tag{...}; the LaTeX output keeps formulas as they are).
FORBIDDEN = {"input", "include", "InputIfFileExists", "write", "immediate", "openin", "openout", "read",
             "catcode", "def", "edef", "gdef", "xdef", "let", "csname", "special", "usepackage",
             "RequirePackage", "newcommand", "renewcommand", "providecommand", "DeclareMathOperator",
             "makeatletter", "endinput", "documentclass", "begin{document}", "end{document}"}
DEFINES = re.compile(r"\\(newcommand|renewcommand|providecommand|def|DeclareMathOperator)\b")


@functools.cache
def pandoc():
    """The pandoc that the pinned pypandoc-binary wheel bundles (found without importing pypandoc,
    whose import costs 14 ms: docs/performance.md)."""
    spec = importlib.util.find_spec("pypandoc")
    for folder in (spec.submodule_search_locations or []) if spec else []:
        bundled = Path(folder) / "files" / "pandoc"
        if bundled.is_file():
            return str(bundled)
    import pypandoc  # here: a fallback the pinned wheel never takes; its import costs 14 ms in every job
    return pypandoc.get_pandoc_path()


def run_pandoc(args, text, log=None):
    run = subprocess.run([pandoc(), *args] + ([f"--log={log}"] if log else []), input=text.encode("utf-8"),
                         capture_output=True, env=dict(os.environ, LC_ALL="C.UTF-8"), check=False)
    if run.returncode != 0:
        raise RuntimeError(f"pandoc {' '.join(args)} failed: {run.stderr.decode('utf-8', 'replace').strip()}")
    return run.stdout.decode("utf-8")


# --- the notation package -----------------------------------------------------------

def macro_lines(sty_text):
    """The \\newcommand lines of notation.sty (one definition a line), as pandoc reads them."""
    return "\n".join(line.strip() for line in sty_text.splitlines() if line.strip().startswith("\\newcommand"))


def macro_names(macros):
    return sorted(re.findall(r"\\newcommand\s*\{?\\([A-Za-z]+)", macros))


# --- facts --------------------------------------------------------------------------

def body_offset(path):
    """Lines of front matter before the body, so errors point at the file's line."""
    text = Path(path).read_text(encoding="utf-8")
    _, body = split_front_matter(text, path)
    return text[:len(text) - len(body)].count("\n")


def fill(body, facts, path):
    """The prose with its {{ facts }} filled in (a sandboxed Jinja template)."""
    env = jinja2.sandbox.SandboxedEnvironment(undefined=jinja2.StrictUndefined, autoescape=False)
    try:
        return env.from_string(body).render(**facts)
    except jinja2.TemplateSyntaxError as err:
        raise EntryError(f"{path}: body line {err.lineno + body_offset(path)}: {err.message}; "
                         "fix the {{ ... }} expression") from None
    except jinja2.UndefinedError as err:
        raise EntryError(f"{path}: body: {err.message}; quote one of the run's facts: "
                         f"{', '.join(sorted(facts))}") from None


def line_of(body, pattern, path):
    """'line N' of the entry file where `pattern` (a regex) first matches the body, or 'body'."""
    for i, line in enumerate(body.split("\n")):
        if re.search(pattern, line):
            try:
                return f"line {i + 1 + body_offset(path)}"
            except (OSError, EntryError):
                return f"body line {i + 1}"
    return "body"


# --- the AST pass -------------------------------------------------------------------

def node(t, c=None):
    return {"t": t} if c is None else {"t": t, "c": c}


def words(text):
    """Pandoc inlines for plain text: Str between Space / SoftBreak."""
    out = []
    for i, line in enumerate(text.split("\n")):
        if i:
            out.append(node("SoftBreak"))
        for j, word in enumerate(re.split(r"[ \t]+", line)):
            if j:
                out.append(node("Space"))
            if word:
                out.append(node("Str", word))
    return out


def stringify(inlines):
    parts = []
    for x in inlines:
        if x["t"] == "Str":
            parts.append(x["c"])
        elif x["t"] in ("Space", "SoftBreak", "LineBreak"):
            parts.append(" ")
        elif x["t"] in ("Emph", "Strong", "Span", "Strikeout", "Underline", "SmallCaps", "Link"):
            parts.append(stringify(x["c"][1] if x["t"] in ("Span", "Link") else x["c"]))
        elif x["t"] in ("Code", "Math"):
            parts.append(x["c"][-1])
    return "".join(parts)


def inlines_of(blocks):
    """The inlines of a piece's paragraphs (a form's, a name's one paragraph)."""
    out = []
    for b in blocks:
        if b["t"] in ("Para", "Plain"):
            out += b["c"]
    return out


def nodes(value, prune=None):
    """Every dict node of a pandoc JSON AST value, in document order; the children of a node for which
    prune(node) is true are not visited.  A stack, not recursion: the prose job walks every term."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, dict):
            yield v
            if prune is None or not prune(v):
                stack.extend(reversed(list(v.values())))
        elif isinstance(v, list):
            stack.extend(reversed(v))


def formulas(blocks, in_forms=True):
    """The formulas of a term's blocks, in document order; with in_forms=False, not those of the
    forms that glossary links show (xref links: not in the body's source)."""
    def xref(node):
        return not in_forms and node.get("t") == "Link" and "xref" in node["c"][0][1]
    return [node["c"][1] for node in nodes(blocks, xref) if node.get("t") == "Math"]


class Pass:
    """Walks the AST once: xrefs, raw TeX as text, unsafe addresses, formulas checked."""

    def __init__(self, body, path, titles):
        self.body, self.path, self.titles, self.refs = body, path, titles, []

    def error(self, pattern, message):
        raise EntryError(f"{self.path}: {line_of(self.body, pattern, self.path)}: {message}")

    def inlines(self, items):
        out = []
        for x in items:
            out.extend(self.inline(x))
        return out

    def inline(self, x):
        t, c = x["t"], x.get("c")
        if known_raw(x):
            return [x]      # raw TeX a reader made of a construct it knows (\\index, \\hspace), not the author's
        if t == "RawInline":
            self.no_definition(c[1])
            text = c[1]
            return words(text.rstrip()) + ([node("Space")] if text != text.rstrip() else [])
        if t == "Math":
            self.check_math(c[1])
            return [x]
        if t == "Link":
            attr, content, (url, title) = c
            if "wikilink" in attr[1]:
                return [self.xref(url, content)]
            if UNSAFE_URL.match(url):
                return [node("Span", [["", [], []], self.inlines(content)])]
            return [node("Link", [attr, self.inlines(content), [url, title]])]
        if t == "Image":
            attr, content, (url, title) = c
            if UNSAFE_URL.match(url):
                return [node("Span", [["", [], []], self.inlines(content)])]
            return [x]
        if t in ("Emph", "Strong", "Strikeout", "Superscript", "Subscript", "SmallCaps", "Underline"):
            return [node(t, self.inlines(c))]
        if t in ("Span", "Quoted"):
            return [node(t, [c[0], self.inlines(c[1])])]
        if t == "Cite":
            return [node(t, [c[0], self.inlines(c[1])])]
        if t == "Note":
            return [node(t, self.blocks(c))]
        return [x]

    def xref(self, url, content):
        slug = url.strip()
        if slug not in self.titles:
            self.error(re.escape("[[" + url), xref.unknown(slug, self.titles))
        self.refs.append(slug)
        shown = words(self.titles[slug]) if stringify(content).strip() == slug else self.inlines(content)
        # A link of class "xref"; writers() turns it into each format's own form.
        return node("Link", [["", ["xref"], []], shown, [slug, ""]])

    def no_definition(self, tex):
        m = DEFINES.search(tex)
        if m:
            self.error(re.escape(m.group(0)), f"\\{m.group(1)} in the prose; define macros once, in "
                       "templates/notation.sty, and use them in formulas")

    def check_math(self, tex):
        for name in re.findall(r"\\([A-Za-z]+)", tex):
            if name in FORBIDDEN:
                self.error(rf"\\{name}(?![A-Za-z])", f"\\{name} in a formula: not allowed there "
                           "(formulas are typeset by LaTeX as written); remove it")
        # A comment that a line break ends is LaTeX's own; one that runs to the formula's end eats it.
        if re.search(r"(?<!\\)%[^\n]*\Z", tex):
            self.error(r"\$[^$]*(?<!\\)%", "an unescaped % in a formula starts a LaTeX comment; write \\% instead")

    def blocks(self, items):
        out = []
        for b in items:
            out.extend(self.block(b))
        return out

    def block(self, b):
        t, c = b["t"], b.get("c")
        if t == "RawBlock":
            self.no_definition(c[1])
            return [node("Para", words(c[1]))]
        if t in ("Para", "Plain"):
            return [node(t, self.inlines(c))]
        if t == "Header":
            return [node(t, [c[0], c[1], self.inlines(c[2])])]
        if t == "BlockQuote":
            return [node(t, self.blocks(c))]
        if t in ("BulletList",):
            return [node(t, [self.blocks(item) for item in c])]
        if t == "OrderedList":
            return [node(t, [c[0], [self.blocks(item) for item in c[1]]])]
        if t == "DefinitionList":
            return [node(t, [[self.inlines(term), [self.blocks(d) for d in defs]] for term, defs in c])]
        if t == "Div":
            return [node(t, [c[0], self.blocks(c[1])])]
        if t == "LineBlock":
            return [node(t, [self.inlines(line) for line in c])]
        if t == "Figure":
            return [node(t, [c[0], c[1], self.blocks(c[2])])]
        if t == "Table":
            return [self.table(b)]
        return [b]

    def table(self, b):
        # Tables nest blocks deep inside cells: walk them generically.
        def walk(value):
            if isinstance(value, dict) and value.get("t") == "Cell":
                attr, align, rows, cols, blocks = value["c"]
                return node("Cell", [attr, align, rows, cols, self.blocks(blocks)])
            if isinstance(value, dict) and value.get("t") in ("Plain", "Para"):
                return node(value["t"], self.inlines(value["c"]))
            if isinstance(value, dict):
                return {k: walk(v) for k, v in value.items()}
            if isinstance(value, list):
                return [walk(v) for v in value]
            return value
        return walk(b)


def other_edition(target, content, fmt):
    """A reference to a term only another edition has ("en:../../terms/gd", glossary.editions): a
    link to that edition's page, marked with its language; in print the form and the mark alone."""
    lang, path = target.split(":", 1)
    mark = node("Superscript", [node("Str", lang.upper())])
    if fmt == "latex":
        return [*content, mark]
    attrs = [["hreflang", lang]] if fmt == "html" else []
    return [node("Link", [["", ["xref-other"] if fmt == "html" else [], attrs], content,
                          [XREF_TARGET[fmt].format(slug=path), ""]]), mark]


def unnumbered_caption(inlines, command="\\caption*", close="}"):
    return node("Plain", [node("RawInline", ["latex", command + "{"]), *inlines, node("RawInline", ["latex", close])])


def caption_inlines(long):
    return [x for b in long if b["t"] in ("Plain", "Para") for x in b["c"]]


def in_print(v):
    """[v] as print sets it where pandoc's LaTeX writer does not: a caption as LaTeX's \\caption* (a
    subcaption, a Div under one picture of a float, and the caption of an unnumbered figure or table,
    which a \\refstepcounter of the book may have numbered in its text, as "TABLE 1"), a minipage with
    its width and its \\centering."""
    t, c = v["t"], v["c"]
    if t == "Div" and "subcaption" in c[0][1]:
        return [unnumbered_caption(caption_inlines(c[1]))]
    if t == "Div" and "minipage" in c[0][1] and ("centering" in c[0][1] or dict(c[0][2]).get("data-width")):
        # its width and position (latex_widths) and its \centering, which the reader's layout pass took away
        width, position = dict(c[0][2]).get("data-width"), dict(c[0][2]).get("data-position", "c")
        first = ([node("RawBlock", ["latex", f"{WIDTH_NOTE}{width} {position}"])] if width else []) + \
            ([node("RawBlock", ["latex", "\\centering"])] if "centering" in c[0][1] else [])
        last = [node("RawBlock", ["latex", END_NOTE])] if width else []
        attr = [c[0][0], [k for k in c[0][1] if k != "centering"],
                [a for a in c[0][2] if a[0] not in ("data-width", "data-position")]]
        return [node("Div", [attr, [*first, *c[1], *last]])]
    if t == "Figure" and "unnumbered" in c[0][1] and c[1][1]:
        return [node("Figure", [c[0], [None, []], [*c[2], unnumbered_caption(caption_inlines(c[1][1]))]])]
    if t == "Table" and "unnumbered" in c[0][1] and c[1][1]:
        # in a group: \\captionof outside a float sets the caption's \\parskip (zero) for what follows
        return [unnumbered_caption(caption_inlines(c[1][1]), "{\\captionof*{table}", "}}"),
                node("Table", [c[0], [None, []], *c[2:]])]
    return [v]


# A minipage in print: for_format leaves its width and position as a comment first in it and a comment
# last, and latex_widths makes them the minipage: its own where pandoc's writer put 1/n of the line (it
# sets a figure's blocks side by side, each as wide, each [t]), a new one where it wrote the blocks alone
# (a minipage inside another block of a figure).  Minipages one after another share a line, as the
# author's do; where their widths overflow it TeX stacks them (a 0.95 minipage above two of 0.45).
WIDTH_NOTE = "%glossary-minipage-width "
END_NOTE = "%glossary-minipage-end"
WRITTEN_WIDTH = re.compile(r"\\begin\{minipage\}(?:\[[a-z]\])?\{[\d.]+\\linewidth\}\n"
                           + re.escape(WIDTH_NOTE) + r"([\d.]+) ([tcb])\n\n?")
WRITTEN_END = re.compile(re.escape(END_NOTE) + r"\n+(?=\\end\{minipage\})")
LEFT_WIDTH = re.compile("^" + re.escape(WIDTH_NOTE) + r"([\d.]+) ([tcb])\n\n?", re.M)
LEFT_END = re.compile("^" + re.escape(END_NOTE) + "$", re.M)
NEXT_MINIPAGE = re.compile(r"(\\end\{minipage\})\n\n+(?=\\begin\{minipage\})")
BEGIN_MINIPAGE = r"\\begin{minipage}[\2]{\1\\linewidth}\n"
# A photo with its own share of the line (line_share) that pandoc's writer put in a minipage of 1/n of
# the line, as it does each block of a figure of several: the book sets it in the figure itself.
WRAPPED_PHOTO = re.compile(r"\\begin\{minipage\}(?:\[[a-z]\])?\{[\d.]+\\linewidth\}\n"
                           r"(\\includegraphics\[width=[\d.]+\\linewidth[^\]\n]*\]\{[^{}\n]*\})\n\\end\{minipage\}")


def latex_widths(text):
    """pandoc's LaTeX with each minipage of a figure as wide and placed as the book's (one that pandoc
    wrote as its blocks alone made one again), side by side with the next, and a photo of a figure's
    several blocks as wide as its own width says, not within 1/n of the line."""
    text = WRITTEN_END.sub("", WRITTEN_WIDTH.sub(BEGIN_MINIPAGE, WRAPPED_PHOTO.sub(r"\1", text)))
    text = LEFT_END.sub(r"\\end{minipage}", LEFT_WIDTH.sub(BEGIN_MINIPAGE, text))
    return NEXT_MINIPAGE.sub(r"\1\\hspace{1em}%\n", text)


def line_share(attr):
    """An Image's width as a share of the line ("0.8" for pandoc's "80%", which \\includegraphics's
    width=0.8\\textwidth gives), or None."""
    width = dict(attr[2]).get("width", "")
    return f"{float(width[:-1]) / 100:g}" if width.endswith("%") and width[:-1].replace(".", "", 1).isdigit() else None


def for_format(value, fmt):
    """The AST with each xref link in format `fmt`'s own form (and, in print, each unnumbered caption)."""
    if isinstance(value, list):
        out = []
        for v in value:
            if fmt == "latex" and isinstance(v, dict) and v.get("t") in ("Div", "Figure", "Table"):
                done = in_print(v)
                if done != [v]:
                    out.extend(for_format(done, fmt))
                    continue
            if fmt == "html" and isinstance(v, dict) and v.get("t") == "Div" and dict(v["c"][0][2]).get("data-width"):
                # a minipage's share of the line, for the stylesheet (wide screens set it, phones stack them)
                ident, classes, attrs = v["c"][0]
                share = [["style", f"--share: {dict(attrs)['data-width']}"]]
                kept = [a for a in attrs if a[0] not in ("data-width", "data-position")]
                out.append(node("Div", [[ident, classes, kept + share],
                                        for_format(v["c"][1], fmt)]))
                continue
            if fmt == "html" and isinstance(v, dict) and v.get("t") == "Image" and line_share(v["c"][0]):
                # a photo's share of the line (its width=0.8\\textwidth), for the stylesheet as a minipage's
                ident, classes, attrs = v["c"][0]
                kept = [a for a in attrs if a[0] != "width"] + [["style", f"--share: {line_share(v['c'][0])}"]]
                out.append(node("Image", [[ident, classes, kept], for_format(v["c"][1], fmt), v["c"][2]]))
                continue
            if isinstance(v, dict) and v.get("t") == "Span" and PRINT_ONLY in v["c"][0][1]:
                out += for_format(v["c"][1], fmt) if fmt == "latex" else []
                continue
            if isinstance(v, dict) and v.get("t") == "Span" and GAP in v["c"][0][1]:
                width = dict(v["c"][0][2])["width"]
                out += (v["c"][1] if fmt == "latex" else
                        [node("Span", [["", [GAP], [["style", f"--gap: {width}"]]], []])] if fmt == "html" else [])
                continue
            if isinstance(v, dict) and v.get("t") == "Link" and "xref" in v["c"][0][1]:
                slug, content = v["c"][2][0], for_format(v["c"][1], fmt)
                if ":" in slug:
                    out += other_edition(slug, content, fmt)
                elif fmt == "latex":
                    out += [node("RawInline", ["latex", f"\\glossaryref{{{slug}}}{{"]), *content,
                            node("RawInline", ["latex", "}"])]
                else:
                    out.append(node("Link", [["", ["xref"] if fmt == "html" else [], []], content,
                                             [XREF_TARGET[fmt].format(slug=slug), ""]]))
            else:
                out.append(for_format(v, fmt))
        return out
    if isinstance(value, dict):
        return {k: for_format(v, fmt) for k, v in value.items()}
    return value


# --- the one parse, the writers -----------------------------------------------------

def parse(text, macros=""):
    """Pandoc's JSON AST of the prose, the macro definitions read first and dropped."""
    source = (macros + "\n\n" if macros else "") + text
    ast = json.loads(run_pandoc(["-f", READER, "-t", "json"], source))
    if macros:
        first = ast["blocks"][0] if ast["blocks"] else None
        if not (first and first["t"] == "RawBlock" and first["c"][1].strip() == macros.strip()):
            raise RuntimeError("prose: pandoc did not read the notation package's definitions as one block")
        ast["blocks"] = ast["blocks"][1:]
    return ast


def math_failures(log_path):
    """The formulas pandoc's texmath could not convert, from its JSON log: [(formula, message)]."""
    try:
        entries = json.loads(Path(log_path).read_text(encoding="utf-8") or "[]")
    except (OSError, ValueError):
        return []
    return [(e.get("contents", ""), e.get("message", "")) for e in entries if e.get("type") == "CouldNotConvertTeXMath"]


def write(ast, fmt, body, path, macros):
    args = ["-f", "json", *WRITERS[fmt]]
    text = json.dumps(for_format(ast, fmt))
    if fmt != "html":
        return latex_widths(run_pandoc(args, text)) if fmt == "latex" else run_pandoc(args, text)
    # The MathML conversion is where an unknown macro shows: pandoc logs it and writes raw TeX instead.
    with tempfile.TemporaryDirectory() as tmp:
        log = str(Path(tmp) / "log.json")
        out = run_pandoc(args, text, log=log)
        failures = math_failures(log)
    for formula, message in failures:
        raise_math_failure(formula, message, body, path, macros)
    return out


def raise_math_failure(formula, message, body, path, macros):
    """The EntryError of a formula pandoc's texmath could not convert: the file, the line, and the
    macro it did not know (with the known ones) or its own message."""
    m = re.search(r"unexpected control sequence \\([A-Za-z]+)", message)
    if m:
        name = "\\" + m.group(1)
        where = line_of(body, re.escape(name) + "(?![A-Za-z])", path)
        known = ", ".join("\\" + k for k in macro_names(macros))
        raise EntryError(f"{path}: {where}: {name} in a formula is not a macro pandoc knows or "
                         f"templates/notation.sty defines; define it there or use one of: {known}")
    short = " ".join(message.split())
    raise EntryError(f"{path}: {line_of(body, re.escape(formula[:20]), path)}: the formula "
                     f"${formula}$ does not convert ({short}); fix it")


def render(body, facts, path, *, macros="", titles=None, formats=("html", "latex")):
    """The prose of entry file `path` in each of `formats` ("html", "latex", "markdown") from one
    parse; "refs": the slugs its [[...]] link to, in order of appearance."""
    ast = parse(fill(body, facts, path), macros)
    walker = Pass(body, path, titles or {})
    ast["blocks"] = walker.blocks(ast["blocks"])
    out = {fmt: write(ast, fmt, body, path, macros) for fmt in formats}
    out["refs"] = walker.refs
    return out


def html(body, facts, path, *, macros="", titles=None):
    """The prose as HTML only: one parse and one writer."""
    return render(body, facts, path, macros=macros, titles=titles, formats=("html",))["html"]


def markdown_page(title, summary, markdown):
    """terms/<slug>.md: the entry's title as a heading, its summary, then its prose."""
    def plain(text):
        return re.sub(r"([\\`*_\[\]<>#])", r"\\\1", " ".join(str(text).split()))
    return f"# {plain(title)}\n\n> {plain(summary)}\n\n{markdown}"


# --- this reader in the entry model (glossary.model.READERS["markdown"]) -----------------------

# A paragraph between two pieces of text read or written in one pandoc process.
PIECE = "GLOSSARYPIECE{}"
PIECE_LINE = re.compile(r"^GLOSSARYPIECE(\d+)$", re.M)


def parse_entries(entries, facts, context):
    """{slug: blocks} of a batch of entries (glossary.model.Entry): each one's prose with its facts filled
    in, its ```tikz blocks the figures of its compiled pictures."""
    out = {}
    for e in entries:
        body = fill(e.document.source, facts.get(e.slug, {}), e.path)
        out[e.slug] = tikz_figures(parse(body, context["markdown_macros"])["blocks"], e.pictures)
    return out


def reads_name(title):
    """A Markdown entry's name is text as it is: this reader reads none as prose."""
    return False


def parse_names(entries, latex_macros, targets):
    """{} (reads_name)."""
    return {}


def tikz_figures(blocks, pictures):
    """An entry's ```tikz blocks as the figures of its compiled pictures (in order, as
    glossary.entries.tikz_pictures numbered them), each with its caption and label."""
    found = iter(pictures)
    out = []
    for b in blocks:
        if b["t"] == "CodeBlock" and "tikz" in b["c"][0][1]:
            picture = next(found)
            caption = words(picture.get("caption", ""))
            image = node("Image", [["", [], []], [], [f"picture:{picture['n']}", ""]])
            out.append(node("Figure", [[picture.get("label", ""), [], []], [None, [node("Plain", caption)]],
                                       [node("Plain", [image])]]))
        else:
            out.append(b)
    return out


def parse_texts(texts, latex_macros=""):
    """{key: blocks} of short texts (a name's forms) from one pandoc process, each after a PIECE
    paragraph."""
    marks = "\n\n".join(f"{PIECE.format(i)}\n\n{s}" for i, s in enumerate(texts.values()))
    found = []
    for b in parse(marks)["blocks"]:
        m = PIECE_LINE.fullmatch(stringify(b["c"])) if b["t"] == "Para" else None
        if m:
            found.append([])
        elif found:
            found[-1].append(b)
    return dict(zip(texts, found))


def raise_entry_formula(failure, ast, entry, macros=""):
    """raise_math_failure for a formula of one glossary.model.Entry."""
    formula, message = failure
    raise_math_failure(formula, message, entry.document.source, entry.path, macros)
