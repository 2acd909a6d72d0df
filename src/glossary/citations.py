"""Citations: BibTeX records formatted once per build by pandoc's citeproc (the pinned IEEE CSL
style, templates/csl/ieee.csl), then numbered per term in Python.

    keys = bib_keys("Literature.bib")                  # every record key, cheap (DAG time)
    check([{"key": "Smith2020", "path": "x.tex", "line": 12, "term": "gdpr"}], keys, bib="Literature.bib")
    formatted = format_references(sorted(all_cited), "Literature.bib", "templates/csl/ieee.csl")
    blocks, refs = number(ast["blocks"], formatted)    # Cite nodes -> "[1]", "[2, Sec. 2.4]" links
    references_html(refs), references_latex(refs)      # the term's own reference list

Why numbering is not left to citeproc: every term page and term PDF numbers its citations on its
own ([1], [2], ... in order of first citation) and the book repeats each term's list under the
term.  Running citeproc per term would cost one pandoc process and one parse of the bibliography
per term (about 570 terms); instead every cited record is formatted ONCE for the whole build, in
one pandoc process reading a .bibtex cut to the cited records (a brace-aware scanner cuts it), and
a term only looks its entries up.  The one process writes each entry as HTML (math as MathML),
LaTeX and plain text through a small Lua writer, so no entry is parsed twice.

Where the style and IEEEtran (the printed book's BibTeX style) differ, the entries follow IEEEtran:
booktitles, series, book titles and @string macros keep the case they are typed in (as_typed),
and a record's note is printed (the style drops it; the real bibliography keeps DOIs there).

A citation keeps its pinpoint ("Sec. 2.4", "p. 3") and prefix ("see"); several keys in one cite
become "[1], [3]" (sorted by number), each a Link of class "citation" to "#<prefix><n>".  Every
citation mode (\\cite, \\citet, [@key], @key) shows the number only: the IEEE style is numeric.
"""
import difflib
import json
import os
import re
import subprocess
import tempfile
import unicodedata
from pathlib import Path

from glossary.entries import EntryError
from glossary.prose import pandoc

# The start of a BibTeX block: "@type{" or "@type(" (BibTeX allows both delimiters).
BLOCK_START = re.compile(r"@[ \t]*([A-Za-z]+)[ \t\r\n]*([{(])")
BRACES = re.compile(r"[{}]")
BRACES_PARENS = re.compile(r"[{}()]")
# Blocks that are not records: macros and preamble are kept in every cut, comments dropped.
NOT_RECORDS = {"string", "preamble", "comment"}
# A dotless i or j under a combining accent, and its dotted letter.
DOTLESS_ACCENT = re.compile("([\u0131\u0237])([\u0300-\u036f])")
DOTTED = {"\u0131": "i", "\u0237": "j"}
# Fields IEEEtran prints as typed (pandoc's reader would sentence-case them), and the record
# types whose title IEEEtran prints as a book's title, as typed too.
AS_TYPED = {"booktitle", "series"}
NAME_FIELDS = {"author", "editor"}
AND = re.compile(r"\s+and\s+")
# A given name of two letters or more (braced accents count as letters) ending in a period.
FULL_NAME_DOT = re.compile(r"^((?:[^\W\d_]|\{[^{}]*\}){2,})\.$")
NICKNAME = re.compile(r"^\(([^()\s]+)\)$")
DOI_FIELD = re.compile(r"[\s,]doi\s*=", re.IGNORECASE)
NOTE_DOI = re.compile(r"\bnote\s*=\s*\{\s*doi:\s*(10\.[^{}\s]+?)\.?\s*\}", re.IGNORECASE)
BOOK_TITLES = {"book", "inbook", "manual", "periodical", "proceedings", "standard"}
FIELD_NAME = re.compile(r"[\s,]*([A-Za-z][\w:.+/-]*)\s*=\s*")
SPACE = re.compile(r"\s*")
BARE = re.compile(r"[^\s,#{}\"]*")
QUOTE_OR_BRACE = re.compile(r'[{}"]')
CROSSREF = re.compile(r"\b(?:crossref|xdata)\s*=\s*[{\"]\s*([^}\"]+?)\s*[}\"]", re.IGNORECASE)

