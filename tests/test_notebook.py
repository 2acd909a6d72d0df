"""The published notebook: valid nbformat, derived cell ids, and it reruns the page's numbers."""
import nbformat
import pytest
from conftest import pinned_environ
from nbclient import NotebookClient


def test_notebook_is_valid_with_derived_ids(built):
    root, _ = built
    nb = nbformat.read(root / "site/terms/attention.ipynb", as_version=4)
    nbformat.validate(nb)
    ids = [c["id"] for c in nb.cells]
    assert ids[:2] == ["title", "setup"]
    blocks = [c["id"] for c in nb.cells if c["cell_type"] == "code"][1:]
    assert blocks == ["b-corpus", "b-tokens", "b-model", "b-forward", "b-train", "b-display",
                      "b-csv", "b-preview"]
    assert "OPENBLAS_CORETYPE" in nb.cells[1]["source"]
    assert nb.cells[1]["source"].index("PINNED") < nb.cells[1]["source"].index("import numpy")


@pytest.mark.slow
def test_notebook_runs_in_a_fresh_kernel_and_writes_the_same_csvs(built, tmp_path, monkeypatch):
    root, _ = built
    nb = nbformat.read(root / "site/terms/attention.ipynb", as_version=4)
    for name, value in pinned_environ().items():
        monkeypatch.setenv(name, value)          # the kernel starts with the pinned platform
    NotebookClient(nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(tmp_path)}}).execute()
    printed = "".join(o.get("text", "") for c in nb.cells if c["cell_type"] == "code" for o in c.get("outputs", []))
    assert "[B-train] initial loss = 4.5846" in printed
    assert "note: restart the kernel" not in printed
    for name in ("attention_loss.csv", "attention_weights.csv"):
        assert (tmp_path / name).read_bytes() == (root / "site/terms/attention/data" / name).read_bytes(), name
