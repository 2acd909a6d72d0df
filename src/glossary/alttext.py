"""The alt text of a figure's pictures and photos: its caption, its formulas kept as text.

A picture (a compiled tikzpicture) or a photo (\\includegraphics) of a LaTeX dictionary has no
description of its own; its figure's caption says what it shows.  The page's <img alt> and the
Markdown's image text are that caption as text, each formula as the characters it shows
(glossary.plaintext: f(w), w̄), never a gap ("toward the minimizer of ." was what dropping the
formulas left).  "Figure N." and citations are not part of it; a subfigure's picture takes its own
caption, and so does a picture with a \\caption* of its own.  Two pandoc processes for a batch.
"""
import json

from glossary import plaintext, prose


def images(figure, found):
    """The images of a figure (not those of the figures inside it) without alt text: [(image, caption)]."""
    _, (_, long), body = figure["c"]
    caption = [x for b in long if b["t"] in ("Plain", "Para") for x in b["c"]]

    def walk(value, caption):
        if isinstance(value, list):
            for v in value:
                walk(v, caption)
        elif isinstance(value, dict):
            if value.get("t") == "Figure":
                images(value, found)
            elif value.get("t") == "Image" and not value["c"][1]:
                found.append((value, caption))
            elif value.get("t") == "Div":
                # a picture of a row with its own \caption* (a Div of class subcaption beside it) takes that
                sub = [b for b in value["c"][1] if b["t"] == "Div" and "subcaption" in b["c"][0][1]]
                walk(value["c"][1], [x for b in sub[0]["c"][1] for x in b["c"]] if sub else caption)
            else:
                walk(value.get("c"), caption)
    walk(body, caption)
    return found


def figures(value, found):
    if isinstance(value, list):
        for v in value:
            figures(v, found)
    elif isinstance(value, dict):
        if value.get("t") == "Figure":
            images(value, found)
        else:
            figures(value.get("c"), found)
    return found


def with_alt(asts, plain_caption):
    """A copy of the entries' blocks ({slug: blocks}) whose figure images carry their caption as
    alt text; plain_caption(inlines) gives the caption's inlines as a summary shows them (no
    "Figure N.", citations or links)."""
    asts = json.loads(json.dumps(asts))
    found = [pair for blocks in asts.values() for pair in figures(blocks, [])]
    if not found:
        return asts
    # The caption as text, its formulas as the characters they show (glossary.plaintext).
    texts = list(plaintext.texts({i: [prose.node("Plain", plain_caption(caption))]
                                  for i, (_, caption) in enumerate(found)}).values())
    for (image, _), alt in zip(found, texts):
        image["c"][1] = [prose.node("Str", alt)] if alt else []
    return asts

