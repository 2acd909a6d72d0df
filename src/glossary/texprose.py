"""A dictionary's LaTeX descriptions (glossaries-extra) read into pandoc's JSON AST, in the shapes
that glossary.prose's writers take, so that the LaTeX path shares the Markdown path's writers.

    macros = normalise_macros(Path("assets/ml_macros.tex").read_text())
    blocks = parse(terms, macros, targets)          # {slug: [block, ...]}, one pandoc process
    pages = render.html_pieces(blocks)     # {slug: html}, one pandoc process; formulas checked

Why each step:

- All descriptions go through ONE pandoc process (`-f latex+raw_tex -t json`): pandoc starts in
  about 0.1 s, and 569 starts would cost a minute.  Each body follows a marker paragraph
  (`\\glossarysplit{N}`) that pandoc returns as a RawBlock; the blocks between markers are that
  term's.  The forms that references show are parsed in the same process, after the bodies.
- The macro file is rewritten for texmath (`normalise_macros`): the old font switches `{\\bf x}`,
  `{\\rm cols}`, `{\\cal X}`, `\\bm`, and `\\mleft`/`\\mright` are not texmath's; `\\mathbf{x}`,
  `\\mathrm{cols}`, `\\mathcal{X}`, `\\boldsymbol`, `\\left`/`\\right` are, and LaTeX prints them alike.
  Formulas typed in the descriptions get the same rewriting after pandoc has expanded the macros;
  `\\linebreak` goes, and a one-line equation's `\\label` moves to its front (texmath refuses it last).
- pandoc reads `\\gls{k}` and `\\Gls{k}` alike (as the key), so every glossary reference is replaced
  by a stand-in link `\\href{glsxref:N}{N}` before pandoc reads the text and put back afterwards: in
  prose as an xref Link (`Link [["", ["xref"], []], form, [slug, ""]]`, as prose.Pass makes for
  `[[slug]]`) showing the term's form, capitalised for `\\Gls`; inside a formula as the form's
  LaTeX (in a `\\text{}` if it was not in one), the formula wrapped in
  `Span [["", ["math-xref"], [["data-xrefs", '[[slug, text], ...]']]], [Math]]` so that
  `glossary.mathml.link_math` makes that text a link in the HTML (`<a>` inside `<mtext>`); `\\eqref{x}` inside a
  formula becomes the text "(x)" recorded as ["#x", "(x)"] (glossary.render shows the number).  The
  Span's `data-latex` is the formula as the LaTeX writes it, each of those references a link
  (`\\glossaryref{slug}{form}`, `\\hyperref[x]{(x)}`).
- Forms follow glossaries' first use, one description being the document: the first `\\gls{k}` of a
  description shows k's `first` (`firstplural`) form, the later ones its `text` (`plural`).
- `\\ref{x}` and `\\eqref{x}` (which pandoc keeps raw when it keeps raw TeX) become the Link that
  pandoc makes without raw TeX: `Link [["", [], [["reference-type", "ref"|"eqref"], ["reference", x]]],
  [Str x], ["#x", ""]]`; a later pass resolves them.  A displayed equation with `\\label{x}` is
  wrapped in `Span [["", ["equation"], [["label", x]]], [Math]]`, which the HTML writer turns into an
  anchor `id="x"` (the LaTeX writer would label a Span's identifier a second time), and a
  figure whose `\\label` sits inside its caption (which pandoc misses) gets it as identifier.
- `unknown(blocks)` lists the raw TeX pandoc left (constructs it does not know), for measuring.
"""
import json
import re

from glossary import eqnumbers
from glossary.entries import EntryError
from glossary.prose import (
    ABBREVIATIONS,
    FORBIDDEN,
    GAP,
    PRINT_ONLY,
    formulas,
    inlines_of,
    known_raw,
    node,
    nodes,
    run_pandoc,
)
from glossary.readers.latex import environments, glossaries, kernel, lexer, reads, references
from glossary.readers.latex.glossaries import form_name, form_text

