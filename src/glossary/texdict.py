"""A dictionary kept as glossaries-extra LaTeX, read into the project's entry model.

The build reads a whole dictionary (a main file that \\input's a macro file and glossary files of
\\newglossaryentry definitions) at Snakemake's DAG time, so this is a pure-Python reader: comments
are stripped once per file (each leaves its `%`, so that TeX's "no paragraph, no space here"
survives and a commented-out line never looks blank), and a brace-aware scanner reads each entry's
options and then its description in one pass each. The real dictionary (569 terms, 860 kB) reads
in about 0.1 s of CPU.

    read(main_path)   -> {"main", "root", "sections", "glossary_files", "macro_files",
                          "bibliography", "preamble", "entries" (by slug, sorted), "labels", "unknown"}
    read_config(yaml) -> a source config (main: plus the site's fields), validated
    load(path)        -> read() of a .tex main file or of the main a .yaml config names, plus "config"

Entries are read from the \\input files that hold \\newglossaryentry (not from the main file itself,
nor from files they \\input in turn). An entry's body is its description, normalised so that later
stages convert it without LaTeX's help and keeping its line structure (body line i is file line
body_line + i):

- `\\index{...}` is dropped; a `\\\\` between paragraphs (outside any group, environment or math)
  becomes a blank line when it stands alone on its line, otherwise `\\par`;
- each tikzpicture (pgfplots axes live inside one) becomes `\\includegraphics{picture:N}` and each
  other `\\includegraphics[...]{file}` `\\includegraphics{graphic:N}`, N counted from 1 in the term;
  the environments around them (figure, minipage, subfigure, caption, label) stay. A picture's own
  \\includegraphics (a photo in a node) stays in its TeX and is listed in its "files";
- the last paragraph that opens with "See also" (after a top-level \\\\, environment or display) is
  removed and its keys become `see_also`. It is the final paragraph but in two real entries, where
  a "Python demo" link follows it.

Slugs: a key made of [a-z0-9-] is its own slug; any other key is lowercased and each run of other
characters becomes one "-" ("multitask learning" -> "multitask-learning", "Q_learning" ->
"q-learning"), leading and trailing "-" dropped. Two keys with one slug are an error.

Forms follow glossaries: text=name, first=text, plural=text+"s", and firstplural=first+"s" when
first= is given, else plural (as \\glsentryfirstplural prints it).

Numbers of labels, per term in order of appearance: each figure (figure, figure*) takes the next
figure number and each table the next table number, whatever label inside it names (a subfigure's
label names its figure's number); displayed equations are numbered as amsmath numbers them
(glossary.eqnumbers: each numbered row, labelled or not; \\nonumber, \\notag, \\tag and starred
environments take none), the rule the pages' equation numbers follow too.

Mistakes are glossary.entries.EntryError naming the file, line, key and the fix: a blank line inside
an entry, braces that do not close (or close early), a key defined twice, a type= with no
\\newglossary*, an undefined \\gls key (also in a picture), a \\ref to a label that exists nowhere,
a missing \\input or \\includegraphics file, two keys with one slug, a label defined twice or outside a
figure/table/equation, and `\\\\` right after `\\end{figure}` (the authors' rule: LaTeX stops there).
"""
import bisect
import difflib
import os
import re
from pathlib import Path

import yaml

from glossary import eqnumbers
from glossary.entries import EntryError, FrontMatterError, StrictLoader, check_csv_declarations, check_figures, validate
from glossary.readers import bib2gls

SLUG = re.compile(r"^[a-z0-9-]+$")
# A `%` comment, or the two escapes that decide whether a `%` starts one: `\\%` is no comment,
# `\\\\%` (a line break) is followed by one.
COMMENT = re.compile(r"(\\[\\%])|%[^\n]*")
# The scanner's tokens: a control word or symbol, a brace, a dollar, a line end.
TOKEN = re.compile(r"\\(?:[A-Za-z@]+\*?|[\s\S])|[{}$]")
# Braces, skipping the escapes that look like them: \{ \} and \\.
BRACE = re.compile(r"\\[\\{}]|[{}]")
COMMA = re.compile(r"(?<!\\),")
SPACE = " \t\n%"
BLANK_LINE = re.compile(r"\n[ \t]*(?=\n)")
GRAPHIC_SUFFIXES = ("", ".png", ".jpg", ".jpeg", ".pdf")
DEFAULT_TYPE = "main"
DEFAULT_TITLE = "Glossary"  # glossaries' \glossaryname for the default type

# Commands that name glossary keys (glossaries and glossaries-extra); \Gls... and \GLS... variants too.
GLS_BASE = ("gls glspl glstext glsfirst glsplural glsfirstplural glsname glsdesc glssymbol glsuseri "
            "glsuserii glsuseriii glsuseriv glsuserv glsuservi glslink glsdisp glsadd glsentryname "
            "glsentrytext glsentrydesc glsentryfirst glsentryplural glsentryfirstplural glsxtrshort "
            "glsxtrlong glsxtrfull glshyperlink glsfmttext glsfmtname glsentryalternative "
            "glsalternative").split()
GLS_COMMANDS = frozenset(
    {f"\\{c}" for c in GLS_BASE} | {"\\G" + c[1:] for c in GLS_BASE} | {"\\" + c.upper() for c in GLS_BASE})
REF_COMMANDS = frozenset("\\ref \\eqref \\cref \\Cref \\autoref \\pageref \\nameref \\subref \\vref".split())
# The tokens the scanner acts on (besides braces and $).
# Bookkeeping of the printed book, by the number of arguments the reader takes off (Body.print_only).
PRINT_ONLY = {"\\refstepcounter": 1, "\\definecolor": 3, "\\thetable": 0, "\\thefigure": 0,
              "\\scalebox": 1, "\\resizebox": 2, "\\resizebox*": 2}
STRUCTURE = frozenset("\\( \\) \\[ \\] \\\\ \\begin \\end \\index \\includegraphics \\label".split()) \
    | REF_COMMANDS | GLS_COMMANDS
FIGURE_ENVS = frozenset("figure figure* subfigure wrapfigure".split())
TABLE_ENVS = frozenset("table table*".split())
MATH_ENVS = frozenset(
    "equation equation* align align* gather gather* multline multline* eqnarray eqnarray* flalign "
    "flalign* alignat alignat* math displaymath".split())

