"""Text, where a site's file holds text and not markup: <title>, <meta name="description">,
terms.json, llms.txt, the search's result lines, the Markdown pages' headers.  A formula there
is the characters it shows, never its TeX: "$f: \\mathbb{R}^{d} \\rightarrow \\mathbb{R}$" is
"f : ℝᵈ → ℝ".

    texts({key: [pandoc block, ...]})        # {key: one line of text}: two pandoc runs per batch
    formulas(["\\frac{a}{b}", ...])          # {tex: text}: one pandoc run
    sources({key: (source, "latex"|"markdown")}, latex_macros)   # a name's or a form's source as text

Each formula is converted once, here (`formulas`): pandoc writes it as MathML (texmath, as the
pages show it), and `mathml_text` reads the MathML by a table: scripts as Unicode super- and
subscripts where every character has one (x², ℝᵈ, x⁽ⁱ⁾, wₖ), else "^(...)"/"_(...)"; a fraction
"a/b", a root "√x", an accent as the combining character (ŷ, x̄).  pandoc's own plain writer
leaves a formula texmath has no plain text for (\\frac, \\sqrt) as its TeX, so it only writes
the text around the formulas, each formula already replaced by its characters."""
import json
import re
import unicodedata
import xml.etree.ElementTree as ET

from glossary import documents, prose, texprose

# Unicode's superscript and subscript characters (the ones every common font has).
SUPERSCRIPT = dict(zip("0123456789+−-=()abcdefghijklmnoprstuvwxyzABDEGHIJKLMNOPRTUVWβγδθφχ′*ᵀ",
                       "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂᵝᵞᵟᶿᵠᵡ′*ᵀ"))
SUBSCRIPT = dict(zip("0123456789+−-=()aehijklmnoprstuvxβγρφχ",
                     "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓᵦᵧᵨᵩᵪ"))
# An accent over a letter, as the combining character that puts it there.
ACCENTS = {"^": "\u0302", "ˆ": "\u0302", "\u0302": "\u0302", "~": "\u0303", "˜": "\u0303", "\u0303": "\u0303",
           "¯": "\u0304", "\u0304": "\u0304", "‾": "\u0304", "\u0305": "\u0305", "→": "\u20d7", "⃗": "\u20d7",
           "˙": "\u0307", "\u0307": "\u0307", "¨": "\u0308", "\u0308": "\u0308", "ˇ": "\u030c", "\u030c": "\u030c"}
BRACES = {"⏞", "⏟", "︷", "︸"}          # over- and underbraces: the text under them is what counts
# Operators written with a space on each side (relations, arrows, binary operators).
SPACED = set("=≠<>≤≥≈≡∼≃≅∝→←↦⇒⇔⟶⟵∈∉∋⊂⊃⊆⊇⊊+−±×⋅∪∩⊗⊕∘∣≜≔") | {":=", "≐"}
AFTER = {",": ", ", ":": ": ", ";": "; "}      # punctuation followed by a space
LARGE = set("∑∏∐∫∬∮⋃⋂⨁⨂")                      # a large operator: a space before its operand
INVISIBLE = dict.fromkeys(map(ord, "\u2061\u2062\u2063\u2064\u200b"))
# texmath writes \setminus as a backslash, which reads as TeX in text: the set-minus character.
INVISIBLE[ord("\\")] = "\u2216"
MARK, MARK_LINE = prose.PIECE, prose.PIECE_LINE     # a paragraph between two pieces, as the reader's
MATHML = "{http://www.w3.org/1998/Math/MathML}"


# --- one formula: MathML as text -----------------------------------------------------------

def mathml_text(mathml):
    """The characters a MathML formula shows, on one line (see the module's docstring)."""
    root = ET.fromstring(mathml)
    return unicodedata.normalize("NFC", " ".join(_text(root).translate(INVISIBLE).split()))


def _tag(el):
    return el.tag[len(MATHML):] if el.tag.startswith(MATHML) else el.tag


def _script(text, table, mark):
    """`text` raised or lowered: in Unicode's script characters when each has one, else ^(...)."""
    text = "".join(text.split())
    if not text:
        return ""
    if all(c in table for c in text):
        return "".join(table[c] for c in text)
    return f"{mark}{text}" if len(text) == 1 or (text[0], text[-1]) == ("(", ")") else f"{mark}({text})"


def _grouped(text):
    """A fraction's part: as it is when it is one symbol or number, else in parentheses."""
    text = text.strip()
    return text if re.fullmatch(r"[\w.′]+", text) or (text[:1] + text[-1:]) in ("()", "[]", "{}") else f"({text})"


