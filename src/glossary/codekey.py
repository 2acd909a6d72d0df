"""The meaning of a demo's code: a key that comments, docstrings and layout do not change.

The training rules are keyed on it (a Snakemake param) instead of on the demo
file's bytes, so a reworded comment republishes the script and the notebook
but retrains nothing, while any change to what the code does retrains.
"""
import ast
import hashlib
import sys
from pathlib import Path

DOCUMENTED = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)


def without_docstrings(tree):
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(node, DOCUMENTED) and body and isinstance(body[0], ast.Expr) \
                and isinstance(body[0].value, ast.Constant) and isinstance(body[0].value.value, str):
            node.body = body[1:] or [ast.Pass()]
    return tree


def code_key(source):
    """sha256 of the source's syntax tree, docstrings removed (positions, comments and blank lines never enter it)."""
    tree = without_docstrings(ast.parse(source))
    # The dump's layout can differ between Python versions: the version is part of the key.
    dump = f"{sys.version_info[:2]}\n" + ast.dump(tree, include_attributes=False)
    return hashlib.sha256(dump.encode()).hexdigest()


def file_key(path):
    return code_key(Path(path).read_text(encoding="utf-8"))
