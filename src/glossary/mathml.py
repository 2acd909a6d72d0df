"""The MathML pandoc writes (texmath's), set as TeX prints it: a post-process of the HTML of every
formula (glossary.render calls tidy() on each piece of HTML pandoc writes).

- Bold letters: texmath writes \\mathbf{x} as bold italic (𝒙, mathvariant="bold-italic"), like
  \\boldsymbol{x}; TeX prints \\mathbf upright (𝐱), \\boldsymbol and \\bm italic. The formula's TeX (its
  annotation) tells which Latin letters \\boldsymbol or \\bm made bold; every other bold italic Latin
  letter becomes Unicode's bold upright one (browsers' MathML Core ignores mathvariant="bold": the
  character itself carries the style). Greek letters keep theirs (TeX's \\mathbf leaves them alone).
- \\left( … \\right) around what is no taller than a line (no root, limits, matrix; no fraction in a
  display): TeX sets the plain delimiters, Chromium a stretched glyph in a box twice as wide (a gap
  each side); they become stretchy="false". TeX's \\left…\\right group is an inner atom: a thin space separates it from
  an ordinary atom beside it, as it does an operator name (\\log x, \\max_i a_i), where MathML's
  invisible function application (U+2061) has none. Both get an <mspace width="0.1667em"/> there,
  except inside a sub- or superscript (TeX drops thin spaces in script style); a scripted group
  (\\left\\lVert x \\right\\rVert_2^2) is spaced outside its script element, whose children stay base
  and scripts.
- A prime (x', texmath's msup with ′ as its script) follows its letter in the line: the glyph is
  drawn raised already.
- A norm's bars (\\lVert, \\rVert, \\| as fences) touch what they enclose, as TeX's delimiters do:
  Chromium would space them as the relation U+2225, 5/18 em each side.
- A display of several lines (align, gather: texmath's mtable as the whole formula) is in display
  style, as TeX sets each line; MathML Core sets a table's cells compact (inline-sized fractions,
  limits beside), so it gets displaystyle="true".  A matrix inside a formula stays compact, as in TeX.
- \\mathop{\\mathrm{arg\\,min}}_{w} in a display sets its limits below, as TeX does; texmath writes a
  subscript (an msub, as for \\log_2, whose subscript TeX keeps beside), so an operator named by
  \\mathop in the formula's TeX becomes an munder there.
- A delimiter of a fixed size (\\big( … \\bigr), \\Bigg\\{: texmath's stretchy mo with minsize = maxsize, a
  percentage) is the plain glyph at that size: Chromium draws a stretchy one from its font's size
  variants in a box up to twice as wide (a gap each side), and stretches none that is the base of a
  script (\\big)^T stayed small).  Scaled from the
  baseline, the glyph is raised off the math axis, on which TeX centres it: an mpadded lowers it back
  by a quarter em per unit of scale (the axis of TeX's fonts).
A formula is left as it is if its markup is not what pandoc writes (an unclosed tag, a stray one)."""
import html
import json
import re

MATH = re.compile(r"<math\b[^>]*>.*?</math>", re.S)
TAG = re.compile(r"(<[^>]+>)")
NAME = re.compile(r"</?\s*([\w:-]+)")
ANNOTATION = re.compile(r'<annotation encoding="application/x-tex">(.*?)</annotation>', re.S)
# \boldsymbol, \bm, \mathbfit: bold italic in print; the argument a group, a command or one character.
ARGUMENT = r"(?![A-Za-z])\s*(\{(?:[^{}]|\{[^{}]*\})*\}|\\[A-Za-z]+|.)"
BOLD_ITALIC_TEX = re.compile(r"\\(?:boldsymbol|bm|mathbfit|symbfit)" + ARGUMENT)
UPRIGHT_TEX = re.compile(r"\\(?:mathbf|symbf|mathbfup)" + ARGUMENT)
COMMAND = re.compile(r"\\[A-Za-z]+")
# Unicode's mathematical bold italic Latin letters (A-Z, a-z) and the bold upright ones.
BOLD_ITALIC_A, BOLD_A = 0x1D468, 0x1D400
SCRIPTED = {"msub", "msup", "msubsup", "munder", "mover", "munderover", "mmultiscripts"}
TALL = {"mfrac", "munder", "mover", "munderover", "mtable", "msqrt", "mroot", "mmultiscripts"}
APPLY = ("&#8289;", "\u2061", "&#x2061;")
PRIMES = ("\u2032", "\u2033", "\u2034", "\u2057")
THIN = '<mspace width="0.1667em"></mspace>'
# \lVert x \rVert, \| x \|: texmath's fences of U+2225 (or U+2016), which Chromium's operator dictionary
# spaces as the relation "parallel to" (5/18 em each side); TeX sets a delimiter without space.
NORM_BARS = {"\u2225", "\u2016", "&#8741;", "&#8214;", "&#x2225;", "&#x2016;"}


