"""What a dictionary's main file says of the book itself: its title, its authors, the year, the
authors' "please cite as", the List of Symbols it \\input s, and the licence file beside it.

    read(main_path) -> {"title": str or None, "authors": [str], "year": int or None,
                        "cite_as": LaTeX source or None, "symbols_file": path or None,
                        "license": {"name", "title", "spdx", "url", "notice", "file"} or None,
                        "captions": {"figure"/"table": {"name": str, "labelsep": str}}}
    book(main_path, fields, fallback=None) -> read()'s fields, each overridden by `fields` (the
                        YAML file's title/authors/license/year), then filled from `fallback`

The title and the authors are plain text: formatting commands go (\\huge, \\textbf{...} keeps its
text, \\vspace, \\hspace, \\fontsize, \\\\), \\thanks and footnotes go, accents become letters
(\\"a -> ä), TeX's quotes become typographic ones and an unpaired '' (the real title's "A''alto"
logo, a quote drawn over the A) goes.  The authors are the names of \\author: its \\and blocks
(the first line of each, when there are several), its lines (\\\\) less the affiliation lines (one
that opens with an affiliation mark such as ${}^{1}$ or \\textsuperscript{1}, or that names an
institution or an address), each line cut at commas, semicolons, "and" and "&", the marks removed.

The captions are the preamble's own label for a figure or a table (`\\captionsetup[figure]{name=Fig.,
labelsep=period}`, `\\captionsetup{labelsep=...}` for both, `\\renewcommand{\\figurename}{...}`; see
captions_of): a plain name and one of the caption package's separators; anything else is left to LaTeX's
defaults.

The licence is recognised by its text (LICENSE, LICENSE.md or LICENSE.txt beside the main file) or,
in the YAML file, by its name: `KNOWN_LICENSES`, most specific first.
"""
import re
import unicodedata
from pathlib import Path

from glossary.readers.latex import glossaries
from glossary.readers.latex.lexer import (
    Source,
    argument,
    command_argument,
    cut_top,
    encoding_of,
    group_end,
    optional,
    strip_comments,
)

# Spaces, dashes, quotes, a control word or symbol, braces, math, and runs of anything else.
PIECE = re.compile(r"\\(?:[A-Za-z@]+\*?|[\s\S])|---|--|``|''|[{}$~%]|[^\\{}$~%`'-]+|[\s\S]")
# TeX's accents (\"a, \"{a}, \c{c}) and the combining marks they put on their letter.
ACCENTS = {"'": "\u0301", "`": "\u0300", "^": "\u0302", '"': "\u0308", "~": "\u0303", "=": "\u0304",
           ".": "\u0307", "u": "\u0306", "v": "\u030c", "H": "\u030b", "c": "\u0327", "k": "\u0328",
           "r": "\u030a", "d": "\u0323", "b": "\u0331"}
LETTERS = {"ss": "ß", "o": "ø", "O": "Ø", "aa": "å", "AA": "Å", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ",
           "l": "ł", "L": "Ł", "i": "ı", "j": "ȷ", "&": "&", "%": "%", "$": "$", "#": "#", "_": "_", "{": "{",
           "}": "}", "textendash": "–", "textemdash": "—", "textquoteright": "’", "textquoteleft": "‘",
           "ldots": "…", "dots": "…", "textbar": "|", "copyright": "©", "textregistered": "®", "S": "§",
           "LaTeX": "LaTeX", "TeX": "TeX"}
