"""HTML pages: an entry's prose (Markdown, $...$ math as MathML) and the site's templates.

Prose is Markdown, not HTML: raw HTML in an entry is shown as text.  Numbers the
prose quotes from the computation are Jinja expressions over the run's facts
(`{{ final_loss }}`), filled in at build time, never typed.
"""
import posixpath

import jinja2
import jinja2.sandbox
from latex2mathml.converter import convert as latex_to_mathml
from markdown_it import MarkdownIt
from mdit_py_plugins.dollarmath import dollarmath_plugin

from glossary.entries import EntryError


def _math(latex, display):
    return latex_to_mathml(latex, display="block" if display else "inline")


def markdown():
    md = MarkdownIt("commonmark", {"html": False, "typographer": False}).enable("table")
    md.use(dollarmath_plugin, allow_space=True, double_inline=False,
           renderer=lambda content, opts: _math(content, opts.get("display_mode", False)))
    return md


def prose(body, facts, path):
    """The entry's Markdown, its {{ facts }} filled in, as HTML."""
    env = jinja2.sandbox.SandboxedEnvironment(undefined=jinja2.StrictUndefined, autoescape=False)
    try:
        text = env.from_string(body).render(**facts)
    except jinja2.TemplateSyntaxError as err:
        raise EntryError(f"{path}: body line {err.lineno + body_offset(path)}: {err.message}; "
                         "fix the {{ ... }} expression") from None
    except jinja2.UndefinedError as err:
        raise EntryError(f"{path}: body: {err.message}; quote one of the run's facts: "
                         f"{', '.join(sorted(facts))}") from None
    return markdown().render(text)


def body_offset(path):
    """Lines of front matter before the body, so errors point at the file's line."""
    with open(path, encoding="utf-8") as f:
        lines = f.read().split("\n")
    return lines.index("---", 1) + 1 if lines and lines[0] == "---" else 0


def environment(template_dir):
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(template_dir),
                             autoescape=True, undefined=jinja2.StrictUndefined,
                             trim_blocks=True, lstrip_blocks=True, keep_trailing_newline=True)
    env.filters["relpath"] = lambda target, start: posixpath.relpath(target, posixpath.dirname(start) or ".")
    return env