# What pandoc's LaTeX reader (with texmath) and this reader handle in a body; any other command or
# environment is counted in "unknown". Macros the dictionary's preamble or macro files define count
# as handled (pandoc expands them).
KNOWN_ENVS = frozenset((
    "figure figure* subfigure wrapfigure table table* tabular tabular* tabularx center flushleft "
    "flushright minipage itemize enumerate description quote quotation verse verbatim lstlisting "
    "equation equation* align align* aligned gather gather* gathered multline multline* eqnarray "
    "eqnarray* flalign flalign* alignat alignat* split cases dcases array matrix pmatrix bmatrix "
    "Bmatrix vmatrix Vmatrix smallmatrix subequations math displaymath theorem lemma proof definition "
    "example corollary proposition remark abstract").split())
KNOWN_TEXT = frozenset({"\\ "} | set((
    "\\, \\; \\: \\! \\\\ \\% \\$ \\& \\# \\_ \\{ \\} \\~ \\^ \\' \\` \\\" \\- \\/ \\@ \\= \\. "
    "\\( \\) \\[ \\] "
    "begin end par item caption caption* label ref eqref cref Cref autoref "
    " cite citep citet citeauthor citeyear nocite footnote url href emph textbf textit texttt "
    "textsc textrm textsf textup textmd textsl textnormal underline mbox "
    "bf it rm tt sf sc em sl bfseries itshape ttfamily rmfamily sffamily scshape mdseries upshape "
    "normalfont small footnotesize scriptsize tiny large Large LARGE huge Huge normalsize "
    "centering raggedright raggedleft noindent indent newline linebreak pagebreak newpage clearpage "
    "hspace hspace* vspace vspace* hfill vfill smallskip medskip bigskip quad qquad enspace "
    "ldots dots S P copyright textregistered "
    "textquoteleft textquoteright textquotedblleft textquotedblright "
    "textbackslash textasciitilde textasciicircum textless textgreater textdegree "
    "LaTeX TeX today includegraphics toprule midrule bottomrule hline cline multicolumn "
    "multirow textwidth linewidth columnwidth textheight hfil vfil relax protect "
    "textcolor color colorbox ensuremath xspace nolinkurl lstinline verb index "
    "sout st ul phantom hphantom vphantom ").split())) | GLS_COMMANDS
KNOWN_MATH = frozenset({"\\ "} | set(((
    "alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa varkappa lambda mu "
    "nu xi pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega digamma Gamma Delta "
    "Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega varGamma varDelta varTheta varLambda varXi varPi "
    "varSigma varUpsilon varPhi varPsi varOmega aleph beth hbar ell wp Re Im partial infty nabla "
    "emptyset varnothing forall exists nexists neg lnot top bot angle imath jmath "
    "mathbb mathbf mathcal mathrm mathit mathsf mathtt mathfrak mathscr mathbfit boldsymbol bm "
    "operatorname operatorname* text textrm textbf textit texttt textsf mbox "
    "frac dfrac tfrac binom sqrt choose "
    "sum prod coprod int iint iiint oint bigcup bigcap bigvee bigwedge bigoplus bigotimes bigodot "
    "bigsqcup biguplus lim liminf limsup sup inf max min arg det dim exp ln log lg "
    "sin cos tan cot sec csc arcsin arccos arctan sinh cosh tanh coth ker deg gcd hom Pr mod bmod "
    "pmod pod "
    "left right middle big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr "
    "langle rangle lceil rceil lfloor rfloor lvert rvert lVert rVert vert Vert | "
    "le leq ge geq ne neq lt gt ll gg approx sim simeq cong equiv propto prec preceq succ succeq "
    "subset subseteq supset supseteq subsetneq supsetneq sqsubseteq sqsupseteq in ni notin "
    "mid nmid parallel perp models vdash dashv asymp doteq triangleq coloneqq eqqcolon "
    "leqslant geqslant lesssim gtrsim ll succcurlyeq preccurlyeq "
    "pm mp times div cdot ast star circ bullet oplus ominus otimes oslash odot cup cap sqcup sqcap "
    "vee wedge setminus smallsetminus wr diamond land lor uplus amalg "
    "to gets rightarrow leftarrow Rightarrow Leftarrow leftrightarrow Leftrightarrow "
    "longrightarrow longleftarrow Longrightarrow Longleftarrow longleftrightarrow Longleftrightarrow "
    "mapsto longmapsto implies impliedby iff uparrow downarrow Uparrow Downarrow updownarrow "
    "nearrow searrow swarrow nwarrow hookrightarrow hookleftarrow rightharpoonup leftharpoonup "
    "rightleftharpoons xrightarrow xleftarrow rightsquigarrow "
    "hat widehat tilde widetilde bar overline underline vec dot ddot breve check acute grave "
    "mathring overbrace underbrace overset underset stackrel overrightarrow overleftarrow "
    "ldots cdots vdots ddots dots dotsc dotsb dotsm dotsi colon prime backslash "
    "quad qquad , ; : ! hspace mathrel mathop mathbin mathord mathopen mathclose mathpunct "
    "limits nolimits displaystyle textstyle scriptstyle scriptscriptstyle substack "
    "label tag tag* nonumber phantom "
    "boxed cancel color not lbrace rbrace { } \\\\ % $ & # _ "
    "square blacksquare triangle triangledown triangleleft triangleright "
    "checkmark dagger ddagger star pounds euro ").split())))
# Commands that define macros, in a preamble or macro file (their names count as handled).
DEFINITION = re.compile(
    r"\\(?:(?:re)?newcommand\*?|providecommand\*?|DeclareMathOperator\*?|DeclareRobustCommand\*?)"
    r"\s*\{?\s*\\([A-Za-z@]+)|\\def\s*\\([A-Za-z@]+)|\\let\s*\\([A-Za-z@]+)"
    r"|\\(?:re)?newenvironment\*?\s*\{([A-Za-z*]+)\}|\\newtheorem\*?\s*\{([A-Za-z*]+)\}")


# ---------------------------------------------------------------- files, comments, lines