class Node:
    """An element (its start tag as written, its children) or a piece of text (tag None)."""

    def __init__(self, tag=None, start="", text="", parent=None):
        self.tag, self.start, self.text, self.parent, self.children = tag, start, text, parent, []

    def elements(self):
        return [c for c in self.children if c.tag]

    def attr(self, name):
        m = re.search(rf'\b{name}="([^"]*)"', self.start)
        return m.group(1) if m else None

    def content(self):
        return "".join(c.text if c.tag is None else c.html() for c in self.children)

    def html(self):
        if self.tag is None:
            return self.text
        return self.start + self.content() + (f"</{self.tag}>" if not self.start.endswith("/>") else "")


def parse(markup):
    """The tree of a formula's markup, or None where it is not well formed."""
    root = Node("#root")
    here = root
    for piece in TAG.split(markup):
        if not piece:
            continue
        if not piece.startswith("<"):
            here.children.append(Node(text=piece, parent=here))
            continue
        name = NAME.match(piece)
        if not name:
            return None
        if piece.startswith("</"):
            if here.tag != name.group(1):
                return None
            here = here.parent
        else:
            node = Node(name.group(1), piece, parent=here)
            here.children.append(node)
            if not piece.endswith("/>"):
                here = node
    return root if here is root else None


def walk(node):
    yield node
    for c in node.elements():
        yield from walk(c)


# An inline formula with the punctuation that touches it ("(x)", "x."): Chromium lays a formula out as
# one atomic box, beside which a line may break, so a stop would start the next line.
# (the audit's stops check reads STOP_CHARS too: glossary.auditpage.STRANDED)
STOP_CHARS = ".,;:!?)\\]"
STOPS = re.compile(r'(?<!<span class="math-stops">)(?<!<span class="math-stops">\()'      # not twice
                   r'(?<!<span class="math-before">\(</span>)'
                   r'(\(?)(<math\b[^>]*display="inline"[^>]*>.*?</math>)([' + STOP_CHARS + ']*)', re.S)


def tidy(markup):
    """The HTML with each of its formulas set as TeX prints it (see the module's docstring), an inline
    one kept on a line with the punctuation that touches it (a span, style.css's .math-stops)."""
    return STOPS.sub(with_stops, MATH.sub(lambda m: formula(m.group(0)), markup))


def with_stops(m):
    """The formula and its punctuation in one span; a "(" before it in a span of its own, which style.css
    paints above the formula's padding (it holds the glyphs' overhang, and its scroll covers the page's
    colour, over the "(")."""
    before, math, after = m.groups()
    before = f'<span class="math-before">{before}</span>' if before else ""
    return f'<span class="math-stops">{before}{math}{after}</span>' if before or after else math


def formula(markup):
    root = parse(markup)
    if root is None:
        return markup
    tex = ANNOTATION.search(markup)
    upright_bold(root, html.unescape(tex.group(1)) if tex else "")
    display = 'display="block"' in markup[:markup.index(">")]
    tall = TALL if display else TALL - {"mfrac"}
    if display:
        lines_in_display_style(root)
        limits_below(root, html.unescape(tex.group(1)) if tex else "")
    for node in list(walk(root)):
        if node.tag == "mrow" and inner_fences(node, tall):
            spaced(scripted_base(node))
        elif node.tag == "mrow" and applies_function(node):
            spaced(scripted_base(node))
        elif node.tag == "msup" and primed(node):
            node.tag, node.start = "mrow", "<mrow>"
        elif node.tag == "mo" and node.attr("form") in ("prefix", "postfix") and node.content() in NORM_BARS \
                and node.attr("lspace") is None:
            node.start = node.start[:-1] + ' lspace="0" rspace="0">'
    for node in list(walk(root)):
        if sized_delimiter(node):
            plain_at_size(node)
    return root.content()


SIZE = re.compile(r"(\d+(?:\.\d+)?)%")


def sized_delimiter(node):
    """An mo of \\big( and its kin: a fence of a fixed size (minsize = maxsize, a percentage)."""
    size = node.attr("minsize") if node.tag == "mo" else None
    return (size is not None and size == node.attr("maxsize") and SIZE.fullmatch(size) is not None
            and node.attr("form") in ("prefix", "postfix"))