# Commands that space words apart (\ , \quad, \newline).
SPACES = frozenset(",;: quad qquad enspace enskip hfill hfil newline par".split()) | {" ", "\n", "\t"}
# Commands dropped with their arguments (how many); an optional [...] before them goes too.
DROPPED = {"thanks": 1, "footnote": 1, "footnotetext": 1, "footnotemark": 0, "textsuperscript": 1, "inst": 1,
           "IEEEauthorrefmark": 1, "IEEEauthorblockA": 1, "affil": 1, "affiliation": 1, "email": 1,
           "orcidlink": 1, "orcid": 1, "vspace": 1, "vspace*": 1, "fontsize": 2, "label": 1, "index": 1,
           "qrcode": 1, "includegraphics": 1, "color": 1, "definecolor": 3, "setlength": 2, "rule": 2,
           "resizebox": 2, "resizebox*": 2, "scalebox": 1, "raisebox": 1, "url": 1, "href": 1, "today": 0}
# A line of \author that opens with an affiliation mark, or that names an institution or an address.
MARK = r"(?:\$\s*(?:\{\s*\})?\s*\^\s*(?:\{[^{}$]*\}|\\?\w+|\*)\s*\$|\\textsuperscript\s*\{[^{}]*\}|\\inst\s*\{[^{}]*\})"
OPENS_WITH_MARK = re.compile(r"^(?:\s|\\hspace\*?\s*\{[^{}]*\}|\\(?:noindent|centering|small|large)\b)*" + MARK)
INSTITUTION = re.compile(r"\b(?:Universit(?:y|ät|é|à|ad|eit|at)|Institut[e]?|Department|Dept\.|School|College|"
                         r"Laborator(?:y|ies)|Lab|Cent(?:er|re)|Faculty|Inc\.|Ltd\.?|GmbH|Corporation|Foundation|"
                         r"Academy|Hospital|Research)\b|@|\\(?:url|href|texttt|email)\b")
AND = re.compile(r"\\(?:and|AND|And)(?![A-Za-z])")
LINE_BREAK = re.compile(r"\\\\\*?(?:\s*\[[^\]]*\])?|\\newline(?![A-Za-z])")
NAME_CUT = re.compile(r"\s*(?:[,;&]|\band\b|\bund\b|\bet\b|\by\b)\s*")
YEAR = re.compile(r"(?<!\d)(1[6-9]\d\d|20\d\d)(?!\d)")
# "please cite as:", "Cite this book as:", "How to cite:" (never a \cite command).
CITE_AS = re.compile(r"(?<![\\A-Za-z])(?:please\s+)?(?:cite\s+(?:this\s+\w+\s+|it\s+|us\s+)?as|how\s+to\s+cite)"
                     r"\s*:?\s*", re.I)
CITE_END = re.compile(r"\n[ \t]*\n|\\par(?![A-Za-z])|\\(?:begin|end)\s*\{|\\newpage|\\clearpage|\\\\")
# "Espoo, Finland: Aalto University, 2026." at the end of a citation: where, who, when.
IMPRINT = re.compile(r"(?:^|[.,]\s+)(?P<address>[^.:;]+?):\s*(?P<publisher>[^,:;]+),\s*(?:\w+\s+)?"
                     r"(?P<year>\d{4})\.?\s*$")
SYMBOLS = re.compile(r"symbol|notation", re.I)
# The front matter's own pages, between the title page and the contents (an Acknowledgment, a
# Preface): each starts at an unnumbered heading, as \section*{...} or as a large bold line.
FRONT_HEADING = re.compile(r"\\(?:section|chapter)\*\s*\{([^{}]+)\}"
                           r"|(?:\\noindent\s*)?\{\s*\\(?:bf|bfseries)\s*\\(?:Large|LARGE|large|huge|Huge)\s+([^{}]+?)\s*\}"
                           r"|(?:\\noindent\s*)?\{\s*\\(?:Large|LARGE|large|huge|Huge)\s*\\(?:bf|bfseries)\s+([^{}]+?)\s*\}")
# Where the front matter ends: the contents, an input file (the List of Symbols) or the glossaries.
FRONT_END = re.compile(r"\\(?:tableofcontents|input|include|printglossar|printunsrtglossar|printindex|glsaddall)"
                       r"|\\end\s*\{document\}")