class Source:
    """One file as opened: its comment-stripped text (same lines; a comment-only line keeps its `%`,
    so only a really blank line looks blank) and its line starts."""

    def __init__(self, path, rel):
        self.path, self.rel = Path(path), rel
        self.raw = self.path.read_text(encoding="utf-8")
        self.text = strip_comments(self.raw)
        self.starts = [0] + [m.end() for m in re.finditer("\n", self.text)]

    def line(self, offset):
        """The 1-based line of an offset into the stripped text (which keeps every line end)."""
        return bisect.bisect_right(self.starts, offset)

    def where(self, offset):
        return f"{self.rel}:{self.line(offset)}"


def strip_comments(text):
    """Text without `%` comments; each line keeps its end and a lone `%` where the comment was,
    since TeX joins that line with the next one (no blank line, no space)."""
    return COMMENT.sub(lambda m: m.group(1) or "%", text)


def group_end(text, start, src, what):
    """The offset just after the brace group opening at text[start] == '{'."""
    close = text.find("}", start)
    if close > 0 and "{" not in text[start + 1:close] and "\\" not in text[start + 1:close]:
        return close + 1  # the common case, {key}: no group or escape inside
    depth = 0
    for m in BRACE.finditer(text, start):
        tok = m.group(0)
        if tok == "{":
            depth += 1
        elif tok == "}":
            depth -= 1
            if depth == 0:
                return m.end()
    raise EntryError(f"{src.where(start)}: {what}: the braces opened here do not close before the end of "
                     f"{src.rel}; add the missing '}}' (or remove a stray '{{')")


def skip_space(text, pos):
    while pos < len(text) and text[pos] in " \t\n%":
        pos += 1
    return pos


def argument(text, pos, src, what):
    """The brace group (or single token) argument at pos, after spaces: (content, start, end)."""
    pos = skip_space(text, pos)
    if pos < len(text) and text[pos] == "{":
        end = group_end(text, pos, src, what)
        return text[pos + 1:end - 1], pos + 1, end
    m = TOKEN.match(text, pos)
    end = m.end() if m else min(pos + 1, len(text))
    return text[pos:end], pos, end


def optional(text, pos):
    """The end of a `[...]` optional argument at pos (after spaces), or pos when there is none."""
    at = skip_space(text, pos)
    if at < len(text) and text[at] == "[":
        depth = 0
        for m in re.compile(r"\\[\s\S]|[][{}]").finditer(text, at):
            tok = m.group(0)
            depth += tok in "[{"
            depth -= tok in "]}"
            if depth == 0:
                return m.end()
    return pos


def split_options(text, offset):
    """A key=value list at brace depth 0: [(name, value, value_offset)], values unbraced once."""
    return options_group("{" + text + "}", 0, offset - 1)[1]


def options_group(text, start, offset=0):
    """The brace group at text[start] read as a key=value list in one pass: (end just after its
    closing brace or None when it does not close, [(name, value, offset + value's offset)]), a
    value that is one whole group without its braces and None for a name without '='."""
    cuts, closing, depth, opened, level_one = [], {}, 0, 0, start + 1
    for m in BRACE.finditer(text, start):
        tok = m.group(0)
        if tok == "{":
            depth += 1
            if depth == 2:
                opened = m.start()
                cuts += comma_cuts(text, level_one, opened)
        elif tok == "}":
            depth -= 1
            if depth == 1:
                closing[opened] = level_one = m.end()
            elif depth == 0:
                cuts += comma_cuts(text, level_one, m.start())
                break
    else:
        return None, []
    items, begin = [], start + 1
    for cut in cuts + [m.start()]:
        part = text[begin:cut]
        if part.strip(SPACE):
            name, eq, value = part.partition("=")
            vstart = begin + len(name) + 1
            vstart += len(value) - len(value.lstrip(SPACE))
            value = value.strip(SPACE)
            if value.startswith("{") and closing.get(vstart) == vstart + len(value):
                value, vstart = value[1:-1], vstart + 1
            items.append((name.strip(SPACE), value if eq else None, offset + vstart))
        begin = cut + 1
    return m.end(), items


def comma_cuts(text, start, end):
    """The offsets of the commas in text[start:end] (a stretch outside any group), but `\\,`."""
    return [m.start() for m in COMMA.finditer(text, start, end)]


def slug_of(key):
    """The key itself when it is a slug, else lowercased with runs of other characters as "-"."""
    return key if SLUG.match(key) else re.sub(r"[^a-z0-9]+", "-", key.lower()).strip("-")


# ---------------------------------------------------------------- the main file


def read_main(main, root):
    """The main file's structure: preamble, sections, \\input files, bibliography."""
    src = Source(main, main.name)
    text = src.text
    doc = text.find("\\begin{document}")
    preamble = text[:doc] if doc >= 0 else text
    declared = {DEFAULT_TYPE: DEFAULT_TITLE}
    for m in re.finditer(r"\\newglossary(\*?)(?![A-Za-z])", preamble):
        pos = optional(preamble, m.end())
        args = []
        for _ in range(2 if m.group(1) else 4):
            value, _, pos = argument(preamble, pos, src, "\\newglossary")
            args.append(value.strip())
        declared[args[0]] = args[-1]
    inputs = []
    for m in re.finditer(r"\\(?:input|include)(?![A-Za-z])", text):
        name, start, _ = argument(text, m.end(), src, "\\input")
        inputs.append((name.strip(), m.start() < doc or doc < 0, src.where(start)))
    return src, preamble, declared, inputs, sections_of(text[doc:] if doc >= 0 else "", declared, src, doc), \
        bibliography_of(text, src)


def sections_of(body, declared, src, offset):
    """The \\printglossary calls in order: [{"id", "title"}]; \\printglossaries prints every type."""
    sections = []
    for m in re.finditer(r"\\print(?:unsrt)?glossar(y|ies)(?![A-Za-z])", body):
        if m.group(1) == "ies":
            sections += [{"id": t, "title": title} for t, title in declared.items()]
            continue
        end = optional(body, m.end())
        opts = dict((k, v) for k, v, _ in split_options(body[skip_space(body, m.end()) + 1:end - 1], 0)) \
            if end > m.end() else {}
        kind = opts.get("type") or DEFAULT_TYPE
        if kind not in declared:
            raise EntryError(f"{src.where(offset + m.start())}: \\printglossary[type={kind}]: no glossary "
                             f"{kind!r} is declared; add \\newglossary*{{{kind}}}{{Title}} to the preamble")
        sections.append({"id": kind, "title": opts.get("title") or declared[kind]})
    if not sections:  # no \printglossary: every glossary, the default type first
        sections = [{"id": t, "title": title} for t, title in declared.items()]
    return sections


