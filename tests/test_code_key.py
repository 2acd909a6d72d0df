"""Training is keyed on what the demo's code means: comments, docstrings and blank
lines retrain nothing; a changed constant retrains."""

import pytest
from conftest import REPO, copy_built, snakemake

from glossary.codekey import code_key

DEMO = (REPO / "entries/attention/attention.py").read_text()
COMPUTE = {"compute"}
LR = "lr = 0.9, 0.999, 1e-8, 0.02"


def cosmetic(source):
    """A comment reworded, a docstring rewritten, blank lines added: nothing the code does."""
    edited = source
    for old, new in (("# Runs of letters only:", "# Only runs of letters:"),
                     ('"""Loss of one sentence', '"""The loss of one sentence, summed'),
                     ("\n\n# %% [B-train]", "\n\n\n\n# %% [B-train]"),
                     ("attention.py: one self-attention head", "attention.py: a self-attention head")):
        assert old in edited, old
        edited = edited.replace(old, new)
    return edited


def test_comment_docstring_and_blank_line_edits_keep_the_key():
    edited = cosmetic(DEMO)
    assert edited != DEMO
    assert code_key(edited) == code_key(DEMO)
    assert code_key("x = 1  # one\n") == code_key("\n\nx = 1\n")
    assert code_key('def f():\n    "doc"\n    return 1\n') == code_key("def f():\n    return 1\n")
    assert code_key('def f():\n    "doc"\n') == code_key("def f():\n    pass\n")


def test_code_changes_change_the_key():
    assert code_key(DEMO.replace(LR, LR.replace("0.02", "0.021"))) != code_key(DEMO)
    assert code_key(DEMO.replace("EPOCHS = 4000", "EPOCHS = 4001")) != code_key(DEMO)
    assert code_key("x = 'a'\n") != code_key("x = 'b'\n")        # a string that is no docstring counts
    assert code_key("def f():\n    x = 1\n    'note'\n") != code_key("def f():\n    x = 1\n")


@pytest.mark.slow
def test_comment_edit_retrains_nothing_and_republishes_the_script(built, tmp_path):
    root, _ = built
    work = copy_built(root, tmp_path / "comment")
    demo = work / "entries/attention/attention.py"
    demo.write_text(cosmetic(demo.read_text()))
    _, ran = snakemake(work)
    assert not set(ran) & COMPUTE, ran
    assert {"publish_demo", "notebook"} <= set(ran), ran
    assert "# Only runs of letters:" in (work / "results/site/terms/attention.py").read_text()
    assert "# Only runs of letters:" in (work / "results/site/terms/attention.ipynb").read_text()
    assert "The loss of one sentence, summed" in (work / "results/site/terms/attention.py").read_text()

    demo.write_text(demo.read_text().replace(LR, LR.replace("0.02", "0.021")))
    _, jobs = snakemake(work, "--dry-run")
    assert COMPUTE <= set(jobs), jobs
