"""Each rule's library inputs are derived from its script's imports (src/glossary/imports.py),
so editing any module a job imports, directly or through another module, reruns that job."""
import hashlib
import json
import re
import subprocess

import pytest
from conftest import BIN, REPO, snakemake
from test_build_lock import make_site, skeleton_repo

from glossary import imports

RULE = re.compile(r"^rule (\w+):\n(.*?)(?=^rule |\Z)", re.M | re.S)


def rules_with_scripts():
    for smk in sorted((REPO / "workflow/rules").glob("*.smk")):
        for name, body in RULE.findall(smk.read_text()):
            script = re.search(r'script:\s*\n\s*"\.\./\.\./scripts/(\w+)\.py"', body)
            if script:
                yield smk.name, name, script.group(1), body


def test_every_script_rule_takes_its_scripts_imports_as_inputs():
    found = list(rules_with_scripts())
    assert len(found) > 10
    for smk, rule, script, body in found:
        assert f'lib=lib("{script}")' in body, f"{smk}: rule {rule} runs scripts/{script}.py without lib(\"{script}\")"


def test_lazy_and_indirect_imports_are_found(tmp_path):
    src = tmp_path / "src/glossary"
    src.mkdir(parents=True)
    (src / "__init__.py").write_text("")
    (src / "a.py").write_text("from glossary import b\n")
    (src / "b.py").write_text("def f():\n    from glossary.c import g\n    return g\n")
    (src / "c.py").write_text("import os\ng = 1\n")
    (src / "unused.py").write_text("")
    script = tmp_path / "s.py"
    script.write_text("import sys\nfrom glossary import a\n")
    assert imports.closure(str(script), str(tmp_path / "src")) == \
        [f"{src.as_posix()}/{m}.py" for m in ("__init__", "a", "b", "c")]


def test_a_kept_files_imports_are_not_parsed_again_until_its_bytes_change(tmp_path, monkeypatch):
    """keep_in, as the workflow's parse uses it: what each module imports is kept by its bytes; a
    later process parses only what changed, and finds the same closure; the file keeps the modules'
    present bytes only, so it does not grow with every edit."""
    src = tmp_path / "src/glossary"
    src.mkdir(parents=True)
    (src / "__init__.py").write_text("")
    (src / "a.py").write_text("from glossary import b\n")
    (src / "b.py").write_text("import os\n")
    script = tmp_path / "s.py"
    script.write_text("from glossary import a\n")
    kept = tmp_path / "results/cache/imports.json"

    def fresh_process():
        monkeypatch.setattr(imports, "_KEPT", {"path": None, "found": {}})
        for cached in (imports.imported, imports.closure, imports._module_file):
            cached.cache_clear()
        imports.keep_in(kept)

    fresh_process()
    first = imports.closure(str(script), str(tmp_path / "src"))
    assert [p.rsplit("/", 1)[1] for p in first] == ["__init__.py", "a.py", "b.py"] and kept.is_file()
    parsed = []
    parse = imports.ast.parse

    def counted(*args, **kwargs):
        parsed.append(kwargs.get("filename"))
        return parse(*args, **kwargs)

    monkeypatch.setattr(imports.ast, "parse", counted)
    fresh_process()
    assert imports.closure(str(script), str(tmp_path / "src")) == first and parsed == []
    (src / "b.py").write_text("from glossary import c\n")
    (src / "c.py").write_text("C = 1\n")     # not empty: the bytes of __init__.py are kept already
    fresh_process()
    assert imports.closure(str(script), str(tmp_path / "src")) == first + [f"{src.as_posix()}/c.py"]
    assert sorted(parsed) == [str(src / "b.py"), str(src / "c.py")]
    present = [script, *(src / f"{m}.py" for m in ("__init__", "a", "b", "c"))]
    assert sorted(json.loads(kept.read_text())["found"]) == \
        sorted(hashlib.sha256(p.read_bytes()).hexdigest() for p in present)


@pytest.mark.slow
def test_editing_a_module_imported_only_indirectly_reruns_the_rule(tmp_path):
    """scripts/publish_demo.py imports glossary.notebook, which imports glossary.numeric: a change
    to numeric.py reruns publish_demo (whose other input, the demo, did not change), and leaves
    the rules that import nothing of it alone."""
    root = skeleton_repo(tmp_path / "repo")
    imported = imports.imported(root / "scripts/publish_demo.py")
    assert "glossary.numeric" not in imported and "glossary.notebook" in imported
    run = make_site(root)
    assert run.returncode == 0, run.stderr
    module = root / "src/glossary/numeric.py"
    module.write_text(module.read_text() + "\n# an edit that changes no behaviour\n")
    _, ran = snakemake(root, "--dry-run")
    assert "publish_demo" in ran, ran
    assert "favicon" not in ran and "stylesheet" not in ran, ran
    run = subprocess.run([str(BIN / "python"), "-c", "from glossary import imports; "
                          "print(imports.closure('scripts/publish_demo.py'))"], cwd=root, capture_output=True,
                         text=True, env={"PYTHONPATH": str(root / "src")})
    assert "src/glossary/numeric.py" in run.stdout