# The Lua writer of the one citeproc run: {key: {"html", "latex", "text"}} as JSON, each entry
# without its "[n]" label (the csl-left-margin span), its note appended, spans without
# attributes unwrapped.
WRITER = r"""
-- citeproc's "nocase"/"nodecor" marks only steer its case changes, already made.
local function plain_spans(inlines)
  return inlines:walk({Span = function(s)
    for _, class in ipairs(s.classes) do
      if class ~= "nocase" and class ~= "nodecor" then return nil end
    end
    if s.identifier == "" and #s.attributes == 0 then return s.content end
  end})
end

local function entry_inlines(div)
  local found = nil
  div:walk({Span = function(s)
    if found == nil and s.classes:includes("csl-right-inline") then found = s.content end
  end})
  if found ~= nil then return found end
  return pandoc.utils.blocks_to_inlines(div.content)
end

-- BibTeX's note, which IEEEtran prints and the CSL style drops (97 of the 263 records the real
-- dictionary cites have one, most a DOI), kept unless it only repeats the record's DOI.
local function notes(doc)
  local out = {}
  for _, ref in ipairs(pandoc.utils.references(doc)) do
    if ref.note then
      local text = pandoc.utils.stringify(ref.note):lower()
      if not (ref.doi and text == ("doi: " .. ref.doi):lower()) then out[ref.id] = ref.note end
    end
  end
  return out
end

-- The note goes last, or before "Available: <URL>", which IEEE ends an entry with.
local function with_note(inlines, note)
  if note == nil then return inlines end
  local at = #inlines + 1
  for i, x in ipairs(inlines) do
    if x.t == "Str" and x.text == "Available:" then at = i; break end
  end
  local out = pandoc.Inlines({})
  for i = 1, at - 1 do out:insert(inlines[i]) end
  if at > #inlines then out:insert(pandoc.Space()) end
  out:extend(note)
  if not pandoc.utils.stringify(note):match("[.?!]$") then out:insert(pandoc.Str(".")) end
  if at <= #inlines then out:insert(pandoc.Space()) end
  for i = at, #inlines do out:insert(inlines[i]) end
  return out
end

function Writer(doc, opts)
  local out = {}
  local note = notes(doc)
  local html = {html_math_method = "mathml", wrap_text = "wrap-none"}
  local flat = {wrap_text = "wrap-none"}
  doc.blocks:walk({Div = function(div)
    if div.identifier:sub(1, 4) == "ref-" and div.classes:includes("csl-entry") then
      local key = div.identifier:sub(5)
      local body = pandoc.Pandoc({pandoc.Plain(plain_spans(with_note(entry_inlines(div), note[key])))})
      out[key] = {html = pandoc.write(body, "html5", html),
                  latex = pandoc.write(body, "latex", flat),
                  text = pandoc.write(body, "plain", flat)}
    end
  end})
  return pandoc.json.encode(out)
end
"""


# --- the bibliography file -----------------------------------------------------------

def line_at(text, offset):
    return text.count("\n", 0, offset) + 1


def block_end(text, start, opener, path):
    """The offset just past the block whose delimiter `opener` ends at `start` (braces nest;
    a "(" block closes at the first ")" outside braces)."""
    depth, pattern = 0, BRACES if opener == "{" else BRACES_PARENS
    for match in pattern.finditer(text, start):
        char = match.group()
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
            if depth < 0 and opener == "{":
                return match.end()
        elif char == ")" and depth == 0:
            return match.end()
    raise EntryError(f"{path}:{line_at(text, start)}: a BibTeX block is never closed; "
                     f"balance its braces")


def blocks(text, path="bibliography"):
    """Every BibTeX block as (kind, key, start, end): kind lower-case, key "" for @string and
    @preamble; @comment blocks skipped.  Text between blocks is a comment, as in BibTeX."""
    out, pos = [], 0
    while (match := BLOCK_START.search(text, pos)) is not None:
        kind, end = match.group(1).lower(), block_end(text, match.end(), match.group(2), path)
        if kind != "comment":
            key = "" if kind in NOT_RECORDS else text[match.end():end].split(",", 1)[0].strip()
            out.append((kind, key, match.start(), end))
        pos = end
    return out


# bib_keys' last answer per file, kept while the file's size and time stay: the language server checks
# on every keystroke, and the real dictionary's .bib takes 20 ms to scan.
_KEYS = {}