# --sandbox: pandoc reads no file (a \\lstinputlisting would put any file of the machine into the text).
READER = ["-f", "latex+raw_tex", "-t", "json", "--sandbox"]
# The commands with which pandoc would read a file into the text: each is an EntryError (check_reads).
FILE_READS = re.compile("(" + "|".join(map(re.escape, reads.DESCRIPTION_READS)) + r")(?![A-Za-z])")
# The JSON AST version of the pinned pandoc (3.9), checked on each parse, written back by the writers.
API_VERSION = [1, 23, 1, 1]
HTML = ["-f", "json", "-t", "html5", "--mathml", "--wrap=preserve", "--syntax-highlighting=none"]
# The glossary commands read, the form each shows and their calls: the glossaries binding's.
GLS, GLS_CALL = glossaries.FORMS, glossaries.GLS_CALL
# The stand-in for reference N: a link pandoc keeps as a Link in prose and as text in a formula
# (an unknown command would start a RawBlock at the head of a paragraph).
TOKEN = "\\href{{glsxref:{n}}}{{{n}}}"
XREF = re.compile(r"\\href\{glsxref:(\d+)\}\{\d+\}")
SPLIT = "glossarysplit"
FORM = "glossaryform"
# Old-style font switches and the math commands texmath knows for them.
SWITCHES = {"bf": "mathbf", "rm": "mathrm", "it": "mathit", "cal": "mathcal", "sf": "mathsf", "tt": "mathtt"}
RENAMED = {"bm": "boldsymbol", "mleft": "left", "mright": "right"}
CONTROL = re.compile(r"\\([A-Za-z]+)|\\.")


# --- the macro file ---------------------------------------------------------------------

def strip_comments(text):
    """The text without its % comments, nothing left in their place (the lexer's, a `\\%` kept)."""
    return lexer.strip_comments(text, mark="")


def group_end(text, start):
    """The index just past the group that `text[start]` ('{') opens, or len(text) if it never closes."""
    end = lexer.group_end(text, start)
    return len(text) if end is None else end


def modern_fonts(tex):
    """`tex` with {\\bf x} as \\mathbf{x} (a switch rules to the end of its group), \\bm as
    \\boldsymbol and \\mleft/\\mright as \\left/\\right: what texmath converts."""
    out, i = [], 0
    while i < len(tex):
        m = CONTROL.match(tex, i)
        if not m:
            out.append(tex[i])
            i += 1
            continue
        name = m.group(1)
        if name in SWITCHES:
            end = lexer.scope_end(tex, m.end())
            rest = modern_fonts(tex[m.end():end].strip())
            out.append(f"\\{SWITCHES[name]}{{{rest}}}")
            i = end
        elif name in RENAMED:
            out.append("\\" + RENAMED[name])
            i = m.end()
        else:
            out.append(m.group(0))
            i = m.end()
    return "".join(out)


def normalise_macros(text):
    """The dictionary's macro file as definitions pandoc expands and texmath converts: comments
    and \\usepackage dropped, \\def\\x{...} and \\newcommand\\x written as \\newcommand{\\x},
    the old font switches in modern form (see modern_fonts).  pandoc itself reads optional
    arguments (\\newcommand{\\x}[1][i]) and \\DeclareMathOperator(*) as they are."""
    text = strip_comments(text)
    text = re.sub(r"\\usepackage(\[[^\]]*\])?\{[^{}]*\}", "", text)
    # \def\x{...} and \newcommand\x[1]{...}: the braced \newcommand{\x} form.
    text = re.sub(r"\\def\s*(\\[A-Za-z]+)\s*(?=\{)", r"\\newcommand{\1}", text)
    text = re.sub(r"\\(newcommand|renewcommand|providecommand)\s*(\\[A-Za-z]+)", r"\\\1{\2}", text)
    return modern_fonts(text).strip() + "\n"


# --- the references: \gls and friends ---------------------------------------------------

def capitalise(inlines):
    """The inlines with the first letter of their first Str upper-cased (glossaries' \\Gls)."""
    out = json.loads(json.dumps(inlines))
    if out and out[0]["t"] == "Str":
        out[0]["c"] = out[0]["c"][:1].upper() + out[0]["c"][1:]
    return out


# A glossary command with the article before it ("an \\gls{ml}"), which a first use may have to change;
# the authors may put an \\index between them ("an\\index{FedGD} \\gls{fl}"), which the book keeps there.
ARTICLE_CALL = re.compile(r"(?:(?<![\w\\$])(?P<article>[Aa]n?)(?P<space>(?:\\index\{[^{}]*\})?\s+))?"
                          + GLS_CALL.pattern)
# Where a sentence starts: the text before it is empty or ends a sentence (not an abbreviation's dot).
SENTENCE_END = re.compile(r"[.!?]['\u2019\u201d)]?\s+$")


def article_for(tex):
    """"a" or "an" before a form's LaTeX, by the sound of its first word; None when it opens with
    something else (a formula)."""
    word = re.match(r"\s*(?:\\[A-Za-z]+\s*)*\{?\s*([A-Za-z]+)", tex)
    if not word:
        return None
    if len(word.group(1)) > 1 and word.group(1).isupper():      # read letter by letter: "an ML", "a GD step"
        return "an" if word.group(1)[0] in "AEFHILMNORSX" else "a"
    w = word.group(1).lower()
    if w.startswith(("eu", "uni", "use", "usu", "uti", "one", "once")):
        return "a"                              # a unique, a user, a Euclidean, a one-hot
    if w.startswith(("hour", "honest", "honou", "honor", "heir")):
        return "an"
    return "an" if w[0] in "aeiou" else "a"