def bibliography_of(text, src):
    m = re.search(r"\\bibliography(?![A-Za-z])", text)
    if not m:
        return None
    name = argument(text, m.end(), src, "\\bibliography")[0].split(",")[0].strip()
    return name if name.endswith(".bib") else name + ".bib"


def resolve_input(root, name, where):
    path = root / name
    if not path.is_file() and path.suffix != ".tex":
        path = root / (name + ".tex")
    if not path.is_file():
        raise EntryError(f"{where}: \\input{{{name}}}: no such file under {root}; fix the name or add the file")
    return path


def macro_names(texts):
    """Commands and environments the preamble and macro files define."""
    names = set()
    for text in texts:
        for m in DEFINITION.finditer(text):
            name = next(g for g in m.groups() if g)
            names.add(name if m.group(4) or m.group(5) else "\\" + name)
    return names


# ---------------------------------------------------------------- entries


def entries_of(src):
    """The \\newglossaryentry definitions of one file: [(key, offset, options_group's items)]."""
    text, found, last_end = src.text, [], 0
    for m in re.finditer(r"\\newglossaryentry(?![A-Za-z])", text):
        if m.start() < last_end:
            continue
        check_between(src, found, last_end, m.start())
        key, _, kend = argument(text, m.end(), src, "\\newglossaryentry")
        ostart = skip_space(text, kend)
        if ostart >= len(text) or text[ostart] != "{":
            raise EntryError(f"{src.where(m.start())}: term {key!r}: \\newglossaryentry{{{key}}} needs its "
                             "options in braces: {name={...}, description={...}}")
        oend, options = options_group(text, ostart)
        if oend is None:
            raise EntryError(f"{src.where(m.start())}: term {key!r}: the braces of this entry do not close "
                             f"before the end of {src.rel}; add the missing '}}'")
        inner = text.find("\\newglossaryentry", ostart, oend)
        if inner >= 0:
            raise EntryError(f"{src.where(m.start())}: term {key!r}: the braces of this entry do not close "
                             f"before the next \\newglossaryentry (line {src.line(inner)}); add the "
                             "missing '}' in this entry")
        blank = BLANK_LINE.search(text, m.start(), oend)
        if blank:
            raise EntryError(f"{src.rel}:{src.line(blank.start()) + 1}: term {key!r}: blank line inside the "
                             f"entry (it starts on line {src.line(m.start())}); the options are not \\long, "
                             "so remove the blank line and separate paragraphs with \\\\")
        found.append((key.strip(), m.start(), options))
        last_end = oend
    check_between(src, found, last_end, len(text))
    return found


def check_between(src, found, start, end):
    """Text after an entry that reads like the rest of its options: its braces closed too early."""
    stray = src.text[start:end].strip(SPACE)
    if found and stray and (stray[0] in ",}" or re.match(r"[a-z]+\s*=", stray)):
        key, at, _ = found[-1]
        raise EntryError(f"{src.where(start)}: term {key!r}: text after the entry's closing brace "
                         f"({stray[:30]!r}): its braces close too early; remove the stray '}}' between line "
                         f"{src.line(at)}, where the entry starts, and here")


def forms_of(opts, title):
    """glossaries' defaults: text=name, first=text, plural=text+"s", firstplural=first+"s" when
    first is given, else plural."""
    text = opts.get("text", title)
    first = opts.get("first", text)
    plural = opts.get("plural", text + "s")
    firstplural = opts.get("firstplural", first + "s" if "first" in opts else plural)
    return {"text": text, "first": first, "plural": plural, "firstplural": firstplural}


