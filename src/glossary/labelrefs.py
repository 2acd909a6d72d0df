"""References to labels as another page shows them: named by the entry that has the label.

A page shows its own equations' and figures' numbers bare ("(1)", "Fig. 2"); any other number is
named by its entry and links to its place there: "(1) of gradient descent".  The prose of an entry
names a reference to another entry's label so (glossary.render.EntryPass); a quote of an entry on
another page ("See also" and the index quote its summary, "Referenced by" one of its sentences)
names its references to its own labels so too (Quote), and shows no equation number or "Figure N."
label of its own.
"""
import json
import re

from glossary import eqnumbers, prose
from glossary.texprose import in_text as inside_text

# A formula in a title ($k$-means), an escaped \$ aside.
TEX_DOLLARS = re.compile(r"(?<!\\)\$(.*?)(?<!\\)\$")


def title_inlines(title):
    """A title as inlines: its words, a $...$ in it as a formula."""
    out = []
    for i, part in enumerate(TEX_DOLLARS.split(title or "")):
        out += [prose.node("Math", [{"t": "InlineMath"}, part])] if i % 2 else prose.words(part)
    return [x for i, x in enumerate(out) if not (x["t"] == "Space" and (i == 0 or i == len(out) - 1))]


def title_text(title):
    """A title as text inside a formula's \\text{}: its $...$ formulas as their TeX's letters."""
    return TEX_DOLLARS.sub(r"\1", title or "").replace("\\", "")


OTHER = "xref-page:"     # the address of another entry's label: "xref-page:<slug>#<label>" (glossary.render.address)


def named_text(shown, slug, titles, words):
    """A number named by its entry inside a formula's \\text{}: "(1) of gradient descent"."""
    return f"{shown} {words.get('of', 'of')} {title_text(titles.get(slug))}"


def named_ref(shown, slug, label, titles, words):
    """A reference to a label of another entry (or, in a quote, of the quoted entry): the number its
    target shows, named by its entry ("(1) of gradient descent"), one link to its place there.  Its
    inlines are the number, then " of " and the title (which `unrepeated` drops where the text names
    the entry already)."""
    content = [prose.node("Str", shown), prose.node("Space"), prose.node("Str", words.get("of", "of")),
               prose.node("Space"), *title_inlines(titles.get(slug, slug))]
    return prose.node("Link", [["", ["ref"], []], content, [f"{OTHER}{slug}#{label}", ""]])


def target(link):
    """(slug, label) of a named reference's Link."""
    slug, _, label = link["c"][2][0][len(OTHER):].partition("#")
    return slug, label


def unrepeated(inlines):
    """The inlines with a named reference's " of <title>" dropped where the prose names its entry right
    before it ("the \\gls{hingeloss} \\eqref{x}") or right after ("\\eqref{x} of \\gls{logloss}")."""
    out = list(inlines)
    for i, x in enumerate(out):
        if not (x["t"] == "Link" and "ref" in x["c"][0][1] and x["c"][2][0].startswith(OTHER)
                and len(x["c"][1]) > 3):
            continue
        slug = target(x)[0]
        before = [y for y in out[max(0, i - 2):i] if y["t"] not in ("Space", "SoftBreak")]
        after = [y for y in out[i + 1:i + 5] if y["t"] not in ("Space", "SoftBreak")][:2]
        named = (before and is_xref(before[-1], slug)
                 or len(after) == 2 and after[0] == x["c"][1][2] and is_xref(after[1], slug))
        if named:
            out[i] = prose.node("Link", [x["c"][0], x["c"][1][:1], x["c"][2]])
    return out


def is_xref(x, slug):
    return x["t"] == "Link" and "xref" in x["c"][0][1] and x["c"][2][0] == slug


def latex_ref(link):
    """A named reference in the print edition: the number a link to the label (the book has it; an
    entry's PDF shows it unlinked), then the words that name the entry."""
    label = target(link)[1]
    number, rest = link["c"][1][:1], link["c"][1][1:]
    return prose.node("Span", [["", [], []], [prose.node("RawInline", ["latex", f"\\hyperref[{label}]{{"]), *number,
                                              prose.node("RawInline", ["latex", "}"]), *rest]])


def in_text(tex, old, new):
    """`tex` with the first `old` that lies inside a \\text{} group (where a reference's number is
    written in a formula) replaced by `new`."""
    at = tex.find(old)
    while at >= 0:
        if inside_text(tex, at):
            return tex[:at] + new + tex[at + len(old):]
        at = tex.find(old, at + 1)
    return tex


def unnumbered(tex):
    """A displayed formula as a quote shows it: its environment starred, without labels (the page it
    is quoted on numbers only its own equations; in print, no number and no label twice)."""
    tex = re.sub(r"\\label\s*\{[^{}]*\}", "", tex)
    return re.sub(r"\\(begin|end)\s*\{(" + "|".join(sorted(eqnumbers.NUMBERED)) + r")\}", r"\\\1{\2*}", tex)


class Quote:
    """Inlines of entry `slug` as another page quotes them ("See also" and the index quote its summary,
    "Referenced by" a sentence): no number of its own shown bare.  A reference to one of its labels
    becomes the number named by the entry, linked to its place there ("(1) of gradient descent"), in
    the prose as in a formula; a quoted display shows no equation numbers nor anchors, a quoted
    caption no "Figure N." label."""

    def __init__(self, slug, context):
        """context: the prose job's ("titles": {slug: title}, "words": the edition's own words)."""
        self.slug, self.titles, self.words = slug, context["titles"], context.get("words", {})

    def walk(self, value):
        if isinstance(value, list):
            return [y for v in value for y in self.item(v)]
        if isinstance(value, dict):
            return {k: self.walk(v) for k, v in value.items()}
        return value

    def item(self, x):
        if not isinstance(x, dict) or "t" not in x:
            return [self.walk(x)]
        t, c = x["t"], x.get("c")
        if t == "Span" and "figure-label" in c[0][1]:
            return []
        if t == "Link" and "ref" in c[0][1] and c[2][0].startswith("#"):
            return [named_ref(prose.stringify(c[1]), self.slug, c[2][0][1:], self.titles, self.words)]
        if t == "Span" and {"equation", "math-xref"} & set(c[0][1]):
            return [self.formula(c)]
        if t == "Math":
            return [prose.node("Math", [c[0], unnumbered(c[1])])]
        return [self.walk(x)]

    def formula(self, c):
        """A formula's Span without its numbers and anchor; its references to the entry's own
        equations named and linked as the prose's are."""
        (_, classes, attrs), content = c
        attrs = dict(attrs)
        links, renamed = [], {}
        for target, text in json.loads(attrs.get("data-xrefs", "[]")):
            if target.startswith("#"):
                renamed[text] = named_text(text, self.slug, self.titles, self.words)
                target, text = f"{self.slug}{target}", renamed[text]
            links.append([target, text])

        def named(tex):
            for old, new in renamed.items():
                tex = in_text(tex, old, new)
            return tex
        content = [prose.node("Math", [x["c"][0], unnumbered(named(x["c"][1]))]) if x["t"] == "Math" else x
                   for x in content]
        if not links:
            return prose.node("Span", [["", [], []], content])
        kept = {"data-xrefs": json.dumps(links, ensure_ascii=False)}
        if "data-latex" in attrs:
            kept["data-latex"] = unnumbered(named(attrs["data-latex"]))
        return prose.node("Span", [["", ["math-xref"], sorted(kept.items())], content])