def first_use_context(before, article, shown):
    """A first use's long form where the text was written for the short one (the book's first use is
    earlier in the book; a page's is here): the article that agrees with it ("a machine learning (ML)
    method", not "an"), or None to keep; and whether it opens a sentence ("Machine learning (ML) methods")."""
    wanted = article_for(shown)
    change = None
    if article and wanted and article.lower() != wanted:
        change = wanted.capitalize() if article[0].isupper() else wanted
    text = before.rstrip()
    opens = not article and (not text or SENTENCE_END.search(before[-40:]) is not None
                             and not text.endswith(ABBREVIATIONS))
    return change, opens


def replace_refs(term, targets, refs, first_use=True):
    """The body with each glossary command replaced by TOKEN N; refs gets (slug, form LaTeX,
    capitalised) for each N.  An unknown key is an EntryError naming file, line and key.  A first use
    whose long form shows where the text was written for the short one ("an \\gls{ml}") takes the
    article that agrees with it, and a capital where it opens a sentence."""
    seen = set()
    body = term["body"]

    def sub(m):
        command, key = m.group(3), m.group(5).strip()
        if key not in targets:
            line = term.get("body_line", 1) + term["body"][:m.start()].count("\n")
            near = ", ".join(sorted(k for k in targets if k[:3] == key[:3])[:5]) or "a key of the dictionary"
            raise EntryError(f"{term.get('path', '?')}:{line}: term {term['key']!r}: \\{command}{{{key}}} "
                             f"names no entry; use one of: {near}")
        form, upper = form_name(command, key in seen or not first_use)
        seen.add(key)
        forms = dict(targets[key].get("forms", {}))
        if "title" in targets[key]:
            forms["name"] = targets[key]["title"]
        shown, article = form_text(forms, form), m.group("article") or ""
        if form in ("first", "firstplural"):
            later = form_text(forms, "text" if form == "first" else "plural")
            if shown != later:
                change, opens = first_use_context(body[:m.start()], article, shown)
                article, upper = change or article, upper or opens
        refs.append((targets[key]["slug"], shown, upper))
        return article + (m.group("space") or "") + TOKEN.format(n=len(refs) - 1)

    return ARTICLE_CALL.sub(sub, body)


# --- the one parse ---------------------------------------------------------------------

def source_text(bodies, forms, macros):
    """The one document pandoc reads: macros, each body after its marker, then each form."""
    parts = [macros.strip()]
    parts += [f"\\{SPLIT}{{{i}}}\n\n{body.rstrip()}" for i, body in enumerate(bodies)]
    parts += [f"\\{FORM}{{{j}}}\n\n{form}" for j, form in enumerate(forms)]
    return "\n\n".join(parts) + "\n"


def marker(block, name):
    """N if `block` is the marker \\name{N}, else None."""
    if block["t"] == "RawBlock" and block["c"][0] == "latex":
        m = re.fullmatch(r"\\" + name + r"\{(\d+)\}", block["c"][1].strip())
        if m:
            return int(m.group(1))
    return None


def split(blocks, terms, count_forms):
    """The blocks between the markers: ([blocks of body i], [inlines of form j])."""
    bodies, forms, current = [], [], None
    for b in blocks:
        i, j = marker(b, SPLIT), marker(b, FORM)
        if i is not None:
            if i != len(bodies):
                raise_split(terms, len(bodies))
            bodies.append([])
            current = bodies[-1]
        elif j is not None:
            forms.append([])
            current = forms[-1]
        elif current is not None:
            current.append(b)
    if len(bodies) != len(terms) or len(forms) != count_forms:
        raise_split(terms, len(bodies))
    return bodies, [inlines_of(f) for f in forms]


def raise_split(terms, i):
    """A body that swallowed the next marker: an unclosed group or environment."""
    term = terms[max(i - 1, 0)]
    raise EntryError(f"{term.get('path', '?')}:{term.get('body_line', '?')}: term {term['key']!r}: "
                     "the description leaves a { or \\begin{...} open (pandoc read the next term into it); "
                     "close it")