class Body:
    """One scan of a description: what it references and the replacements that normalise it."""

    def __init__(self, reader, src, key, text, offset):
        self.reader, self.src, self.key, self.text, self.offset = reader, src, key, text, offset
        self.edits = []        # (start, end, replacement), in body offsets
        self.pictures, self.graphics, self.labels = [], [], []
        self.gls, self.refs, self.unknown = [], [], []
        self.breaks = []       # (start, end) of paragraph-separating \\
        self.ends = []         # (end, name) of each environment at the top level
        self.counters = {"figure": 0, "table": 0, "equation": 0}
        self.scan()

    def where(self, pos):
        return self.src.where(self.offset + pos)

    def scan(self):
        """One pass over the description: groups, math, environments, and the commands that matter."""
        text, plain, envs, numbers = self.text, self.reader.plain, [], []
        depth, math, pos = 0, None, 0
        while True:
            m = TOKEN.search(text, pos)
            if not m:
                break
            tok, pos = m.group(0), m.end()
            if tok == "{":
                depth += 1
            elif tok == "}":
                depth -= 1
            elif tok in PRINT_ONLY:
                pos = self.print_only(tok, m.start(), pos, numbers)
            elif tok in plain:
                continue  # most tokens: a command known in text and math that needs nothing here
            elif tok == "$":
                if text.startswith("$$", m.start()):
                    pos += 1
                    if math == "$$" and depth == 0 and not envs:
                        self.ends.append((pos, "displaymath"))
                    math = None if math == "$$" else (math or "$$")
                else:
                    math = None if math == "$" else (math or "$")
            elif tok in ("\\(", "\\["):
                math = math or tok
            elif tok in ("\\)", "\\]"):
                if math == {"\\)": "\\(", "\\]": "\\["}[tok]:
                    math = None
                    if tok == "\\]" and depth == 0 and not envs:
                        self.ends.append((pos, "displaymath"))
            elif tok == "\\begin":
                name, _, pos = argument(text, pos, self.src, "\\begin")
                if name == "tikzpicture":
                    pos = self.picture(m.start(), pos)
                    continue
                envs.append(name)
                numbers.append(self.number_env(name, pos))
                self.check_env(name, m.start())
            elif tok == "\\end":
                name, _, pos = argument(text, pos, self.src, "\\end")
                if envs and envs[-1] == name:
                    envs.pop()
                    numbers.pop()
                    if not envs and depth == 0:
                        self.ends.append((pos, name))
            elif tok == "\\\\":
                end = optional(text, pos + text.startswith("*", pos))
                if depth == 0 and not envs and not math:
                    self.check_break(m.start())
                    self.breaks.append((m.start(), end))
                pos = end
            elif tok == "\\index":
                pos = argument(text, optional(text, pos), self.src, "\\index")[2]
                self.edits.append((m.start(), pos, ""))
            elif tok == "\\includegraphics":
                pos = self.graphic(m.start(), pos)
            elif tok in GLS_COMMANDS or tok.rstrip("*") in GLS_COMMANDS:
                after = optional(text, pos + text.startswith(("+", "*"), pos))
                name, start, pos = argument(text, after, self.src, tok)
                self.gls.append((name.strip(), start))
            elif tok in REF_COMMANDS:
                name, start, pos = argument(text, optional(text, pos), self.src, tok)
                self.refs.extend((n.strip(), start, tok) for n in name.split(",") if n.strip())
            elif tok == "\\label":
                name, start, pos = argument(text, pos, self.src, "\\label")
                self.label(name.strip(), start, envs, numbers)
            else:
                self.check_command(tok, m.start(), math or any(e in MATH_ENVS for e in envs))

    def print_only(self, tok, start, pos, numbers):
        """Commands of the printed book's own bookkeeping: \\refstepcounter and \\definecolor go,
        \\thetable and \\thefigure become the number their environment takes in the term, and
        \\scalebox/\\resizebox keep their content as a group (a page scales its own pictures)."""
        args = PRINT_ONLY[tok]
        for _ in range(args):
            pos = argument(self.text, pos, self.src, tok)[2]
        replacement = ""
        if tok in ("\\thetable", "\\thefigure"):
            kind = tok[4:]
            number = next((n for n in reversed(numbers) if n and n[0] == kind), None)
            replacement = str(number[1]) if number else str(self.counters[kind])
        self.edits.append((start, pos, replacement))
        return pos

    def number_env(self, name, pos):
        """The number a figure/table environment takes, counted in the term; for a displayed equation
        environment, the number of each row (glossary.eqnumbers: as amsmath numbers them)."""
        if name in eqnumbers.ENVIRONMENTS:
            end = re.compile(r"\\end\s*\{" + re.escape(name) + r"\}").search(self.text, pos)
            body = self.text[pos:end.start() if end else len(self.text)]
            counter = eqnumbers.Counter()
            counter.value = self.counters["equation"]
            found = counter.number(name, body)
            self.counters["equation"] = counter.value
            return ("rows", [(pos + r["start"], pos + r["end"], r["number"]) for r in found])
        kind = ("figure" if name in FIGURE_ENVS and name != "subfigure" else "table" if name in TABLE_ENVS
                else None)
        if kind is None:
            return None
        self.counters[kind] += 1
        return (kind, self.counters[kind])

    def label(self, name, start, envs, numbers):
        number = next((n for n in reversed(numbers) if n), None)
        if number is not None and number[0] == "rows":
            row = next((n for s, e, n in number[1] if s <= start <= e), None)
            number = None if row is None else ("equation", row)
        if number is None:
            raise EntryError(f"{self.where(start)}: term {self.key!r}: \\label{{{name}}} is not inside a "
                             "figure, table or numbered equation; move it into one (after the \\caption) "
                             "or remove it")
        self.labels.append((name, start, number[0], number[1]))

    def picture(self, start, pos):
        """A tikzpicture (nested ones included) becomes \\includegraphics{picture:N}."""
        level = 1
        for m in re.compile(r"\\(begin|end)\s*\{tikzpicture\}").finditer(self.text, pos):
            level += 1 if m.group(1) == "begin" else -1
            if level == 0:
                break
        else:
            raise EntryError(f"{self.where(start)}: term {self.key!r}: \\begin{{tikzpicture}} has no "
                             "\\end{tikzpicture}; close it")
        tex = self.text[start:m.end()]
        n = len(self.pictures) + 1
        inside = re.sub(r"^\\begin\{tikzpicture\}\s*(\[[^\]]*\])?|\\end\{tikzpicture\}$", "", tex)
        if not re.sub(r"%[^\n]*", "", inside).strip():
            # pdfTeX cannot include the empty page such a picture compiles to: told here, with the fix
            raise EntryError(f"{self.where(start)}: term {self.key!r}: picture {n} draws nothing (an empty "
                             "tikzpicture); draw it or remove the figure")
        self.pictures.append({"n": n, "tex": tex, "line": self.src.line(self.offset + start),
                              "files": self.reader.graphic_files(tex, self.where(start), self.key)})
        for key in re.finditer(r"\\(?:[Gg]ls|GLS)[a-z]*\*?\s*(?:\[[^]]*\])?\s*\{([^{}]*)\}", tex):
            self.gls.append((key.group(1).strip(), start + key.start(1)))
        self.edits.append((start, m.end(), f"\\includegraphics{{picture:{n}}}"))
        return m.end()

    def graphic(self, start, pos):
        name, nstart, end = argument(self.text, optional(self.text, pos), self.src, "\\includegraphics")
        n = len(self.graphics) + 1
        path = self.reader.resolve_graphic(name.strip(), self.where(nstart), self.key)
        self.graphics.append({"n": n, "path": path, "line": self.src.line(self.offset + start)})
        self.edits.append((start, end, f"\\includegraphics{{graphic:{n}}}"))
        return end

    def check_env(self, name, start):
        if name not in KNOWN_ENVS and name not in self.reader.macros:
            self.unknown.append((f"\\begin{{{name}}}", start))

    def check_command(self, tok, start, math):
        known = self.reader.known[bool(math)]
        if tok not in known and tok.rstrip("*") not in known:
            self.unknown.append((tok, start))

    def check_break(self, start):
        """The authors' rule: no \\\\ right after \\end{figure} (the float ended the paragraph)."""
        if self.ends and self.ends[-1][1].startswith("figure"):
            end = self.ends[-1][0]
            if not self.text[end:start].strip(SPACE):
                raise EntryError(f"{self.where(start)}: term {self.key!r}: \\\\ right after "
                                 f"\\end{{{self.ends[-1][1]}}} raises \"There's no line here to end\"; "
                                 "remove the \\\\ (the figure already ends the paragraph)")

    def see_also(self):
        """The last paragraph that opens with "See also" (after a top-level \\\\, environment or
        display): (start, stop) of what to remove and its keys, or (None, None) and []. It is the
        final paragraph but for a "Python demo" link after it in two real entries."""
        bounds = sorted([(end, start) for start, end in self.breaks] + [(end, end) for end, _ in self.ends])
        stop = len(self.text)
        for end, start in reversed(bounds):
            if SEE_ALSO.match(self.text[end:stop]):
                return (start, stop), [k for k, at in self.gls if end <= at < stop]
            if self.text[end:stop].strip(SPACE):
                stop = start
        return (None, None), []

    def normalised(self):
        """The body with every edit applied, each padded to the lines it replaced."""
        (cut, stop), keys = self.see_also()
        removed = (lambda at: cut <= at < stop) if cut is not None else (lambda at: False)
        edits = [e for e in self.edits if not removed(e[0])]
        for start, end in self.breaks:
            if removed(start):
                continue
            line_start = self.text.rfind("\n", 0, start) + 1
            line_end = self.text.find("\n", end)
            line_end = len(self.text) if line_end < 0 else line_end
            alone = not self.text[line_start:start].strip() and not self.text[end:line_end].strip(" \t%")
            # \par ends a control word: a space only where a letter follows.
            par = "\\par " if self.text[end:end + 1].isalpha() else "\\par"
            edits.append((line_start, line_end, "") if alone else (start, end, par))
        if cut is not None:
            edits.append((cut, stop, ""))
        out, pos = [], 0
        for start, end, new in sorted(edits):
            start = max(start, pos)  # the See-also removal may already cover a break's indent
            out.append(self.text[pos:start])
            out.append(new + "\n" * self.text.count("\n", start, end))
            pos = end
        out.append(self.text[pos:])
        return "".join(out).rstrip(), keys