def bib_keys(bib_path):
    """Every record key of a BibTeX file, in file order, each once."""
    stat = Path(bib_path).stat()
    stamp = (stat.st_mtime_ns, stat.st_size)
    kept = _KEYS.get(str(bib_path))
    if kept is None or kept[0] != stamp:
        text = Path(bib_path).read_text(encoding="utf-8")
        kept = _KEYS[str(bib_path)] = (stamp, tuple(dict.fromkeys(key for _, key, _, _ in blocks(text, bib_path)
                                                                    if key)))
    return list(kept[1])


def duplicate_keys(bib_path):
    """{key: [line, ...]} of the keys that more than one record of the file has."""
    text, lines = Path(bib_path).read_text(encoding="utf-8"), {}
    for _, key, start, _ in blocks(text, bib_path):
        if key:
            lines.setdefault(key, []).append(line_at(text, start))
    return {key: found for key, found in sorted(lines.items()) if len(found) > 1}


def braced(block):
    """A block written @type( ... ) as @type{ ... }: BibTeX takes both, pandoc's reader braces only."""
    opener = BLOCK_START.match(block)
    if opener.group(2) == "{":
        return block
    return block[:opener.end() - 1] + "{" + block[opener.end():-1] + "}"


def value_parts(block, pos):
    """The parts of a field value at `pos` (joined by #): ([(start, end, delimiter)], end), where
    delimiter is "{", '"' or "" for a bare macro name or number."""
    parts = []
    while True:
        pos = SPACE.match(block, pos).end()
        if block.startswith("{", pos):
            end = block_end(block, pos + 1, "{", "record")
        elif block.startswith('"', pos):
            depth, end = 0, len(block)
            for match in QUOTE_OR_BRACE.finditer(block, pos + 1):
                if match.group() == '"' and depth == 0:
                    end = match.end()
                    break
                depth += {"{": 1, "}": -1}.get(match.group(), 0)
        else:
            end = BARE.match(block, pos).end()
        if end == pos:
            return parts, pos
        parts.append((pos, end, block[pos] if block[pos] in '{"' else ""))
        pos = SPACE.match(block, end).end()
        if not block.startswith("#", pos):
            return parts, pos
        pos += 1


def fields(block, kind):
    """(name, value parts) of each field of a record, or of the one definition of an @string."""
    pos = BLOCK_START.match(block).end()
    if kind != "string":
        pos = block.find(",", pos) + 1 or len(block)
    out = []
    while (name := FIELD_NAME.match(block, pos)) is not None:
        parts, pos = value_parts(block, name.end())
        if not parts:
            break
        out.append((name.group(1).lower(), parts))
    return out


def as_typed(block, kind):
    """The block with the fields that IEEEtran prints as typed wrapped in one more pair of braces,
    which pandoc's BibTeX reader then leaves in their case: booktitle and series always, the title
    of a book-like record, every @string (mostly booktitles).  Unbraced, pandoc would write
    "Proc. 35th int. Conf. Mach. learn." (it sentence-cases them for CSL, IEEEtran does not)."""
    names = AS_TYPED | ({"title"} if kind in BOOK_TITLES else set())
    inserts = []
    for name, parts in fields(block, kind):
        if kind == "string" or name in names:
            inserts += [(end - 1, "}") for start, end, delim in parts if delim] + \
                [(start + 1, "{") for start, end, delim in parts if delim]
    for pos, brace in sorted(inserts, reverse=True):
        block = block[:pos] + brace + block[pos:]
    return block


def given_names(block, kind):
    """The block with its author and editor names as IEEEtran reads them, where citeproc reads
    them otherwise: a full given name written with a period ("Bellman, Richard.") loses it, or
    citeproc takes it for an initial and prints "Richard. Bellman" (IEEEtran: "R. Bellman"); a
    nickname in parentheses ("Elnozahy, E. N. (Mootaz)") loses them (IEEEtran: "E. N. M.")."""
    edits = []
    for name, parts in fields(block, kind):
        if name not in NAME_FIELDS:
            continue
        for start, end, delim in parts:
            if delim != "{":
                continue
            value = block[start + 1:end - 1]
            people = AND.split(value)
            new = " and ".join(_given(person) for person in people)
            if new != " and ".join(people):
                edits.append((start + 1, end - 1, new))
    for start, end, new in sorted(edits, reverse=True):
        block = block[:start] + new + block[end:]
    return block