def plain_at_size(node):
    """The sized delimiter's glyph unstretched at its size, lowered onto the axis (the module's docstring)."""
    scale = float(SIZE.fullmatch(node.attr("minsize")).group(1)) / 100
    glyph = Node("mo", f'<mo stretchy="false" form="{node.attr("form")}" lspace="0" rspace="0" '
                       f'style="font-size: {scale * 100:g}%">', parent=node)
    glyph.children = node.children
    for child in glyph.children:
        child.parent = glyph
    node.tag, node.start, node.children = "mpadded", f'<mpadded voffset="{-(scale - 1) / 4:.4g}em">', [glyph]


# \mathop{\mathrm{arg\,min}}, \mathop{\rm min}, \mathop{\operatorname{...}}: the operator's name.
MATHOP = re.compile(r"\\mathop\s*\{\s*(?:\\(?:mathrm|operatorname|text)\s*\{([^{}]*)\}|\\rm\s+([^{}]*))\s*\}")
# TeX's spaces inside such a name (arg\,min), which the MathML writes as one space or none.
TEX_SPACE = re.compile(r"\\[,;:! ]|~|\s")


def lines_table(node):
    """Whether node is the table that is the whole formula (texmath's align, gather), not a matrix in it."""
    return node.tag == "mtable" and node.parent is not None and node.parent.tag in ("semantics", "math")


def lines_in_display_style(root):
    """Displayed lines (a formula that is one mtable) in display style."""
    for table in walk(root):
        if lines_table(table) and table.attr("displaystyle") is None:
            table.start = table.start[:-1] + ' displaystyle="true">'


def limits_below(root, tex):
    """An msub whose base is an operator \\mathop names in `tex` becomes an munder, outside scripts and
    matrices."""
    names = {TEX_SPACE.sub("", a or b) for a, b in MATHOP.findall(tex)}
    if not names:
        return
    for node in list(walk(root)):
        if node.tag != "msub" or in_script(node) or in_matrix(node):
            continue
        base = node.elements()[0] if node.elements() else None
        parts = base.elements() if base is not None and base.tag == "mrow" else []
        if len(parts) == 2 and parts[0].tag == "mi" and parts[1].tag == "mo" and parts[1].content() in APPLY \
                and TEX_SPACE.sub("", html.unescape(parts[0].content())) in names:
            node.tag, node.start = "munder", "<munder>"


def in_matrix(node):
    """Inside a table that is not the whole formula (a matrix, cases): TeX sets its cells in text style."""
    parent = node.parent
    while parent is not None:
        if parent.tag == "mtable" and not lines_table(parent):
            return True
        parent = parent.parent
    return False


def primed(msup):
    """x' as texmath writes it, <msup><mi>x</mi><mo>′</mo></msup>: the prime is a superscript's
    glyph already, which Chromium raises once more as a script, away from its letter."""
    kids = msup.elements()
    return len(kids) == 2 and kids[1].tag == "mo" and kids[1].content() in PRIMES


def letters(pattern, tex):
    return {c for m in pattern.finditer(tex) for c in COMMAND.sub("", m.group(1)) if c.isascii() and c.isalpha()}


def upright_bold(root, tex):
    """Bold italic Latin letters to bold upright, but for those \\boldsymbol or \\bm made bold (a letter
    both made bold upright and bold italic in one formula is set upright, as most are)."""
    italic = letters(BOLD_ITALIC_TEX, tex) - letters(UPRIGHT_TEX, tex)
    for node in walk(root):
        if node.tag != "mi" or node.attr("mathvariant") != "bold-italic":
            continue
        text = node.content()
        plain = [latin(c) for c in text]
        if not all(plain) or any(p in italic for p in plain):
            continue
        node.start = node.start.replace('mathvariant="bold-italic"', 'mathvariant="bold"')
        node.children = [Node(text="".join(chr(ord(c) - BOLD_ITALIC_A + BOLD_A) for c in text), parent=node)]


def latin(c):
    """The ASCII letter of a mathematical bold italic Latin letter, or None."""
    i = ord(c) - BOLD_ITALIC_A
    return chr(ord("A") + i) if 0 <= i < 26 else chr(ord("a") + i - 26) if 26 <= i < 52 else None


def stretchy_fence(node, form):
    return node.tag == "mo" and node.attr("stretchy") == "true" and node.attr("form") == form


