"""Strokes a reader can see: a picture drawn for paper may use a pale colour (TikZ's `green`,
`yellow`, `cyan`) whose lines keep less than 3:1 contrast against the white paper, and the same
against the light panel the pages put behind pictures in the dark scheme.  Its SVG for the site
draws each such stroke in the same hue, darkened until it reaches 3:1 (WCAG's non-text contrast);
fills (areas, which the strokes lie on) and the PDFs keep the authors' colours."""
import re

# The version of this rewriting, part of every picture's cache key: a change here recompiles.
VERSION = 1

# pdftocairo's colours: stroke:rgb(0%,100%,0%) in a style, or stroke="rgb(0%,100%,0%)".
STROKE = re.compile(r"(stroke[:=]\"?)rgb\(([\d.]+)%,\s*([\d.]+)%,\s*([\d.]+)%\)")
# Relative luminance at most this keeps 3:1 against white (1.05 / 3 - 0.05 = 0.30) and against the
# dark scheme's panel, #fdfdfb, with a margin for rounding.
MAX_LUMINANCE = 0.28


def linear(channel):
    return channel / 12.92 if channel <= 0.04045 else ((channel + 0.055) / 1.055) ** 2.4


def encoded(channel):
    return channel * 12.92 if channel <= 0.0031308 else 1.055 * channel ** (1 / 2.4) - 0.055


def luminance(rgb):
    r, g, b = (linear(c) for c in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def darkened(rgb):
    """The colour of the same hue (its linear channels scaled alike) at MAX_LUMINANCE, or itself
    when it is dark enough already."""
    lum = luminance(rgb)
    if lum <= MAX_LUMINANCE:
        return rgb
    scale = MAX_LUMINANCE / lum
    return tuple(encoded(linear(c) * scale) for c in rgb)


def legible(svg: str) -> str:
    """The SVG with every stroke colour below 3:1 against white darkened (`darkened`)."""
    def replace(m):
        rgb = tuple(float(v) / 100 for v in m.group(2, 3, 4))
        new = darkened(rgb)
        if new is rgb:
            return m.group(0)
        return m.group(1) + "rgb(" + ",".join(f"{100 * c:.6f}%" for c in new) + ")"
    return STROKE.sub(replace, svg)
