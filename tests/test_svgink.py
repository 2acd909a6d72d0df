"""Pale strokes darkened for the site's SVGs (glossary.svgink): 3:1 against white and against the dark
scheme's panel, the hue kept; dark strokes, fills and anything else left as pdftocairo wrote them."""
import re

from glossary import auditpage, svgink

SVG = ('<path style="fill:none;stroke-width:0.4;stroke:rgb(0%,100%,0%);" d="M 0 0 L 1 1"/>'
       '<path style="fill:rgb(100%,100%,0%);stroke:none;" d="M 0 0 L 1 1 L 0 1 Z"/>'
       '<path fill="none" stroke="rgb(100%,100%,0%)" d="M 0 0 L 1 0"/>'
       '<path style="stroke:rgb(0%,0%,0%);" d="M 0 0"/>'
       '<path style="stroke:rgb(0%,0%,100%);" d="M 0 0"/>')
PANELS = ((255, 255, 255), (0xfd, 0xfd, 0xfb))


def strokes(svg):
    return [tuple(float(v) * 2.55 for v in m) for m in
            re.findall(r"stroke[:=]\"?rgb\(([\d.]+)%,([\d.]+)%,([\d.]+)%\)", svg)]


def test_pale_strokes_reach_3_to_1_and_keep_their_hue():
    before, after = strokes(SVG), strokes(svgink.legible(SVG))
    assert [min(auditpage.contrast(c, p) for p in PANELS) < 3 for c in before] == [True, True, False, False]
    assert all(auditpage.contrast(c, p) >= 3 for c in after for p in PANELS), after
    green, yellow = after[:2]
    assert green[0] == green[2] == 0 and green[1] > 0               # still green
    assert abs(yellow[0] - yellow[1]) < 1e-6 and yellow[2] == 0      # still yellow
    assert after[2:] == before[2:]                                   # black and blue as they were


def test_fills_and_dark_strokes_are_left_byte_for_byte():
    out = svgink.legible(SVG)
    assert "fill:rgb(100%,100%,0%)" in out
    assert out.count("rgb(0%,0%,0%)") == 1 and "stroke:rgb(0%,0%,100%)" in out
    dark = '<path style="stroke:rgb(10%,20%,30%);"/>'
    assert svgink.legible(dark) == dark