def inner_fences(mrow, tall=TALL):
    """A \\left…\\right group whose content is no taller than a line (a fraction in a formula of the
    text, which TeX sets small, is not): its delimiters made plain."""
    kids = mrow.elements()
    if len(kids) < 2 or not stretchy_fence(kids[0], "prefix") or not stretchy_fence(kids[-1], "postfix"):
        return False
    inside = [n for k in kids[1:-1] for n in walk(k)]
    if any(n.tag in tall or stretchy_fence(n, "prefix") for n in inside):
        return False
    for n in [kids[0], kids[-1]] + [n for n in inside if n.tag == "mo" and n.attr("stretchy") == "true"]:
        n.start = n.start.replace('stretchy="true"', 'stretchy="false"')
    return True


def applies_function(mrow):
    """An operator name: <mrow><mi>log</mi><mo>&#8289;</mo></mrow>."""
    kids = mrow.elements()
    return (len(kids) == 2 and kids[0].tag == "mi" and kids[1].tag == "mo"
            and kids[1].content() in APPLY)


def scripted_base(node):
    """The sub- or superscripted element whose base the node is (\\max_i), or the node."""
    while node.parent and node.parent.tag in SCRIPTED and node.parent.elements()[0] is node:
        node = node.parent
    return node


def in_script(node):
    while node.parent:
        if node.parent.tag in SCRIPTED and node.parent.elements()[0] is not node:
            return True
        node = node.parent
    return False


def ordinary(node):
    """Whether TeX would put a thin space between this neighbour and an operator or inner atom: an
    ordinary atom (not an operator, nor a space) or a closing delimiter before it."""
    return node is not None and node.tag not in ("mo", "mspace", "annotation", "annotation-xml")


def spaced(node):
    """Thin spaces between the node and an ordinary neighbour, as TeX sets them."""
    parent = node.parent
    if parent is None or parent.tag == "semantics" or in_script(node):
        return
    siblings = parent.elements()
    i = siblings.index(node)
    before = siblings[i - 1] if i > 0 else None
    after = siblings[i + 1] if i + 1 < len(siblings) else None
    at = parent.children.index(node)
    if ordinary(after):
        parent.children.insert(at + 1, Node("mspace", THIN[:-len("</mspace>")], parent=parent))
    if ordinary(before) or (before is not None and before.tag == "mo" and before.attr("form") == "postfix"):
        parent.children.insert(at, Node("mspace", THIN[:-len("</mspace>")], parent=parent))


# --- a formula's references as links (glossary.texprose's math-xref spans) ---------------------

def link_math(page_html, target="{slug}.html"):
    """The HTML with each formula's references as links: inside every
    <span class="math-xref" data-xrefs='[[target, text], ...]'> (a target a slug, "#label" or
    "slug#label"), the first
    <mtext> text (outside links already made) holding a reference's text gets <a class=... href=...>
    (class "ref" for an equation's label) around it; a slug's address is `target` (a "#label" after
    it kept), a "#label" stays as it is."""
    def span(m):
        inner = m.group(3)
        for slug, text in json.loads(html.unescape(m.group(2))):
            page, anchor, label = slug.partition("#")
            other = ":" in page        # another edition's term (glossary.prose.other_edition)
            page = page.split(":", 1)[1] if other else page
            href = html.escape((target.format(slug=page) if page else "") + anchor + label)
            # a term's class "xref", an equation's "ref", as the prose's links have them
            kind = "ref" if anchor else ("xref-other" if other else "xref")
            inner = link_first(inner, html.escape(text, quote=False), href, kind)
        return m.group(1) + inner + "</span>"
    return re.sub(r'(<span [^>]*class="[^"]*\bmath-xref\b[^"]*"[^>]*data-xrefs="([^"]*)"[^>]*>)(.*?)</span>',
                  span, page_html, flags=re.S)


def link_first(mathml, text, href, kind="xref"):
    """`mathml` with the first occurrence of `text` in an <mtext>, outside an <a>, made a link of
    class `kind`."""
    for m in re.finditer(r"(<mtext[^>]*>)(.*?)(</mtext>)", mathml, re.S):
        parts = re.split(r"(<a [^>]*>.*?</a>)", m.group(2))
        for i, part in enumerate(parts):
            if not part.startswith("<a ") and text in part:
                parts[i] = part.replace(text, f'<a class="{kind}" href="{href}">{text}</a>', 1)
                return mathml[:m.start(2)] + "".join(parts) + mathml[m.end(2):]
    return mathml