def unclosed(body):
    """The offset of the first `{` or `\\begin{env}` the body leaves open, or None."""
    stack = []
    for m in re.finditer(r"\\[{}%]|%[^\n]*|\\(begin|end)\s*\{([^{}]*)\}|[{}]", body):
        token = m.group(0)
        if token in ("{",) or m.group(1) == "begin":
            stack.append((m.start(), m.group(2)))
        elif token == "}" or m.group(1) == "end":
            if stack:
                stack.pop()
    return stack[0][0] if stack else None


def unreadable(message, source, terms):
    """pandoc's read error as the EntryError for the term at fault: the first whose body leaves
    a group open (pandoc then fails at the end of everything), else the one holding the line
    pandoc names."""
    for term in terms:
        at = unclosed(term["body"])
        if at is not None:
            line = term.get("body_line", 1) + term["body"][:at].count("\n")
            opened = term["body"][at:at + 30].split("\n")[0]
            return EntryError(f"{term.get('path', '?')}:{line}: term {term['key']!r}: {opened!r} is never "
                              "closed (a { or \\begin{...} without its } or \\end); close it")
    m = re.search(r"line (\d+), column (\d+)", message)
    detail = " ".join(message.split("failed:", 1)[-1].split())
    if m:
        line = int(m.group(1))
        starts = [source.count("\n", 0, source.find(f"\\{SPLIT}{{{i}}}\n")) + 3 for i in range(len(terms))]
        i = max((k for k, start in enumerate(starts) if start <= line), default=None)
        if i is not None:
            term = terms[i]
            at = term.get("body_line", 1) + line - starts[i]
            return EntryError(f"{term.get('path', '?')}:{at}: term {term['key']!r}: pandoc cannot read "
                              f"the description ({detail}); fix the LaTeX there")
    return EntryError(f"pandoc cannot read the descriptions ({detail})")


def check_reads(term):
    """A description that reads a file into its text (FILE_READS) is an EntryError naming its line: the
    reader tells it first (glossary.texdict); this is the prose job's guard."""
    found = FILE_READS.search(term["body"])
    if found:
        line = term.get("body_line", 1) + term["body"][:found.start()].count("\n")
        raise EntryError(f"{term.get('path', '?')}:{line}: term {term['key']!r}: "
                         f"{reads.description_read(found.group(1))}; {reads.DESCRIPTION_FIX}")


def parse(terms, macros, targets, first_use=True):
    """Each term's description as pandoc blocks, from one pandoc process: {slug: [block, ...]}.

    terms: [{"key", "slug", "body", "path", "body_line", ...}]; macros: normalise_macros' text;
    targets: {key: {"slug": ..., "forms": {"text", "first", "plural", "firstplural", ...}}}."""
    refs_of, bodies = [], []
    for term in terms:
        check_reads(term)
        refs = []
        bodies.append(replace_refs(term, targets, refs, first_use))
        refs_of.append(refs)
    forms = sorted({latex for refs in refs_of for _, latex, _ in refs})
    source = source_text(bodies, forms, macros)
    try:
        ast = json.loads(run_pandoc(READER, source))
    except RuntimeError as err:
        raise unreadable(str(err), source, terms) from None
    if ast["pandoc-api-version"] != API_VERSION:
        raise RuntimeError(f"texprose: pandoc's AST is version {ast['pandoc-api-version']}, not {API_VERSION}; "
                           "update API_VERSION with the pinned pandoc")
    parsed, form_inlines = split(ast["blocks"], terms, len(forms))
    shown = dict(zip(forms, form_inlines))
    out = {}
    for term, blocks, refs in zip(terms, parsed, refs_of):
        out[term["slug"]] = without_layout(captions(Resolve(refs, shown).blocks(blocks)))
    return out


def caption_mark(inline, mark=environments.CAPTION_MARK):
    """What a mark of the reader's says ("sub", "end" or "unnumbered" for environments.caption_star's, a
    share of the line for MINIPAGE_MARK's), else None."""
    if inline.get("t") == "RawInline" and inline["c"][0] == "latex":
        m = re.fullmatch(re.escape(mark) + r"\{([\w.]+)\}", inline["c"][1].strip())
        return m.group(1) if m else None
    return None


CENTERING = re.compile(r"\\centering(?![A-Za-z])")


def centred(blocks):
    """Whether a \\centering stands among the blocks (not inside a nested environment)."""
    for b in blocks:
        if b["t"] == "RawBlock" and CENTERING.search(b["c"][1]):
            return True
        if b["t"] in ("Plain", "Para") and any(x["t"] == "RawInline" and CENTERING.search(x["c"][1])
                                               for x in b["c"]):
            return True
    return False