def note_doi(block):
    """A record whose note is only its DOI ("note = {doi: 10.1/x}", as the real bibliography keeps
    many) and that has no doi field: the note becomes the doi field, which the style prints and
    links as it does every other DOI."""
    if DOI_FIELD.search(block):
        return block
    return NOTE_DOI.sub(lambda m: f"doi = {{{m.group(1)}}}", block, count=1)


def _given(person):
    """One name: its given names (after the last comma, or all words but the last) tidied."""
    if "," in person:
        head, _, given = person.rpartition(",")
        return f"{head}, {_tidy_given(given.strip())}"
    words = person.split()
    return " ".join([_tidy_given(w) for w in words[:-1]] + words[-1:])


def _tidy_given(given):
    return " ".join(FULL_NAME_DOT.sub(r"\1", NICKNAME.sub(r"\1", w)) for w in given.split())


def cut(text, keys, path="bibliography"):
    """The BibTeX text of the records `keys` (and the records they crossref), with every
    @string and @preamble: what citeproc needs, in file order, fields IEEEtran prints as typed
    protected (as_typed).  Returns (text, missing keys)."""
    found = blocks(text, path)
    records = {}
    for block in found:
        if block[1]:
            records.setdefault(block[1], block)
    wanted, todo = set(), list(keys)
    while todo:
        key = todo.pop()
        if key in wanted or key not in records:
            continue
        wanted.add(key)
        _, _, start, end = records[key]
        todo.extend(CROSSREF.findall(text, start, end))
    # A key given twice: the first record, as pandoc takes it.
    kept = [note_doi(given_names(as_typed(braced(text[start:end]), kind), kind)) for kind, key, start, end in found
            if kind in NOT_RECORDS or (key in wanted and records[key][2] == start)]
    return "\n\n".join(kept) + "\n", sorted(set(keys) - set(records))


# --- checking the cited keys ---------------------------------------------------------

def suggestions(key, keys, n=3):
    """The keys closest to `key`: a case-insensitive match first, then difflib's closest."""
    same = [k for k in keys if k.lower() == key.lower() and k != key]
    close = difflib.get_close_matches(key, keys, n=n, cutoff=0.6)
    return list(dict.fromkeys(same + close))[:n]


def check(cites, keys, bib="the bibliography"):
    """Raise one EntryError naming every cite whose key no record of `bib` has, each as
    "path:line: term 'x': no record 'K' in bib; did you mean 'K1', ...?", in file order.
    cites: [{"key", "path", "line", "term"}]."""
    ordered = sorted(keys)
    known = set(ordered)
    problems = []
    for cite in sorted(cites, key=lambda c: (str(c["path"]), c["line"], c["key"])):
        if cite["key"] in known:
            continue
        close = suggestions(cite["key"], ordered)
        hint = ("did you mean " + ", ".join(f"'{k}'" for k in close) + "?") if close else \
            f"add the record to {bib} or fix the key"
        problems.append(f"{cite['path']}:{cite['line']}: term '{cite['term']}': no record "
                        f"'{cite['key']}' in {bib}; {hint}")
    if problems:
        raise EntryError("\n".join(dict.fromkeys(problems)))


# --- the AST -------------------------------------------------------------------------

def cites_in(tree):
    """Every Cite node of a pandoc JSON AST (any nesting), in document order."""
    if isinstance(tree, list):
        for item in tree:
            yield from cites_in(item)
    elif isinstance(tree, dict):
        if tree.get("t") == "Cite":
            yield tree
        else:
            yield from cites_in(tree.get("c"))


def cited_keys(blocks_):
    """The citation keys of an AST's blocks, in order of first appearance, each once."""
    return list(dict.fromkeys(c["citationId"] for cite in cites_in(blocks_) for c in cite["c"][0]))


def pinpoint(suffix):
    """A citation's suffix without the separator the author typed ("[@k, p. 3]" -> "p. 3")."""
    suffix = list(suffix)
    while suffix and (suffix[0]["t"] in ("Space", "SoftBreak") or suffix[0] == {"t": "Str", "c": ","}):
        suffix.pop(0)
    if suffix and suffix[0]["t"] == "Str" and suffix[0]["c"].startswith(","):
        suffix[0] = {"t": "Str", "c": suffix[0]["c"][1:]}
    return suffix