# "See also" as the dictionary's editions write it (English, German, French, Spanish, Finnish, Italian, Greek).
SEE_ALSO = re.compile(r"[\s%]*(See also|Siehe auch|Voir aussi|Ver también|Katso myös|Vedi anche|Βλέπε επίσης)\b")


class Reader:
    """Reads one dictionary; holds what the checks across files need."""

    def __init__(self, main_path, base=None, complete=False):
        self.main = Path(main_path)
        self.root = self.main.parent
        self.macros = set()
        # An edition (a translation) is read against its base dictionary (read()'s result): the keys it
        # lacks may be referred to (linked to the base's term), unless it must be complete.
        self.base, self.complete = base, complete
        self.fallback = set()

    def resolve_graphic(self, name, where, key):
        for suffix in GRAPHIC_SUFFIXES:
            if (self.root / (name + suffix)).is_file():
                return Path(name + suffix).as_posix()
        raise EntryError(f"{where}: term {key!r}: \\includegraphics{{{name}}}: no such file under the "
                         "dictionary's folder (tried .png, .jpg, .pdf); fix the path or add the file")

    def graphic_files(self, tex, where, key):
        """The files a picture's own \\includegraphics read (its nodes may show a photo)."""
        names = re.findall(r"\\includegraphics\s*(?:\[[^]]*\])?\s*\{([^{}]*)\}", tex)
        return [self.resolve_graphic(n.strip(), where, key) for n in names]

    def read(self):
        src, preamble, declared, inputs, sections, bib = read_main(self.main, self.root)
        if self.base is not None and set(declared) == {DEFAULT_TYPE}:
            # An edition whose main file declares no glossaries of its own has its base's sections.
            declared, sections = dict(self.base["declared"]), [dict(s) for s in self.base["sections"]]
        sources, macro_files, glossary_files = [], [], []
        for name, before_doc, where in inputs:
            path = resolve_input(self.root, name, where)
            source = Source(path, path.relative_to(self.root).as_posix())
            if "\\newglossaryentry" in source.text:
                glossary_files.append(source.rel)
                sources.append(source)
            elif before_doc:
                macro_files.append(source.rel)
                self.macros |= macro_names([source.text])
        self.macros |= macro_names([preamble])
        self.known = {False: commands(KNOWN_TEXT) | self.macros, True: commands(KNOWN_MATH) | self.macros}
        self.plain = (self.known[False] & self.known[True]) - STRUCTURE
        entries, places, bodies = {}, {}, {}
        # \GlsXtrLoadResources' .bib files (not glossary_files: the preview reads those as .tex, a .bib save rebuilds)
        records = bib2gls.resources(preamble, src, self.root, Source)
        for source, found in [(source, entries_of(source)) for source in sources] + records:
            for key, at, options in found:
                if key in places:
                    raise EntryError(f"{source.where(at)}: term {key!r} is defined twice (also at "
                                     f"{places[key]}); keep one definition or rename one key")
                places[key] = source.where(at)
                entry, body = self.entry(source, key, at, options, declared)
                entries[key], bodies[key] = entry, body
        slugs = self.slugs(entries, places)
        labels = self.labels(bodies, slugs)
        self.check_references(bodies, places, labels)
        for entry in entries.values():
            entry["see_also"] = [slugs[k] if k in slugs else slug_of(k) for k in entry["see_also"]]
        return {
            "main": str(self.main),
            "root": str(self.root),
            "declared": declared,
            "sections": sections,
            "fallback_keys": sorted(self.fallback),
            "glossary_files": glossary_files,
            "macro_files": macro_files,
            "bibliography": bib,
            "preamble": preamble,
            "entries": {slugs[k]: entries[k] for k in sorted(entries, key=lambda k: slugs[k])},
            "labels": labels,
            "unknown": unknown_of(bodies),
        }

    def entry(self, src, key, at, options, declared):
        opts, places = {}, {}
        for name, value, voffset in options:
            if value is None:
                raise EntryError(f"{src.where(voffset)}: term {key!r}: option {name!r} has no '=value'; "
                                 "write name={...}")
            opts[name], places[name] = value, voffset
        for field in ("name", "description"):
            if field not in opts:
                raise EntryError(f"{src.where(at)}: term {key!r}: no {field}= given; add {field}={{...}}")
        kind = opts.get("type", DEFAULT_TYPE)
        if kind not in declared:
            raise EntryError(f"{src.where(places['type'])}: term {key!r}: type={kind} names no glossary; "
                             f"declare it with \\newglossary*{{{kind}}}{{Title}} in the main file or use one "
                             f"of: {', '.join(sorted(declared))}")
        body = Body(self, src, key, opts["description"], places["description"])
        text, see_also = body.normalised()
        return {
            "slug": None, "key": key, "title": opts["name"], "forms": forms_of(opts, opts["name"]),
            "section": kind, "see_also": see_also, "summary": None,
            "path": src.rel, "line": src.line(at),
            "body": text, "body_line": src.line(places["description"]),
            "pictures": body.pictures, "graphics": body.graphics, "format": "latex",
        }, body

    def slugs(self, entries, places):
        slugs, owner = {}, {}
        for key in entries:
            slug = slug_of(key)
            if not slug:
                raise EntryError(f"{places[key]}: term {key!r}: the key gives an empty slug; use letters or "
                                 "digits in it")
            if slug in owner:
                raise EntryError(f"{places[key]}: term {key!r} and term {owner[slug]!r} "
                                 f"({places[owner[slug]]}) have one slug {slug!r}; rename one key")
            owner[slug], slugs[key] = key, slug
            entries[key]["slug"] = slug
        return slugs

    def labels(self, bodies, slugs):
        labels, places = {}, {}
        for key, body in bodies.items():
            for name, start, kind, number in body.labels:
                if name in labels:
                    raise EntryError(f"{body.where(start)}: term {key!r}: \\label{{{name}}} is defined twice "
                                     f"(also at {places[name]}); rename one")
                labels[name] = {"slug": slugs[key], "kind": kind, "number": number}
                places[name] = body.where(start)
        return dict(sorted(labels.items()))

    def check_references(self, bodies, places, labels):
        keys = sorted(places)
        for key, body in bodies.items():
            for name, start in body.gls:
                if name not in places and self.base is not None and name in self.base_keys():
                    if self.complete:
                        raise EntryError(f"{body.where(start)}: term {key!r}: \\gls key {name!r} is a term of the "
                                         "base edition but not of this one, and the edition must be complete "
                                         "(complete: true); translate the term or drop complete:")
                    self.fallback.add(name)
                    continue
                if name not in places:
                    close = difflib.get_close_matches(name, keys, n=3, cutoff=0.6)
                    hint = f"did you mean {', '.join(close)}?" if close else "define it or fix the key"
                    raise EntryError(f"{body.where(start)}: term {key!r}: \\gls key {name!r} is not defined; "
                                     f"{hint}")
            for name, start, cmd in body.refs:
                if name not in labels:
                    close = difflib.get_close_matches(name, list(labels), n=3, cutoff=0.6)
                    hint = f"did you mean {', '.join(close)}?" if close else "add the \\label or fix the name"
                    raise EntryError(f"{body.where(start)}: term {key!r}: {cmd}{{{name}}} names a label that "
                                     f"no entry defines; {hint}")


    def base_keys(self):
        return {e["key"] for e in self.base["entries"].values()}