def minipage(div):
    """A minipage's Div with its width (environments.minipage_width's mark, read and gone) as attribute,
    and of class "centering" where the book centres its lines (a page's figure centres everything)."""
    (ident, classes, attrs), blocks = div["c"]
    if centred(blocks):
        classes = [*classes, "centering"]
    first = blocks[0] if blocks else None
    if first and first["t"] == "RawBlock":       # the mark alone before a block (a list, a table)
        share = caption_mark(node("RawInline", first["c"]), environments.MINIPAGE_MARK)
        rest = None
    elif first and first["t"] in ("Plain", "Para") and first["c"]:
        share = caption_mark(first["c"][0], environments.MINIPAGE_MARK)
        rest = first["c"][1:]
        while rest and rest[0]["t"] in ("Space", "SoftBreak"):
            rest = rest[1:]
    else:
        share = None
    if share is None:
        return node("Div", [[ident, classes, attrs], blocks])
    blocks = ([node(first["t"], rest)] if rest else []) + blocks[1:]
    width, position = environments.MARKED_MINIPAGE.fullmatch(share).groups()
    return node("Div", [[ident, classes, [*attrs, ["data-width", width], ["data-position", position or "c"]]],
                        blocks])


def unmarked(attr, caption):
    """A Figure's or Table's attr and caption: "unnumbered" among its classes where its caption opens
    with the mark of a \\caption* (its only caption), the mark gone."""
    short, long = caption
    first = long[0] if long else None
    if not (first and first["t"] in ("Plain", "Para") and first["c"] and caption_mark(first["c"][0]) == "unnumbered"):
        return attr, caption
    rest = first["c"][1:]
    while rest and rest[0]["t"] in ("Space", "SoftBreak"):
        rest = rest[1:]
    return [attr[0], [*attr[1], "unnumbered"], attr[2]], [short, [node(first["t"], rest), *long[1:]]]


def subcaptions(block):
    """A paragraph holding a marked \\caption* (one of a float's captions) as the blocks it stands for:
    the text before it, a Div of class "subcaption", the text after it."""
    out, inlines, caption = [], [], None
    for x in block["c"]:
        mark = caption_mark(x)
        if mark == "sub":
            # pandoc's placeholder alt text ("image") goes where a caption describes the picture, as it
            # does itself for a \\caption it reads: alttext gives the picture the caption's text
            out.append(node(block["t"], [node("Image", [x["c"][0], [], x["c"][2]])
                                         if x["t"] == "Image" and x["c"][1] == [node("Str", "image")] else x
                                         for x in inlines]))
            inlines, caption = [], []
        elif mark == "end" and caption is not None:
            while inlines and inlines[0]["t"] in ("Space", "SoftBreak"):
                inlines = inlines[1:]
            out.append(node("Div", [["", ["subcaption"], []], [node("Plain", inlines)]]))
            inlines, caption = [], None
        else:
            inlines.append(x)
    out.append(node(block["t"], inlines))
    return [b for b in out if b["t"] == "Div" or any(x["t"] not in ("Space", "SoftBreak") for x in b["c"])]


def captions(value):
    """The blocks with each \\caption* and minipage width in final form (the marks of
    environments.caption_star and environments.minipage_width read)."""
    if isinstance(value, list):
        out = []
        for v in value:
            if isinstance(v, dict) and v.get("t") in ("Plain", "Para") and any(caption_mark(x) for x in v["c"]):
                out.extend(captions(b) for b in subcaptions(v))
            else:
                out.append(captions(v))
        return out
    if isinstance(value, dict) and value.get("t") == "Div" and "minipage" in value["c"][0][1]:
        value = minipage(value)
        return node("Div", [value["c"][0], captions(value["c"][1])])
    if isinstance(value, dict) and value.get("t") == "Figure":
        attr, caption = unmarked(*value["c"][:2])
        return node("Figure", [attr, captions(caption), captions(value["c"][2])])
    if isinstance(value, dict) and value.get("t") == "Table":
        attr, caption = unmarked(*value["c"][:2])
        return node("Table", [attr, captions(caption), *captions(value["c"][2:])])
    if isinstance(value, dict):
        return {k: captions(v) for k, v in value.items()}
    return value


# Commands that only lay out the printed page: a web page and pandoc's own LaTeX lay out their own.
LAYOUT = {"centering", "vspace", "hspace", "hfill", "vfill", "medskip", "smallskip", "bigskip", "noindent",
          "selectfont", "linebreak", "newline", "par", "clearpage", "newpage", "raggedright", "raggedleft",
          "ttfamily", "small", "footnotesize", "normalsize", "large", "Large", "allowbreak", "FloatBarrier"}