def citation_link(n, citation, prefix):
    """"[n]" or "[n, pinpoint]" as a Link of class "citation" to #<prefix><n>, its spaces unbreakable:
    "[2, Ch. 9]" stays on one line."""
    where = [{"t": "Str", "c": "\u00a0"} if x["t"] in ("Space", "SoftBreak") else x
             for x in pinpoint(citation["citationSuffix"])]
    label = [{"t": "Str", "c": f"[{n}"}] + ([{"t": "Str", "c": ",\u00a0"}] + where if where else []) + \
        [{"t": "Str", "c": "]"}]
    return {"t": "Link", "c": [["", ["citation"], []], label, [f"#{prefix}{n}", ""]]}


class Numbering:
    """Numbers of one term's citations, given in order of first citation."""

    def __init__(self, formatted, prefix):
        self.formatted, self.prefix, self.numbers = formatted, prefix, {}

    def of(self, key):
        if key not in self.formatted:
            raise EntryError(f"citation '{key}': no formatted record; check() the cited keys against "
                             f"the bibliography and format_references() every key the build cites")
        return self.numbers.setdefault(key, len(self.numbers) + 1)

    def replace(self, cite):
        """The inlines that stand for one Cite node: "[1], [3]" (sorted), prefixes before."""
        numbered = sorted(((self.of(c["citationId"]), i, c) for i, c in enumerate(cite["c"][0])),
                          key=lambda t: (t[0], t[1]))
        out = []
        for n, _, citation in numbered:
            if out:
                out += [{"t": "Str", "c": ","}, {"t": "Space"}]
            if citation["citationPrefix"]:
                out += citation["citationPrefix"] + [{"t": "Space"}]
            out.append(citation_link(n, citation, self.prefix))
        return out

    def walk(self, tree):
        if isinstance(tree, list):
            out = []
            for item in tree:
                if isinstance(item, dict) and item.get("t") == "Cite":
                    # a citation glued to the word before it ("w_j\\cite{x}") stands a space apart, as the
                    # cite package sets it
                    if out and isinstance(out[-1], dict) and out[-1].get("t") not in ("Space", "SoftBreak") \
                            and not (out[-1].get("t") == "Str" and out[-1]["c"].endswith(("(", "[", "\u00a0"))):
                        out.append({"t": "Space"})
                    out.extend(self.replace(item))
                else:
                    out.append(self.walk(item))
            return out
        if isinstance(tree, dict) and "c" in tree:
            return {**tree, "c": self.walk(tree["c"])}
        return tree


def number(blocks_, formatted, prefix="ref-"):
    """(blocks with each Cite node replaced by its numbered links, refs): numbers in order of
    first citation; refs = [{"n", "key", "html", "latex", "text"}] in order of n.  The input
    is not changed.  `prefix` makes the anchors unique where several terms share a document."""
    numbering = Numbering(formatted, prefix)
    out = numbering.walk(blocks_)
    refs = [{"n": n, "key": key, **formatted[key]} for key, n in numbering.numbers.items()]
    return out, refs


# --- the one citeproc run ------------------------------------------------------------

class PandocFailed(RuntimeError):
    pass


def run_pandoc(args, text, cwd):
    """pandoc with `text` on stdin in `cwd`: (stdout, stderr); PandocFailed with its message."""
    run = subprocess.run([pandoc(), *args], input=text.encode("utf-8"), capture_output=True, cwd=cwd,
                         env=dict(os.environ, LC_ALL="C.UTF-8"), check=False)
    stderr = run.stderr.decode("utf-8", "replace").strip()
    if run.returncode != 0:
        raise PandocFailed(stderr)
    return run.stdout.decode("utf-8"), stderr


def unreadable(message, cut_text, text, path):
    """pandoc's complaint about the cut .bibtex told at the record of the real file it is in."""
    detail = " ".join(message.split())
    at = re.search(r"\(line (\d+), column \d+\):? *", detail)
    if at:
        offset = sum(len(line) for line in cut_text.splitlines(True)[:int(at.group(1)) - 1])
        inside = [(key, start) for _, key, start, end in blocks(cut_text) if start <= offset < end]
        starts = {key: start for _, key, start, _ in reversed(blocks(text)) if key}
        if inside and inside[0][0] in starts:
            key, start = inside[0]
            # The cut adds braces, never lines: a record's lines are the file's, shifted.
            line = line_at(text, starts[key]) + int(at.group(1)) - line_at(cut_text, start)
            return (f"{path}:{line}: record '{key}': pandoc cannot read it ({detail[at.end():]}); "
                    f"fix the record's syntax")
    return f"{path}: pandoc cannot read the cited records: {detail}"