PAGE_BREAK = re.compile(r"\\(?:newpage|clearpage|cleardoublepage)(?![A-Za-z])")

LICENSE_FILES = ("LICENSE", "LICENSE.md", "LICENSE.txt", "LICENCE", "LICENCE.md", "LICENCE.txt")


def _cc(code, version="4.0"):
    """A Creative Commons licence by its code ("by-sa")."""
    words = {"by": "Attribution", "sa": "ShareAlike", "nc": "NonCommercial", "nd": "NoDerivatives"}
    parts = code.split("-")
    upper = "-".join(p.upper() for p in parts)
    long = "-".join(words[p] for p in parts)
    return {"name": f"CC {upper} {version}", "title": f"Creative Commons {long} {version} International",
            "spdx": f"CC-{upper}-{version}", "url": f"https://creativecommons.org/licenses/{code}/{version}/",
            "match": rf"{long.replace('-', r'[- ]')}\s+{re.escape(version)}\s+International"
                     rf"|\bCC[- ]{upper.replace('-', '[- ]')}[- ]{re.escape(version)}\b"}


# Each known licence: its short name, full title, SPDX id, canonical address, and what names it in a
# licence file or a YAML value; the most specific first (BY-SA before BY).
KNOWN_LICENSES = [_cc(code) for code in ("by-nc-sa", "by-nc-nd", "by-nc", "by-nd", "by-sa", "by")] + [
    {"name": "CC0 1.0", "title": "Creative Commons Zero v1.0 Universal", "spdx": "CC0-1.0",
     "url": "https://creativecommons.org/publicdomain/zero/1.0/", "match": r"\bCC0\b|CC\s*Zero"},
    {"name": "MIT", "title": "MIT License", "spdx": "MIT", "url": "https://opensource.org/license/mit",
     "match": r"^MIT$|\bMIT\s+Licen[sc]e\b|Permission is hereby granted, free of charge"},
    {"name": "Apache 2.0", "title": "Apache License 2.0", "spdx": "Apache-2.0",
     "url": "https://www.apache.org/licenses/LICENSE-2.0",
     "match": r"Apache\s+Licen[sc]e,?\s+Version\s+2\.0|Apache-2\.0"},
    {"name": "GPL 3.0", "title": "GNU General Public License v3.0", "spdx": "GPL-3.0",
     "url": "https://www.gnu.org/licenses/gpl-3.0.html",
     "match": r"GNU\s+GENERAL\s+PUBLIC\s+LICENSE\s+Version\s+3|GPL-3\.0"},
    {"name": "GFDL 1.3", "title": "GNU Free Documentation License v1.3", "spdx": "GFDL-1.3",
     "url": "https://www.gnu.org/licenses/fdl-1.3.html",
     "match": r"GNU\s+Free\s+Documentation\s+License\s+Version\s+1\.3|GFDL-1\.3"},
    {"name": "BSD 3-Clause", "title": "BSD 3-Clause License", "spdx": "BSD-3-Clause",
     "url": "https://opensource.org/license/bsd-3-clause", "match": r"BSD[- ]3[- ]Clause"},
    {"name": "Unlicense", "title": "The Unlicense", "spdx": "Unlicense", "url": "https://unlicense.org/",
     "match": r"free and unencumbered software released into the public domain|^Unlicense$"},
]
for _known in KNOWN_LICENSES:
    _known["pattern"] = re.compile(_known.pop("match"), re.I | re.M)


# ---------------------------------------------------------------- TeX as plain text


def plain_text(tex, part=None):
    """TeX as the reader sees it, in one line of plain text (see the module's docstring)."""
    return " ".join(_text(tex, part).split())