# A horizontal gap of a length CSS also knows (\hspace{10em} between two labels): kept (prose.GAP).
GAP_RAW = re.compile(r"\\hspace\*?\s*\{\s*(\d*\.?\d+\s*(?:em|ex|pt|mm|cm|in))\s*\}\s*")
LAYOUT_RAW = re.compile(r"\\(" + "|".join(sorted(LAYOUT, key=len, reverse=True)) + r")(?![A-Za-z])\*?"
                        r"(\s*\{[^{}]*\})?\s*")


def index_term(raw):
    """The term of a raw \\index{term} the book may set (kernel.INDEX), or None: TeX that reads, writes or
    defines (prose.FORBIDDEN), or spells a character by its code (^^5c), stays the author's unknown TeX."""
    m = kernel.INDEX.fullmatch(raw)
    if not m or "^^" in m.group(1) or set(re.findall(r"\\([A-Za-z]+)", m.group(1))) & FORBIDDEN:
        return None
    return m.group(1)


def without_layout(value):
    """The blocks without the raw TeX of layout commands (LAYOUT); any other raw TeX stays, marked as
    a construct this reader does not know (a Span or Div of class unknown-tex naming it), for the
    later pass to show as text and report."""
    if isinstance(value, list):
        out = []
        for v in value:
            if isinstance(v, dict) and v.get("t") == "Cite":
                out.append(v)       # its raw copy of the \cite command is the Cite's own, not unknown TeX
                continue
            if isinstance(v, dict) and v.get("t") == "RawInline" and index_term(v["c"][1]) is not None:
                # the book's Index entry: print-only (glossary.prose.for_format), nothing on a page
                term = index_term(v["c"][1])
                raw = node("RawInline", ["latex", f"\\index{{{term}}}"])
                out.append(node("Span", [["", [PRINT_ONLY], []], [raw]]))
                continue
            gap = isinstance(v, dict) and v.get("t") == "RawInline" and GAP_RAW.fullmatch(v["c"][1])
            if gap:
                width = gap.group(1).replace(" ", "")
                out.append(node("Span", [["", [GAP], [["width", width]]],
                                         [node("RawInline", ["latex", v["c"][1].strip()])]]))
                continue
            if isinstance(v, dict) and v.get("t") in ("RawInline", "RawBlock") and v["c"][0] == "latex":
                rest = LAYOUT_RAW.sub("", v["c"][1]).strip()
                if rest and "\\" not in rest:
                    # text pandoc took in with a layout command (\centering 2, -1, ...): text, shown as such
                    text = node("Str", rest)
                    out.append(text if v["t"] == "RawInline" else node("Para", [text]))
                elif rest:
                    name = re.match(r"\\(begin\{[^{}]*\}|[A-Za-z]+|.)", rest)
                    attr = ["", ["unknown-tex"], [["construct", name.group(0) if name else rest[:20]]]]
                    raw = node(v["t"], [v["c"][0], rest])
                    out.append(node("Span" if v["t"] == "RawInline" else "Div", [attr, [raw]]))
                continue
            out.append(without_layout(v))
        return out
    if isinstance(value, dict):
        return {k: without_layout(v) for k, v in value.items()}
    return value