def commands(names):
    """Names as the scanner's tokens: with their backslash."""
    return {n if n.startswith("\\") else "\\" + n for n in names}


def unknown_of(bodies):
    """Unknown constructs over all bodies: count and first place, most frequent first."""
    counts, first = {}, {}
    for body in bodies.values():
        for construct, start in body.unknown:
            counts[construct] = counts.get(construct, 0) + 1
            first.setdefault(construct, body.where(start))
    return [{"construct": c, "count": counts[c], "first": first[c]}
            for c in sorted(counts, key=lambda c: (-counts[c], c))]


def read(main_path, base=None, complete=False):
    """The dictionary whose main file is main_path:

    {"main": str(main_path), "root": its folder,
     "sections": [{"id", "title"}] in \\printglossary order,
     "glossary_files": [\\input files with entries], "macro_files": [other \\input files before
     \\begin{document}], relative to root, "bibliography": "x.bib" or None,
     "preamble": the main file before \\begin{document}, comments stripped,
     "entries": {slug: {"slug", "key", "title", "forms": {"text", "first", "plural", "firstplural"},
                 "section", "see_also": [slugs], "summary": None, "path", "line", "body", "body_line",
                 "pictures": [{"n", "tex", "line", "files"}], "graphics": [{"n", "path", "line"}],
                 "format": "latex"}} sorted by slug,
     "labels": {label: {"slug", "kind": "figure"|"equation"|"table", "number"}} sorted,
     "unknown": [{"construct", "count", "first": "file:line"}] most frequent first,
     "declared": {glossary type: title}, "fallback_keys": [keys referred to that only `base` defines]}

    An edition (a translation) is read with `base`, its base dictionary's read(): a main file that
    declares no glossary but the default takes the base's sections; a \\gls key only the base defines
    is a fallback key (its reference links to the base's term), or an error when `complete`."""
    return Reader(main_path, base, complete).read()


# ---------------------------------------------------------------- the source config

# A demo's csv and figures are declared as an entry.md declares them: one schema for both.
ENTRY_PROPERTIES = yaml.safe_load((Path(__file__).resolve().parents[2] / "workflow/schemas/entry.schema.yaml")
                                  .read_text(encoding="utf-8"))["properties"]
