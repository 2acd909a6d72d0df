"""Each rule's library inputs are derived from its script's imports (src/glossary/imports.py),
so editing any module a job imports, directly or through another module, reruns that job."""
import ast
import re
import subprocess

import pytest
from conftest import BIN, REPO, snakemake
from test_build_lock import built_skeleton, make_site

from glossary import imports

RULE = re.compile(r"^rule (\w+):\n(.*?)(?=^rule |\Z)", re.M | re.S)


def rules_with_scripts():
    """Each rule that runs a script: in a process of its own (`script:`) or in Snakemake's (`run:`,
    glossary.inprocess)."""
    for smk in sorted((REPO / "workflow/rules").glob("*.smk")):
        for name, body in RULE.findall(smk.read_text()):
            script = re.search(r'script:\s*\n\s*"\.\./\.\./scripts/(\w+)\.py"|in_process\("(\w+)"', body)
            if script:
                yield smk.name, name, script.group(1) or script.group(2), body


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


def test_every_import_form_is_found(tmp_path):
    """Parenthesized lists over lines, backslashed line ends, `as` names, comments, relative imports."""
    module = tmp_path / "m.py"
    module.write_text("import glossary.a as x, glossary.b\n"
                      "from glossary import (c,  # a comment\n    d as e,\n)\n"
                      "from glossary.f import \\\n    g, h\n"
                      "if True:\n    import glossary.i  # lazy\n"
                      "from . import j\n"
                      "important = 1\nfrom_ = 2\n")
    found = {n for n in imports.imported(str(module)) if n.startswith("glossary")}
    assert found == {"glossary.a", "glossary.b", "glossary", "glossary.c", "glossary.d", "glossary.f",
                     "glossary.f.g", "glossary.f.h", "glossary.i"}


def parsed_imports(path):
    """What Python's own parser finds imported in a file: the oracle of the scan."""
    names = set()
    for node in ast.walk(ast.parse(path.read_bytes(), filename=str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
    return names


def test_the_scan_finds_what_pythons_parser_finds_in_every_module_and_script():
    """The scan (glossary.imports) reads lines, not syntax: over the package and the scripts, it finds
    every module of the package that the parser finds imported, and none besides."""
    files = sorted((REPO / "src").rglob("*.py")) + sorted((REPO / "scripts").glob("*.py"))
    assert len(files) > 100
    differ = {}
    for path in files:
        ours = {n for n in imports.imported(str(path)) if n.split(".")[0] == imports.PACKAGE}
        theirs = {n for n in parsed_imports(path) if n.split(".")[0] == imports.PACKAGE}
        if ours != theirs:
            differ[str(path.relative_to(REPO))] = {"scan only": sorted(ours - theirs),
                                                   "parser only": sorted(theirs - ours)}
    assert not differ, differ


@pytest.mark.slow
def test_editing_a_module_imported_only_indirectly_reruns_the_rule(tmp_path, tmp_path_factory):
    """scripts/publish_demo.py imports glossary.notebook, which imports glossary.numeric: a change
    to numeric.py reruns publish_demo (whose other input, the demo, did not change), and leaves
    the rules that import nothing of it alone.  An edit of a script that runs in Snakemake's process
    (glossary.inprocess), which Snakemake does not track as it tracks a `script:`, reruns its rule."""
    root = built_skeleton(tmp_path_factory, tmp_path / "repo")
    imported = imports.imported(root / "scripts/publish_demo.py")
    assert "glossary.numeric" not in imported and "glossary.notebook" in imported
    run = make_site(root)           # the copy is up to date where it lies now
    assert run.returncode == 0, run.stderr
    module = root / "src/glossary/numeric.py"
    module.write_text(module.read_text() + "\n# an edit that changes no behaviour\n")
    _, ran = snakemake(root, "--dry-run")
    assert "publish_demo" in ran, ran
    assert "favicon" not in ran and "stylesheet" not in ran, ran
    assert "in_process(\"favicon\"" in (root / "workflow/rules/pages.smk").read_text()
    script = root / "scripts/favicon.py"
    script.write_text(script.read_text() + "\n# an edit of the script alone\n")
    _, ran = snakemake(root, "--dry-run")
    assert "favicon" in ran and "stylesheet" not in ran, ran
    run = subprocess.run([str(BIN / "python"), "-c", "from glossary import imports; "
                          "print(imports.closure('scripts/publish_demo.py'))"], cwd=root, capture_output=True,
                         text=True, env={"PYTHONPATH": str(root / "src")})
    assert "src/glossary/numeric.py" in run.stdout