class Resolve:
    """One term's blocks with its \\glsxref{N}, \\ref, \\eqref and formulas put in final form."""

    def __init__(self, refs, shown):
        self.refs, self.shown = refs, shown
        self.equations = eqnumbers.Counter()     # the term's equation numbers, in document order

    def walk(self, value):
        if isinstance(value, list):
            out = []
            for v in value:
                out.extend(self.item(v) if isinstance(v, dict) and "t" in v else [self.walk(v)])
            return out
        if isinstance(value, dict):
            return {k: self.walk(v) for k, v in value.items()}
        return value

    def blocks(self, blocks):
        return self.walk(blocks)

    def item(self, x):
        t, c = x["t"], x.get("c")
        if t == "RawInline" and c[0] == "latex":
            return self.raw_inline(c[1])
        if t == "Math":
            return [self.math(c[0], c[1])]
        if t == "Link" and c[2][0].startswith("glsxref:"):
            return [self.link(int(c[2][0].split(":")[1]))]
        if t == "Figure":
            return [self.figure(c)]
        return [self.walk(x)]

    def figure(self, c):
        """A figure, its \\label (which pandoc misses inside the caption) as its identifier."""
        (ident, classes, attrs), caption, body = c
        labels = []

        def drop_label(value):
            if isinstance(value, list):
                return [drop_label(v) for v in value if not is_label(v, labels)]
            if isinstance(value, dict):
                return {k: drop_label(v) for k, v in value.items()}
            return value

        caption, body = drop_label(caption), drop_label(body)
        ident = ident or (labels[0] if labels else "")
        return node("Figure", [[ident, classes, attrs], self.walk(caption), self.walk(body)])

    def link(self, n):
        slug, latex, upper = self.refs[n]
        content = self.shown[latex]
        return node("Link", [["", ["xref"], []], capitalise(content) if upper else json.loads(json.dumps(content)),
                             [slug, ""]])

    def raw_inline(self, tex):
        """A raw TeX piece: glossary references and \\ref/\\eqref resolved, anything else kept."""
        out, pos = [], 0
        for m in re.finditer(XREF.pattern + "|" + references.RAW_REF.pattern, tex):
            if tex[pos:m.start()].strip():
                out.append(node("RawInline", ["latex", tex[pos:m.start()]]))
            if m.group(1) is not None:
                out.append(self.link(int(m.group(1))))
            else:
                kind, label = m.group(2), m.group(3)
                out.append(node("Link", [["", [], [["reference-type", kind], ["reference", label]]],
                                         [node("Str", label)], ["#" + label, ""]]))
            pos = m.end()
        if tex[pos:].strip() or not out:
            out.append(node("RawInline", ["latex", tex[pos:]]))
        return out

    def math(self, kind, tex):
        """A formula with modern fonts, its references as text (links recorded on a Span), an
        equation's \\label as the Span's identifier.  The Span's data-latex (when there are links)
        is the formula as LaTeX typesets it, its references links: \\glossaryref{slug}{form} and
        \\hyperref[label]{(label)}, inside \\text."""
        links = []
        source = tex

        def written(linked):
            def sub(m):
                slug, latex, upper = self.refs[int(m.group(1))]
                text = latex[:1].upper() + latex[1:] if upper else latex
                shown = capitalise(self.shown[latex]) if upper else self.shown[latex]
                # A form with a formula of its own ($k$-means) spans several MathML nodes: not linked.
                if all(x["t"] in ("Str", "Space", "SoftBreak") for x in shown):
                    if not linked:
                        links.append([slug, plain(shown)])
                    elif ":" not in slug:     # another edition's term: not linked in print
                        text = f"\\glossaryref{{{slug}}}{{{text}}}"
                return text if in_text(m.string, m.start()) else f"\\text{{{text}}}"

            def ref(m):
                label = m.group(2)
                if not linked:
                    links.append(["#" + label, f"({label})"])
                text = f"\\hyperref[{label}]{{({label})}}" if linked else f"({label})"
                return text if in_text(m.string, m.start()) else f"\\text{{{text}}}"

            out = XREF.sub(sub, source)
            out = re.sub(r"\\(eqref|ref)\{([^{}]*)\}", ref, out)
            # Line-break hints mean nothing in MathML, and texmath does not know them.
            out = modern_fonts(re.sub(r"\\(linebreak|newline|allowbreak)(?![A-Za-z])\s*", " ", out))
            return labels_first(out)

        tex = written(False)
        label = re.search(r"\\label\{([^{}]*)\}", tex)
        rows = self.equations.anchored(tex) if kind["t"] == "DisplayMath" else []
        math = node("Math", [kind, tex])
        if not links and not label and not rows:
            return math
        anchor = label.group(1) if label else next((ident for _, ident in rows if ident), "")
        attrs = [["label", anchor]] if anchor else []
        attrs += [["data-eqnos", json.dumps(rows)]] if rows else []
        attrs += [["data-xrefs", json.dumps(links, ensure_ascii=False)], ["data-latex", written(True)]] if links else []
        classes = (["equation"] if anchor else []) + (["math-xref"] if links else [])
        return node("Span", [["", classes, attrs], [math]])


def labels_first(tex):
    """A one-line displayed formula with its \\label moved to the front: texmath refuses a label
    after the formula (`a = b \\label{x}`) and takes it before; LaTeX numbers either alike."""
    if "\\\\" in tex or "\\label" not in tex:
        return tex
    labels = "".join(re.findall(r"\\label\{[^{}]*\}", tex))
    rest = re.sub(r"\s*\\label\{[^{}]*\}", "", tex)
    m = re.match(r"\s*\\begin\{[A-Za-z*]+\}", rest)
    return rest[:m.end()] + labels + rest[m.end():] if m else labels + " " + rest.lstrip()


def is_label(value, labels):
    """Whether `value` is a raw \\label{x} (x then added to labels)."""
    if isinstance(value, dict) and value.get("t") in ("RawInline", "RawBlock"):
        m = re.fullmatch(r"\s*\\label\{([^{}]*)\}\s*", value["c"][1])
        if m:
            labels.append(m.group(1))
            return True
    return False