CONFIG_SCHEMA = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "description": "a dictionary source: its main .tex file and the site's fields",
    "type": "object",
    "additionalProperties": False,
    "required": ["main"],
    "properties": {
        "main": {"type": "string", "pattern": r"\.tex$", "description": "the main .tex file, relative to this file"},
        # Each of these overrides what the main file says (glossary.texmeta).
        "title": {"type": "string", "minLength": 1, "description": "default: the main file's \\title"},
        "authors": {"type": "array", "minItems": 1, "items": {"type": "string", "minLength": 1},
                    "description": "the book's authors; default: the names of the main file's \\author"},
        "year": {"type": "integer", "minimum": 1000, "maximum": 9999,
                 "description": "default: the main file's \\date or its please-cite-as text"},
        "url": {"type": "string", "pattern": "^https?://.*/$"},
        "attribution": {"type": "string", "minLength": 1},
        "license": {"description": "default: the licence the LICENSE file beside the main file names",
                    "oneOf": [{"type": "string", "minLength": 1},
                              {"type": "object", "additionalProperties": False, "required": ["name"],
                               "properties": {"name": {"type": "string", "minLength": 1},
                                              "url": {"type": "string", "pattern": "^https?://"}}}]},
        "description": {"type": "string", "minLength": 1, "description": "what the site is, in a sentence or two"},
        "manifest": {"type": "string", "pattern": r"\.json$"},
        "language": {"type": "string", "pattern": "^[a-z]{2,3}$", "description": "the language of the main file (en)"},
        "editions": {
            "description": "the translations, by language code: each a site under <lang>/ (glossary.editions)",
            "type": "object",
            "propertyNames": {"pattern": "^[a-z]{2,3}$"},
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "required": ["main"],
                "properties": {
                    "main": {"type": "string", "pattern": r"\.tex$"},
                    "title": {"type": "string", "minLength": 1},
                    "description": {"type": "string", "minLength": 1},
                    "complete": {"type": "boolean", "description": "a \\gls key it lacks is an error"},
                    "sections": {"type": "object", "additionalProperties": {"type": "string", "minLength": 1},
                                 "description": "section titles by glossary type, in this language"},
                },
            },
        },
        "demos": {
            "type": "object",
            "additionalProperties": {
                "type": "object",
                "additionalProperties": False,
                "required": ["script", "kind"],
                "properties": {
                    "script": {"type": "string", "pattern": r"\.py$"},
                    "kind": {"enum": ["plain", "blocks"]},
                    # The same declarations as an entry.md's (workflow/schemas/entry.schema.yaml).
                    "csv": ENTRY_PROPERTIES["csv"],
                    "figures": ENTRY_PROPERTIES["figures"],
                    "preview": {"type": "string", "pattern": r"^[A-Za-z0-9_-]+\.(pdf|png)$",
                                "description": "plain: the image the script saves beside itself"},
                },
            },
        },
    },
}
# The fields that name files, all relative to the YAML file's folder.
CONFIG_PATHS = ("main", "manifest")


def read_config(yaml_path):
    """A source config: its fields, with main/manifest/demo scripts joined to the YAML file's folder
    (normalised, not made absolute) and "path" the YAML file itself."""
    path = Path(yaml_path)
    try:
        data = yaml.load(path.read_text(encoding="utf-8"), Loader=StrictLoader)
    except FileNotFoundError:
        raise EntryError(f"{path}: no such file; write the dictionary's config there") from None
    except FrontMatterError as err:
        raise EntryError(f"{path}:{err.line + 1}: {err}") from None
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        raise EntryError(f"{path}{f':{mark.line + 1}' if mark else ''}: not valid YAML: "
                         f"{getattr(err, 'problem', err)}; fix the syntax") from None
    validate(data, CONFIG_SCHEMA, path)
    config = dict(data, path=str(path))
    for field in CONFIG_PATHS:
        if field in data:
            config[field] = os.path.normpath(path.parent / data[field])
    if not Path(config["main"]).is_file():
        raise EntryError(f"{path}: main: {data['main']!r} is not a file next to {path.name}; give the main "
                         ".tex file's path relative to the YAML file")
    config["demos"] = {key: read_demo(path, key, demo) for key, demo in sorted(data.get("demos", {}).items())}
    for lang, edition in sorted(data.get("editions", {}).items()):
        main = os.path.normpath(path.parent / edition["main"])
        if not Path(main).is_file():
            raise EntryError(f"{path}: editions.{lang}.main: {edition['main']!r} is not a file; give the "
                             "edition's main .tex file relative to the YAML file")
        config["editions"][lang] = dict(edition, main=main)
    return config


def read_demo(path, key, demo):
    """One entry of `demos:` checked as an entry.md's demo is (csv, figures), its script's path joined
    to the YAML file's folder; the fields it does not give are left out (csv and figures default to
    none, the preview of a plain script to <script>.png or .pdf)."""
    script = os.path.normpath(path.parent / demo["script"])
    if not Path(script).is_file():
        raise EntryError(f"{path}: demos.{key}.script: {demo['script']!r} is not a file; give the "
                         "script's path relative to the YAML file")
    if "preview" in demo and demo["kind"] != "plain":
        raise EntryError(f"{path}: demos.{key}.preview: only a plain script names its preview image; a "
                         "blocks demo draws <script>.png with its preview(): remove the field")
    where = f"{path}: demos.{key}"
    meta = {"csv": demo.get("csv", []), "figures": demo.get("figures", [])}
    check_csv_declarations(meta, where)
    # check_figures looks for a custom figure's template beside the declaring file; here it sits
    # beside the script, so custom figures are checked here and the others by check_figures.
    names = [f["name"] for f in meta["figures"]]
    declared = [c["name"] for c in meta["csv"]]
    for i, fig in enumerate(meta["figures"]):
        if fig["kind"] != "custom":
            continue
        if names.index(fig["name"]) != i:
            raise EntryError(f"{where}: figures[{i}].name: {fig['name']!r} is used twice; give each figure its "
                             "own name")
        if not (Path(script).parent / fig["source"]).is_file():
            raise EntryError(f"{where}: figures[{i}].source: {fig['source']!r} is not a file in "
                             f"{Path(script).parent}; put the figure's .tex.j2 template beside the script")
        if fig.get("csv") and fig["csv"] not in declared:
            raise EntryError(f"{where}: figures[{i}].csv: {fig['csv']!r} is not declared under csv; name one of: "
                             f"{', '.join(declared)} (or declare it under csv with its columns)")
    check_figures(dict(meta, figures=[f for f in meta["figures"] if f["kind"] != "custom"]), where)
    return {"script": script, "kind": demo["kind"],
            **{k: demo[k] for k in ("csv", "figures", "preview") if k in demo}}


def load(source_path):
    """read() of a .tex main file, or of the main a .yaml config names; "config" holds the config's
    fields ({"main": path} alone for a .tex file). A demo for a key the dictionary lacks is an error."""
    path = Path(source_path)
    if path.suffix == ".tex":
        dictionary = read(path)
        dictionary["config"] = {"main": str(path), "demos": {}}
        return dictionary
    if path.suffix not in (".yaml", ".yml"):
        raise EntryError(f"{path}: a dictionary source is its main .tex file or a .yaml config naming it")
    config = read_config(path)
    dictionary = read(config["main"])
    keys = {e["key"] for e in dictionary["entries"].values()}
    for key in config["demos"]:
        if key not in keys:
            close = difflib.get_close_matches(key, sorted(keys), n=3, cutoff=0.6)
            hint = f"did you mean {', '.join(close)}?" if close else "use a term's key"
            raise EntryError(f"{path}: demos.{key}: no term has the key {key!r}; {hint}")
    dictionary["config"] = config
    return dictionary