def _text(tex, part):
    out, pos, quotes = [], 0, 0
    while pos < len(tex):
        m = PIECE.match(tex, pos)
        tok, pos = m.group(0), m.end()
        if tok in "{}%":              # % : where the lexer took a comment
            continue
        if tok == "$":
            end = tex.find("$", pos)
            end = len(tex) if end < 0 else end
            math, pos = tex[pos:end], end + 1
            if not re.fullmatch(r"\s*(?:\{\s*\})?\s*\^.*", math, re.S):    # ${}^{1}$: a mark
                out.append(re.sub(r"[\^_]", "", _text(math, part)))
        elif tok == "~" or tok.startswith("\\") and tok[1:] in SPACES:
            out.append(" ")
        elif tok in ("--", "---"):
            out.append("–" if tok == "--" else "—")
        elif tok == "``":
            quotes += 1
            out.append("“")
        elif tok == "''":
            if quotes:                     # an unpaired '' is drawn, not said
                quotes -= 1
                out.append("”")
        elif not tok.startswith("\\"):
            out.append(tok)
        else:
            name = tok[1:]
            if name == "\\":
                pos = optional(tex, pos)
                out.append(" ")
            elif name in ACCENTS:
                arg, _, pos = argument(tex, pos, part, tok)
                letters = _text(arg, part).lstrip()
                out.append(unicodedata.normalize("NFC", letters[:1].replace("ı", "i") + ACCENTS[name] + letters[1:]))
            elif name in LETTERS:
                out.append(LETTERS[name])
            elif name.rstrip("*") == "hspace":
                arg, _, pos = argument(tex, pos, part, tok)
                out.append("" if arg.strip().startswith("-") else " ")   # a negative space overlaps
            elif name in DROPPED:
                pos = optional(tex, pos)
                for _ in range(DROPPED[name]):
                    _, _, pos = argument(tex, pos, part, tok)
            # any other command (\huge, \bf, \textbf{...}, \selectfont) goes; its argument stays
    return unicodedata.normalize("NFC", "".join(out))


def author_names(tex, part=None):
    """The names of an \\author argument, in order, each once (see the module's docstring)."""
    blocks = [b for b in cut_top(tex, AND) if b.strip()]
    names = []
    for block in blocks:
        lines = [line for line in cut_top(block, LINE_BREAK) if plain_text(line, part)]
        if len(blocks) > 1:
            lines = lines[:1]              # name \\ affiliation \\ address, one block each
        for line in lines:
            if OPENS_WITH_MARK.match(line) or INSTITUTION.search(plain_text(line, part)) \
                    or re.search(r"\\(?:url|href|texttt|email)(?![A-Za-z])", line):
                continue
            for name in NAME_CUT.split(plain_text(line, part)):
                name = name.strip(" .") if name.endswith("..") else name.strip()
                if name and name not in names:
                    names.append(name)
    return names


# ---------------------------------------------------------------- the main file


def cite_as_of(text):
    """The authors' "please cite as" text, as LaTeX source on one line, or None: what follows the
    words up to the end of the group, paragraph or line (\\\\) they are in."""
    m = CITE_AS.search(text)
    if not m:
        return None
    depth, pos = 0, m.end()
    end = len(text)
    for tok in re.finditer(r"\\[\\{}]|[{}]|" + CITE_END.pattern, text[pos:]):
        t = tok.group(0)
        if t == "{":
            depth += 1
        elif t == "}":
            depth -= 1
            if depth < 0:
                end = pos + tok.start()
                break
        elif t not in ("\\{", "\\}") and depth == 0:
            end = pos + tok.start()
            break
    cite = " ".join(text[pos:end].replace("%\n", "").split())
    return cite or None


def year_of(*texts):
    """The last year (1600-2099) the first text that names one says, as a number; or None."""
    for text in texts:
        found = YEAR.findall(text or "")
        if found:
            return int(found[-1])
    return None


def imprint(cite_as):
    """{"address", "publisher"} of a "please cite as" that ends "Place: Publisher, Year." ({} if not)."""
    if not cite_as:
        return {}
    m = IMPRINT.search(plain_text(cite_as))
    return {"address": m.group("address").strip(), "publisher": m.group("publisher").strip()} if m else {}