def in_text(tex, pos):
    """Whether `pos` lies inside a \\text{...} (or \\mbox, \\textrm) group of the formula."""
    for m in re.finditer(r"\\(text|mbox|textrm|textit|textbf)\s*\{", tex[:pos]):
        if group_end(tex, m.end() - 1) > pos:
            return True
    return False


def plain(inlines):
    """The text of a form's Str/Space inlines (what texmath writes into <mtext>)."""
    return "".join(x["c"] if x["t"] == "Str" else " " for x in inlines)


# --- what pandoc did not know ----------------------------------------------------------

def unknown(blocks):
    """The raw TeX pandoc left in the blocks (constructs it did not know), in document order;
    the raw copy a Cite keeps of its own command is not counted, nor print-only TeX (\\index)."""
    def raw_or_cite(node):
        return node.get("t") in ("RawInline", "RawBlock", "Cite") or known_raw(node)    # \\index, \\hspace: known
    return [node["c"][1] for node in nodes(blocks, raw_or_cite)
            if node.get("t") in ("RawInline", "RawBlock") and node["c"][0] == "latex"]


# Where formulas start in a body: $$...$$, $...$, \[...\], \(...\) and the display environments.
MATH_SOURCE = re.compile(r"\$\$.*?\$\$|\$.*?\$|\\\[.*?\\\]|\\\(.*?\\\)"
                         r"|\\begin\{(equation|align|gather|multline)\*?\}.*?\\end\{\1\*?\}", re.S)


def raise_formula(failure, parsed, terms):
    """The EntryError for a formula that does not convert: its term, and the line of the body
    where the term's k-th formula starts (formulas counted in the same order in source and AST)."""
    formula, message = failure
    for term in terms:
        found = formulas(parsed.get(term["slug"], []), in_forms=False)
        if formula in found:
            k = found.index(formula)
            sources = list(MATH_SOURCE.finditer(term["body"]))
            offset = sources[k].start() if k < len(sources) else 0
            line = term.get("body_line", 1) + term["body"][:offset].count("\n")
            shown = sources[k].group(0) if k < len(sources) else formula
            raise EntryError(f"{term.get('path', '?')}:{line}: term {term['key']!r}: the formula {shown} "
                             f"(expanded: {formula}) does not convert to MathML ({' '.join(message.split())}); "
                             "rewrite it with commands texmath knows")
    raise EntryError(f"a formula does not convert to MathML: {formula} ({message})")


# --- this reader in the entry model (glossary.model.READERS["latex"]) ---------------------------

# A term's name that needs this reader ($\sigma$-algebra, R\'enyi, Karush--Kuhn--Tucker: TeX's dashes and
# quotes are ligatures of its input); the others are text as they are.
TEX_TITLE = re.compile(r"[\\$~^_{}]|--|``|''")
def term_of(entry):
    """This reader's own shape of a glossary.model.Entry: {"key", "slug", "body", "path", "body_line"}."""
    return {"key": entry.key, "slug": entry.slug, "body": entry.document.source, "path": entry.path,
            "body_line": entry.document.line}


TITLE = "title:"    # before a slug: the term's name, parsed as a term of its own


def parse_entries(entries, facts, context):
    """{slug: blocks} of a batch of terms (glossary.model.Entry) from one pandoc process: the descriptions."""
    terms = [term_of(e) for e in entries]
    return parse(terms, normalise_macros(context["latex_macros"]), context["targets"])


def reads_name(title):
    """Whether a term's name needs this reader (TEX_TITLE): parse_names reads it as prose."""
    return bool(TEX_TITLE.search(title))


def parse_names(entries, latex_macros, targets):
    """{slug: blocks of its name} of the terms whose name needs this reader (reads_name), from one pandoc
    process: each name a term of its own, so that a formula or accent in a name reads as in the prose."""
    names = [dict(term_of(e), slug=TITLE + e.slug, body=e.title, body_line=e.line)
             for e in entries if reads_name(e.title)]
    parsed = parse(names, normalise_macros(latex_macros), targets) if names else {}
    return {t["slug"][len(TITLE):]: parsed[t["slug"]] for t in names}


def parse_texts(texts, latex_macros=""):
    """{key: blocks} of short texts (a name's forms), from one pandoc process."""
    terms = [{"key": str(k), "slug": str(i), "body": s, "path": "?", "body_line": 1}
             for i, (k, s) in enumerate(texts.items())]
    parsed = parse(terms, normalise_macros(latex_macros), {})
    return {k: parsed[str(i)] for i, k in enumerate(texts)}


def raise_entry_formula(failure, ast, entry, macros=""):
    """raise_formula for one glossary.model.Entry whose blocks are `ast`."""
    raise_formula(failure, {entry.slug: ast}, [term_of(entry)])