def _text(el):
    tag, kids = _tag(el), list(el)
    if tag in ("annotation", "annotation-xml", "mphantom", "none", "mprescripts"):
        return ""
    if tag == "mspace":
        return "" if (el.get("width") or "").startswith("-") else " "
    if tag in ("mi", "mn", "mtext", "ms"):
        return el.text or ""
    if tag == "mo":
        op = (el.text or "").strip()
        return f" {op} " if op in SPACED else AFTER.get(op, op)
    parts = [_text(k) for k in kids]
    if tag in ("msup", "msub", "msubsup") and parts:
        base = parts[0]
        if tag in ("msub", "msubsup") and len(parts) > 1:
            base += _script(parts[1], SUBSCRIPT, "_")
        if tag != "msub" and len(parts) > 1:
            base += _script(parts[-1], SUPERSCRIPT, "^")
        return base + (" " if parts[0].strip() in LARGE else "")
    if tag in ("munder", "mover", "munderover") and parts:
        base = parts[0]
        under = parts[1] if tag != "mover" and len(parts) > 1 else ""
        over = parts[-1] if tag != "munder" and len(parts) > 1 else ""
        if over.strip() in ACCENTS:
            base, over = base.strip() + ACCENTS[over.strip()], ""
        under, over = ("" if x.strip() in BRACES else x for x in (under, over))
        return base + (_script(under, SUBSCRIPT, "_") if under.strip() else "") + \
            (_script(over, SUPERSCRIPT, "^") if over.strip() else "") + (" " if base.strip() in LARGE else "")
    if tag == "mfrac" and len(parts) == 2:
        return f"{_grouped(parts[0])}/{_grouped(parts[1])}"
    if tag == "msqrt":
        return "√" + _grouped("".join(parts))
    if tag == "mroot" and len(parts) == 2:
        return {"3": "∛", "4": "∜"}.get(parts[1].strip(), _script(parts[1], SUPERSCRIPT, "^") + "√") + \
            _grouped(parts[0])
    if tag == "mtable":
        return "; ".join(parts)
    if tag == "mtr":
        return ", ".join(p.strip() for p in parts)
    return "".join(parts)


# --- formulas, many in one pandoc run -----------------------------------------------------------

def formulas(texs, display=()):
    """{tex: its text} for every formula (TeX as pandoc's Math holds it, macros expanded), from one
    pandoc run that writes them as MathML; `display`: those set as display formulas."""
    order = sorted(set(texs))
    if not order:
        return {}
    blocks = []
    for i, tex in enumerate(order):
        kind = "DisplayMath" if tex in display else "InlineMath"
        blocks += [prose.node("Para", [prose.node("Str", MARK.format(i))]),
                   prose.node("Para", [prose.node("Math", [{"t": kind}, tex])])]
    doc = {"pandoc-api-version": _api(), "meta": {}, "blocks": blocks}
    out = prose.run_pandoc(["-f", "json", "-t", "html5", "--mathml", "--wrap=none"], json.dumps(doc))
    pieces = MARK_LINE.split(out.replace("<p>", "\n").replace("</p>", "\n"))
    found = {}
    for n, piece in zip(pieces[1::2], pieces[2::2]):
        tex, piece = order[int(n)], piece.strip()
        math = re.search(r"<math\b.*</math>", piece, re.S)
        try:
            found[tex] = mathml_text(math.group(0)) if math else unmarked(tex)
        except ET.ParseError:      # not XML after all: the formula's TeX without its commands
            found[tex] = unmarked(tex)
    return found


def unmarked(tex):
    """A formula texmath cannot convert (an error on the page): its TeX, each command's name a word."""
    return " ".join(re.sub(r"\\([A-Za-z]+)\*?|[{}\\$_^&]", r" \1", tex).split())


def _api():
    return texprose.API_VERSION


# --- whole pieces of text ------------------------------------------------------------------------

def _math_of(value, found, display):
    if isinstance(value, dict):
        if value.get("t") == "Math":
            found.append(value["c"][1])
            if value["c"][0]["t"] == "DisplayMath":
                display.add(value["c"][1])
        for v in value.values():
            _math_of(v, found, display)
    elif isinstance(value, list):
        for v in value:
            _math_of(v, found, display)


def _replaced(value, text):
    """The AST with each formula as its text, and no notes (the plain writer puts them last)."""
    if isinstance(value, list):
        return [_replaced(v, text) for v in value if not (isinstance(v, dict) and v.get("t") == "Note")]
    if isinstance(value, dict):
        if value.get("t") == "Math":
            return prose.node("Str", text[value["c"][1]])
        return {k: _replaced(v, text) for k, v in value.items()}
    return value


def texts(pieces):
    """{key: one line of text} of {key: [pandoc blocks]}: the formulas as their characters
    (`formulas`, one pandoc run), the rest by pandoc's plain writer (one run for all)."""
    keys = list(pieces)
    if not keys:
        return {}
    found, display = [], set()
    _math_of(list(pieces.values()), found, display)
    text = formulas(found, display)
    blocks = []
    for i, key in enumerate(keys):
        blocks += [prose.node("Para", [prose.node("Str", MARK.format(i))]), *_replaced(pieces[key], text)]
    doc = {"pandoc-api-version": _api(), "meta": {}, "blocks": blocks}
    out = prose.run_pandoc(["-f", "json", "-t", "plain", "--wrap=none"], json.dumps(doc))
    parts = MARK_LINE.split(out)
    return {keys[int(n)]: " ".join(piece.split()) for n, piece in zip(parts[1::2], parts[2::2])}


def sources(items, latex_macros=""):
    """{key: text} of {key: (source text, the reader of its entry's prose)}: a name's or a form's
    source, read as its entries' prose is (glossary.documents.parse_texts), written by `texts`.  A source
    without markup (nor TeX's or smart punctuation's dashes and quotes, -- and '') is its own text."""
    plain = {k: s for k, (s, reader) in items.items() if not re.search(r"[\\$^_{}~*`\[<&]|--|''", s)}
    done = texts(documents.parse_texts({k: v for k, v in items.items() if k not in plain}, latex_macros))
    return {k: plain[k] if k in plain else done[k] for k in items}
