"""The site's icon: a small attention map (a 4x4 grid of weights), as SVG for browsers that take
one and as a 32x32 ICO for the requests that ask for /favicon.ico by name."""
import io

from PIL import Image, ImageDraw

# Cell shades, darkest where a query attends most (rows: queries, columns: keys).
CELLS = [
    [0.15, 0.95, 0.30, 0.10],
    [0.80, 0.15, 0.20, 0.45],
    [0.20, 0.35, 0.15, 0.90],
    [0.10, 0.55, 0.85, 0.15],
]
LIGHT, DARK = (232, 240, 250), (31, 95, 168)     # the stylesheet's --accent-bg and --accent


def shade(weight):
    return tuple(round(a + (b - a) * weight) for a, b in zip(LIGHT, DARK))


def svg():
    cells = "".join(
        f'<rect x="{1 + 7.5 * j}" y="{1 + 7.5 * i}" width="7" height="7" rx="1" fill="#{"%02x%02x%02x" % shade(w)}"/>'
        for i, row in enumerate(CELLS) for j, w in enumerate(row))
    return f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">{cells}</svg>\n'


def ico():
    image = Image.new("RGBA", (32, 32), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    for i, row in enumerate(CELLS):
        for j, w in enumerate(row):
            x, y = 1 + round(7.5 * j), 1 + round(7.5 * i)
            draw.rectangle([x, y, x + 6, y + 6], fill=shade(w) + (255,))
    out = io.BytesIO()
    image.save(out, format="ICO", sizes=[(32, 32)])
    return out.getvalue()
