"""Sentences and summaries of a pandoc AST: an entry's first sentence (its summary when the source
gives none), the sentences that refer to other entries ("Referenced by"), and inlines without their
citations and links (a summary, a quote, a caption's alt text).  glossary.render's prose pass uses
them."""
import re

from glossary import prose
from glossary.prose import ABBREVIATIONS

# What is left of a parenthesis that held citations alone once they are out: "(see )", "(e.g., see or )"
# (the audit's cite check looks for it too, in JavaScript: glossary.auditpage.COLLECT).
EMPTIED = re.compile(r"\((?:\s|,|;|\b(?:see|also|or|and|for|example|details|more)\b|e\.g\.|i\.e\.|cf\.)*\)", re.I)
NBSP = "\u00a0"


def first_sentence(blocks):
    """The inlines of the first sentence of the first paragraph: an entry's summary when its source
    gives none (a sentence ends at '.', '!' or '?' before a space, abbreviations aside)."""
    para = next((b["c"] for b in blocks if b["t"] in ("Para", "Plain")), [])
    for i, x in enumerate(para):
        if (x["t"] == "Str" and x["c"].endswith((".", "!", "?")) and not x["c"].endswith(ABBREVIATIONS)
                and (i + 1 == len(para) or para[i + 1]["t"] in ("Space", "SoftBreak"))):
            return para[:i + 1]
    return para


def is_citation(x):
    """A citation as a reader writes it (Cite) or as glossary.citations numbered it (a Link)."""
    return x["t"] == "Cite" or (x["t"] == "Link" and "citation" in x["c"][0][1])


def without_citations(inlines, keep_refs=False):
    """A summary without its citations (a preview or an index line has no references to point to)
    and without links (it stands beside links of its own); with keep_refs, the links to labels (named
    by their entries: glossary.labelrefs.Quote) and a formula's links stay, for a quote that only term
    pages show ("Referenced by")."""
    out, after_citation = [], False
    for x in inlines:
        if is_citation(x):
            after_citation = True
            # the tie before it (information~\cite{x}.) goes with it
            if out and out[-1]["t"] == "Str" and out[-1]["c"].endswith(NBSP):
                out[-1] = prose.node("Str", out[-1]["c"].rstrip(NBSP))
                if not out[-1]["c"]:
                    out.pop()
            continue
        if after_citation and x["t"] == "Str" and x["c"] in (",", ";"):
            continue        # the comma between two citations
        if x["t"] not in ("Space", "SoftBreak"):
            after_citation = False
        if x["t"] == "Span" and prose.PRINT_ONLY in x["c"][0][1]:
            continue        # the book indexes the word where its own entry has it, not in a quote
        if keep_refs and x["t"] in ("Link", "Span") and {"ref", "math-xref"} & set(x["c"][0][1]):
            out.append(x)
            continue
        out += without_citations(x["c"][1], keep_refs) if x["t"] == "Link" else [inside_without_citations(x, keep_refs)]
    out = without_emptied_parentheses(out)
    return [x for i, x in enumerate(out) if not (x["t"] in ("Space", "SoftBreak") and i + 1 < len(out)
                                                 and out[i + 1]["t"] in ("Space", "SoftBreak")
                                                 or x["t"] in ("Space", "SoftBreak") and i + 1 < len(out)
                                                 and out[i + 1]["t"] == "Str" and out[i + 1]["c"][:1] in ",.;)")]


def without_emptied_parentheses(out):
    """The inlines without a parenthesis whose citations were its content ("(see \\cite{a})" is "(see )"
    once they are out): it goes, with the space before it; what follows its ")" stays."""
    i = 0
    while i < len(out):
        x = out[i]
        if x["t"] == "Str" and x["c"].startswith("("):
            j, text = i, ""
            while j < len(out) and out[j]["t"] in ("Str", "Space", "SoftBreak"):
                text += out[j]["c"] if out[j]["t"] == "Str" else " "
                if ")" in text:
                    break
                j += 1
            whole = EMPTIED.match(text)
            if j < len(out) and whole and ")" in text:
                rest = text[whole.end():]
                start = i - 1 if i and out[i - 1]["t"] in ("Space", "SoftBreak") else i
                out[start:j + 1] = [prose.node("Str", rest)] if rest else []
                i = start
                continue
        i += 1
    return out


def inside_without_citations(x, keep_refs=False):
    """An inline with the inlines inside it (emphasis, quotes, spans) without citations and links."""
    if x["t"] in ("Emph", "Strong", "Strikeout", "Superscript", "Subscript", "SmallCaps", "Underline"):
        return prose.node(x["t"], without_citations(x["c"], keep_refs))
    if x["t"] == "Span" and "math-xref" in x["c"][0][1]:
        # a formula's references link inside its MathML, and "#label" is its own page's: none here
        return prose.node("Span", [["", [], []], without_citations(x["c"][1])])
    if x["t"] in ("Quoted", "Span"):
        return prose.node(x["t"], [x["c"][0], without_citations(x["c"][1], keep_refs)])
    return x


def caption_text(inlines):
    """A caption as its pictures' alt text says it: no "Figure N.", citations or links."""
    return without_citations([x for x in inlines if not (x["t"] == "Span" and "figure-label" in x["c"][0][1])])


def referring_sentences(blocks, slug):
    """{slug of another entry: the inlines of the first sentence of these blocks that links to it}:
    what its "Referenced by" list quotes of this entry."""
    found = {}
    for inlines in paragraphs(blocks):
        for sentence in split_sentences(inlines):
            for target in xref_targets(sentence):
                if target != slug:
                    found.setdefault(target, sentence)
    return found


def paragraphs(value):
    """The inlines of every Para and Plain block, at any depth (lists, divs, figures), in order."""
    if isinstance(value, list):
        for v in value:
            yield from paragraphs(v)
    elif isinstance(value, dict):
        if value.get("t") in ("Para", "Plain"):
            yield value["c"]
        elif value.get("t") not in ("Math", "Str", "Code", "RawBlock", "RawInline"):
            yield from paragraphs(value.get("c"))


def split_sentences(inlines):
    """The paragraph's sentences (first_sentence's rule: '.', '!' or '?' before a space)."""
    out, start = [], 0
    for i, x in enumerate(inlines):
        if (x["t"] == "Str" and x["c"].endswith((".", "!", "?")) and not x["c"].endswith(ABBREVIATIONS)
                and (i + 1 == len(inlines) or inlines[i + 1]["t"] in ("Space", "SoftBreak"))):
            out.append(inlines[start:i + 1])
            start = i + 2
    rest = inlines[start:]
    return out + ([rest] if rest else [])


def xref_targets(value):
    """The entries the cross-reference links in `value` point to, in order."""
    if isinstance(value, list):
        return [t for v in value for t in xref_targets(v)]
    if isinstance(value, dict):
        if value.get("t") == "Link" and "xref" in value["c"][0][1]:
            return [value["c"][2][0]]
        return xref_targets(value.get("c"))
    return []