def symbols_file(root, inputs):
    """The List of Symbols the main file \\input s after \\begin{document}: the first such file without
    glossary entries whose name or headings speak of symbols or notation; None when there is none."""
    for name, before_doc in inputs:
        if before_doc:
            continue
        for path in (root / name, root / f"{name}.tex"):
            if path.is_file():
                head = path.read_text(encoding="utf-8", errors="replace")
                if not glossaries.defines_terms(head) and (SYMBOLS.search(path.stem) or re.search(
                        r"\\(?:section|chapter|subsection)\*?\s*\{[^{}]*(?:Symbol|Notation)", head, re.I)):
                    return str(path)
                break
    return None


# The caption package's label settings in the preamble, and the kernel's names; the separators it knows.
CAPTIONSETUP = re.compile(r"\\captionsetup\s*(?:\[\s*(\w*)\s*\])?\s*\{([^{}]*)\}")
CAPTION_NAME = re.compile(r"\\renewcommand\s*\{?\\(figure|table)name\}?\s*\{([^{}\\]*)\}")
# babel and polyglossia set \figurename again at \begin{document}: a \renewcommand holds there only inside
# \addto\captions<language>{...}.
LANGUAGE_PACKAGE = re.compile(r"\\usepackage\s*(?:\[[^\]]*\])?\s*\{[^}]*\b(?:babel|polyglossia)\b")
CAPTIONS_HOOK = re.compile(r"\\(?:addto|g@addto@macro)\s*\\captions\w+\s*\{")
LABEL_SEPARATORS = frozenset("none colon period space quad newline endash".split())


def captions_of(preamble):
    """{"figure"/"table": {"name", "labelsep"}} the preamble sets for its captions, as LaTeX applies them:
    \\figurename, then \\captionsetup's options for every kind (a separator: `name` needs a kind), then
    those for the kind, each in the file's order.  A name LaTeX would not show (a \\figurename that babel
    sets again), one that is not plain Latin-1 text (the print fonts' encoding), another key or an
    unknown separator is not taken."""
    found = {}
    text = strip_comments(preamble)
    hooks = [(m.end(), group_end(text, m.end() - 1) or len(text)) for m in CAPTIONS_HOOK.finditer(text)]
    babel = bool(LANGUAGE_PACKAGE.search(text))
    settings = [(2 if m.group(1) else 1, m.start(), m.group(1), m.group(2)) for m in CAPTIONSETUP.finditer(text)]
    settings += [(0, m.start(), m.group(1), f"name={m.group(2)}") for m in CAPTION_NAME.finditer(text)
                 if not babel or any(a <= m.start() < b for a, b in hooks)]
    for _, _, kind, options in sorted(settings):
        kinds = ("figure", "table") if not kind else (kind,) if kind in ("figure", "table") else ()
        for option in options.split(","):
            key, _, value = (part.strip() for part in option.partition("="))
            if (key == "name" and kind and value and not re.search(r"[\\{}$%#&^_~]", value)
                    and all(ord(c) < 256 for c in value)) or (key == "labelsep" and value in LABEL_SEPARATORS):
                for k in kinds:
                    found.setdefault(k, {})[key] = value
    return found


def front_matter(text):
    """[{"title", "tex"}] of the pages the main file sets between its title page (\\maketitle) and its
    contents: each from an unnumbered heading to the next heading or page break, as LaTeX source."""
    start = text.find("\\maketitle")
    if start < 0:
        return []
    end = FRONT_END.search(text, start)
    region = text[start:end.start() if end else len(text)]
    heads = list(FRONT_HEADING.finditer(region))
    parts = []
    for i, m in enumerate(heads):
        stop = heads[i + 1].start() if i + 1 < len(heads) else len(region)
        brk = PAGE_BREAK.search(region, m.end(), stop)
        tex = region[m.end():brk.start() if brk else stop].lstrip("% \t\n").rstrip()
        title = " ".join(next(g for g in m.groups() if g).split())
        if tex:
            parts.append({"title": plain_text(title), "tex": tex})
    return parts