def composed(text):
    """Text in composed Unicode (NFC), so that pdflatex's utf8 input knows its letters.  BibTeX's
    {\\'\\i} reaches pandoc's output as a dotless i and a combining accent, which has no composed
    form: the accent goes back on a dotted i first (Muller2003 of the real bibliography)."""
    dotted = DOTLESS_ACCENT.sub(lambda m: DOTTED[m.group(1)] + m.group(2), text.strip())
    return unicodedata.normalize("NFC", dotted)


def format_references(keys, bib_path, csl_path):
    """{key: {"html", "latex", "text"}} for every key, in one pandoc citeproc run: each entry as
    the style writes it, without its "[n]" label (html: MathML math; latex: for hyperref)."""
    keys = sorted(set(keys))
    if not keys:
        return {}
    bib_path = Path(bib_path)
    original = bib_path.read_text(encoding="utf-8")
    text, missing = cut(original, keys, bib_path)
    if missing:
        raise EntryError(f"{bib_path}: no record {', '.join(repr(k) for k in missing)}; "
                         f"check() the cited keys first, then add the records or fix the keys")
    nocite = ", ".join(f"@{{{key}}}" for key in keys)
    with tempfile.TemporaryDirectory() as work:
        # .bibtex, not .bib: pandoc then reads BibTeX's fields as IEEEtran does, not BibLaTeX's.
        Path(work, "cited.bibtex").write_text(text, encoding="utf-8")
        Path(work, "entries.lua").write_text(WRITER, encoding="utf-8")
        try:
            out, stderr = run_pandoc(["-f", "markdown", "--citeproc", "--csl", str(Path(csl_path).resolve()),
                                      "--bibliography", "cited.bibtex", "-t", "entries.lua"],
                                     f"---\nnocite: |\n  {nocite}\n---\n", work)
        except PandocFailed as err:
            raise EntryError(unreadable(str(err), text, original, bib_path)) from None
    found = json.loads(out)
    lost = [key for key in keys if key not in found]
    if lost:
        raise EntryError(f"{bib_path}: citeproc wrote no entry for {', '.join(repr(k) for k in lost)}"
                         f" ({stderr or 'no message'}); fix the record")
    return {key: {form: composed(found[key][form]) for form in ("html", "latex", "text")} for key in keys}


# --- the reference lists -------------------------------------------------------------

def references_html(refs, prefix="ref-"):
    """A term's reference list as HTML: one paragraph a record, "[n]" first, id <prefix><n>."""
    if not refs:
        return ""
    items = "".join(f'<p id="{prefix}{r["n"]}"><span class="reference-label">[{r["n"]}]</span> {r["html"]}</p>\n'
                    for r in refs)
    return f'<div class="references">\n{items}</div>\n'


def latex_item(ref, prefix):
    anchor = f"{prefix}{ref['n']}"
    # the target a line above the item, out of the way (a viewer shows the line it marks): LaTeX's own
    # \\raisebox, as the list goes into any document that loads hyperref
    raised = f"\\raisebox{{\\baselineskip}}[0pt][0pt]{{\\hypertarget{{{anchor}}}{{}}}}"
    return f"\\item[{{\\phantomsection\\label{{{anchor}}}{raised}[{ref['n']}]}}] {ref['latex']}\n"


def references_latex(refs, prefix="ref-"):
    """A term's reference list as LaTeX (hyperref loaded): a list labelled "[n]", label width set
    by the widest number.  Each label is both \\label{<prefix><n>}, which pandoc's LaTeX writer
    links a citation to (\\hyperref[ref-1]{[1]}: a second pdflatex pass resolves it), and
    \\hypertarget{<prefix><n>} a line above it, for a hand-written \\hyperlink."""
    if not refs:
        return ""
    widest = "9" * len(str(max(r["n"] for r in refs)))
    head = (f"\\begin{{list}}{{}}{{\\settowidth{{\\labelwidth}}{{[{widest}]}}"
            "\\setlength{\\leftmargin}{\\labelwidth}\\addtolength{\\leftmargin}{\\labelsep}}\n")
    items = "".join(latex_item(r, prefix) for r in refs)
    return head + items + "\\end{list}\n"


def references_text(refs):
    """A term's reference list as plain text, one "[n] entry" a line."""
    return "".join(f"[{r['n']}] {r['text']}\n" for r in refs)
