"""A demo's published script and its notebook.

The published script is the demo with the numeric-platform preamble inserted
after its docstring.  The notebook is built from the published script: a title
cell, the set-up code, then for each `[B-...]` block a markdown cell naming it
and a code cell.  Cell ids come from the block names, never from chance.
"""
import ast

from glossary import demo, numeric


def publish_script(source, numeric_env):
    """The demo with the pinning lines after its docstring, before numpy is imported."""
    tree = ast.parse(source)
    first = tree.body[0] if tree.body else None
    has_doc = isinstance(first, ast.Expr) and isinstance(getattr(first, "value", None), ast.Constant) \
        and isinstance(first.value.value, str)
    lines = source.splitlines(keepends=True)
    cut = first.end_lineno if has_doc else 0
    return "".join(lines[:cut]) + "\n" + numeric.preamble(numeric_env) + "".join(lines[cut:])


def build(script, title, summary, slug, plain=False):
    """The notebook of a demo script: `summary` none for a term without one of its own; `plain`: the
    authors' own script (a plain demo), which prints what it prints, not one line per check."""
    import nbformat  # here: 66 ms publish_script (rule publish_demo) does without
    from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook
    head, blocks = demo.blocks(script)
    intro = f"# {title}: Python demo\n\n" + (f"{summary}\n\n" if summary else "")
    if plain:
        intro += (f"The script the dictionary's authors wrote for the glossary entry [{title}]({slug}.html), "
                  f"as the site publishes it: [`{slug}.py`]({slug}.py); run the cells from top to bottom.")
    else:
        intro += (f"The numerical companion of the glossary entry [{title}]({slug}.html): it recomputes "
                  "what the entry states and prints one line per check. Generated from "
                  f"[`{slug}.py`]({slug}.py); run the cells from top to bottom.")
    cells = [new_markdown_cell(intro, id="title"), new_code_cell(head, id="setup")]
    for name, text, code in blocks:
        key = name.lower()
        cells.append(new_markdown_cell(f"**[{name}]** {text}", id=f"{key}-text"))
        cells.append(new_code_cell(code, id=key))
    nb = new_notebook(cells=cells, metadata={
        "kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},
        "language_info": {"name": "python"},
        "colab": {"name": f"{slug}.ipynb"},
    })
    nbformat.validate(nb)
    return nb


def dumps(nb):
    import nbformat  # see build
    return nbformat.writes(nb, version=4)