def read(main_path):
    """What the main file says of the book (see the module's docstring)."""
    main = Path(main_path)
    src = Source(main, main.name, encoding=encoding_of(main.read_bytes()))   # as texdict reads it: inputenc's
    text = src.text
    doc = text.find("\\begin{document}")
    title, part = command_argument(src, text, "title")
    title = plain_text(title, part) if title is not None else None
    author, part = command_argument(src, text, "author")
    date, part_date = command_argument(src, text, "date")
    cite = cite_as_of(text[doc:] if doc >= 0 else text)
    inputs = []
    for m in re.finditer(r"\\(?:input|include)(?![A-Za-z])", text):
        name, _, _ = argument(text, m.end(), src, "\\input")
        inputs.append((name.strip(), doc < 0 or m.start() < doc))
    return {"title": title or None,
            "authors": author_names(author, part) if author else [],
            "year": year_of(plain_text(date, part_date) if date else "", plain_text(cite) if cite else ""),
            "cite_as": cite,
            "symbols_file": symbols_file(main.parent, inputs),
            "front_matter": front_matter(text[doc:] if doc >= 0 else ""),
            "captions": captions_of(text[:doc] if doc >= 0 else text),
            "license": license_file(main.parent)}


def book(main_path, fields, fallback=None):
    """The book's title, authors, licence, year, "please cite as" and List of Symbols: the main
    file's, each overridden by `fields` (the YAML file's title, authors, license, year), the ones
    still missing taken from `fallback` (a translation: its base dictionary's book())."""
    found = read(main_path)
    for key in ("title", "authors", "year"):
        if fields.get(key):
            found[key] = fields[key]
    if fields.get("license"):
        named, beside = license_named(fields["license"]), found["license"]
        if beside and named["spdx"] == beside["spdx"]:     # the licence file's: keep its copyright line
            named.update(notice=beside["notice"], file=beside["file"])
        found["license"] = named
    for key, value in (fallback or {}).items():
        # a translation's captions are its language's (babel's) unless its own preamble sets them
        if not found.get(key) and key != "captions":
            found[key] = value
    found["imprint"] = imprint(found["cite_as"])
    return found


# ---------------------------------------------------------------- the licence


def known_license(text):
    """The known licence a text names (KNOWN_LICENSES, most specific first), as a new dict; or None."""
    for known in KNOWN_LICENSES:
        if known["pattern"].search(text):
            return {k: known[k] for k in ("name", "title", "spdx", "url")}
    return None


def license_named(value):
    """A licence as the YAML file gives it: a string (a known licence's name, title or SPDX id, or
    any other words, shown as they are) or {name, url}."""
    if isinstance(value, dict):
        found = known_license(value["name"]) or {"name": value["name"], "title": value["name"], "spdx": None,
                                                 "url": None}
        return dict(found, url=value.get("url") or found["url"], notice=None, file=None)
    found = known_license(value) or {"name": value, "title": value, "spdx": None, "url": None}
    return dict(found, notice=None, file=None)


def license_file(root):
    """The licence of the file LICENSE (.md, .txt) in root: the known licence its first 4,000
    characters name, with its copyright line (`notice`); None when there is no such file or it names
    no licence this module knows."""
    for name in LICENSE_FILES:
        path = Path(root) / name
        if path.is_file():
            head = path.read_text(encoding="utf-8", errors="replace")[:4000]
            found = known_license(head)
            if found is None:
                return None
            notice = next((" ".join(line.split()) for line in head.splitlines()
                           if re.match(r"\s*(?:Copyright\b|©|\(c\))", line, re.I)), None)
            return dict(found, notice=notice, file=name)
    return None

