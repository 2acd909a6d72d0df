"""`make verify` and `make manifest`: the manifest, the comparison, and one real clean rebuild."""
import json
import subprocess

import pytest
from conftest import BIN, REPO

from glossary import jsonio, verify

LOSS = "iter,loss\n1,4.584554\n20,3.145811\n40,1.583525\n60,0.658661\n"


@pytest.fixture
def site(tmp_path):
    """A small published site: a page, a PNG-like binary and a CSV under terms/."""
    root = tmp_path / "site"
    (root / "terms/attention/data").mkdir(parents=True)
    (root / "index.html").write_text("<h1>Terms</h1>\n")
    (root / "terms/attention/attention.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x01")
    (root / "terms/attention/data/attention_loss.csv").write_text(LOSS)
    return root


def lines(report):
    return "\n".join(report.lines())


def test_identical_site_is_ok(site):
    report = verify.compare(verify.manifest_of(site), site)
    assert report.ok
    assert report.lines() == [f"verify: OK: all 3 files of the fresh site match {verify.MANIFEST}"]


def test_changed_csv_cell_names_file_row_and_largest_difference(site):
    manifest = verify.manifest_of(site)
    csv = site / "terms/attention/data/attention_loss.csv"
    csv.write_text(LOSS.replace("1.583525", "1.583526").replace("0.658661", "0.558661"))
    report = verify.compare(manifest, site)
    assert not report.ok and list(report.changed) == ["terms/attention/data/attention_loss.csv"]
    text = lines(report)
    assert "changed: terms/attention/data/attention_loss.csv" in text
    assert "first differing row: line 4 (iter=40): expected '40,1.583525', got '40,1.583526'" in text
    assert "largest absolute difference: 0.1 in column loss, line 5 (expected 0.658661, got 0.558661)" in text
    assert "rows differing: 2 of 4" in text
    assert "1 changed, 0 missing, 0 extra" in text


def test_csv_with_other_row_count(site):
    manifest = verify.manifest_of(site)
    (site / "terms/attention/data/attention_loss.csv").write_text(LOSS + "80,0.395986\n")
    text = lines(verify.compare(manifest, site))
    assert "6 rows instead of 5" in text and "first differing row: line 6" in text


def test_changed_binary_names_file_and_hashes(site):
    manifest = verify.manifest_of(site)
    (site / "terms/attention/attention.png").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x02\x03")
    text = lines(verify.compare(manifest, site))
    assert "changed: terms/attention/attention.png" in text and "11 bytes, expected 10" in text


def test_changed_build_info_shows_the_changed_lines(site):
    (site / "build-info.json").write_text('{\n "packages": {\n  "numpy": "2.4.6"\n }\n}\n')
    manifest = verify.manifest_of(site)
    (site / "build-info.json").write_text('{\n "packages": {\n  "numpy": "2.4.7"\n }\n}\n')
    text = lines(verify.compare(manifest, site))
    assert '- "numpy": "2.4.6"' in text and '+ "numpy": "2.4.7"' in text


def test_missing_and_extra_files(site):
    manifest = verify.manifest_of(site)
    (site / "index.html").unlink()
    (site / "terms/attention/stray.txt").write_text("?")
    report = verify.compare(manifest, site)
    assert report.missing == ["index.html"] and report.extra == ["terms/attention/stray.txt"]
    text = lines(report)
    assert "missing: index.html" in text and "extra: terms/attention/stray.txt" in text
    assert "0 changed, 1 missing, 1 extra" in text


def test_snakemake_markers_are_not_part_of_the_site(site):
    manifest = verify.manifest_of(site)
    (site / "terms/attention/data/.snakemake_timestamp").write_text("")
    assert verify.compare(manifest, site).ok


def test_manifest_is_deterministic_and_carries_the_csv(site, tmp_path):
    manifest = verify.manifest_of(site)
    path = tmp_path / "m.json"
    verify.write_manifest(path, manifest)
    text = path.read_text()
    assert text == jsonio.dumps(json.loads(text)) and text.endswith("}\n")
    assert str(tmp_path) not in text
    entry = manifest["files"]["terms/attention/data/attention_loss.csv"]
    assert entry["csv"] == LOSS.splitlines() and len(entry["sha256"]) == 64
    assert "csv" not in manifest["files"]["index.html"]
    assert verify.read_manifest(path) == manifest


def test_cli_update_then_compare_a_given_site(site, tmp_path):
    """--update writes the manifest; --site compares without rebuilding; a difference
    exits 1 and tells the platform and where the bytes are promised."""
    manifest = tmp_path / "m.json"
    script = [str(BIN / "python"), str(REPO / "scripts/verify.py"), "--manifest", str(manifest)]
    run = subprocess.run(script + ["--update", "--site", str(site)], capture_output=True, text=True)
    assert run.returncode == 0 and manifest.is_file(), run.stderr
    first = manifest.read_bytes()
    subprocess.run(script + ["--update", "--site", str(site)], check=True, capture_output=True)
    assert manifest.read_bytes() == first
    run = subprocess.run(script + ["--site", str(site)], capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout.startswith("verify: OK"), run.stderr
    (site / "terms/attention/data/attention_loss.csv").write_text(LOSS.replace("3.145811", "3.145812"))
    run = subprocess.run(script + ["--site", str(site)], capture_output=True, text=True)
    assert run.returncode == 1
    assert "first differing row: line 3 (iter=20)" in run.stderr
    assert "platform: " in run.stderr and "numpy 2.4" in run.stderr and "OpenBLAS" in run.stderr
    assert "x86-64 Linux" in run.stderr and "requirements.lock" in run.stderr


def test_missing_manifest_says_how_to_make_one(tmp_path):
    run = subprocess.run([str(BIN / "python"), str(REPO / "scripts/verify.py"), "--manifest",
                          str(tmp_path / "none.json")], capture_output=True, text=True)
    assert run.returncode == 2 and "make manifest" in run.stderr


@pytest.mark.slow
def test_verify_rebuilds_and_matches_the_built_site(built, tmp_path):
    """One real `scripts/verify.py`: a clean rebuild, in a temporary folder, of the
    sources the session's build was made from matches a manifest of that build's site/.
    (--repo names that build's folder: its sources are a snapshot, which the checkout,
    edited meanwhile, may no longer be; verify leaves out what .gitignore ignores.)"""
    root, _ = built
    manifest = tmp_path / "site.manifest.json"
    verify.write_manifest(manifest, verify.manifest_of(root / "site"))
    run = subprocess.run([str(BIN / "python"), str(REPO / "scripts/verify.py"), "--repo", str(root),
                          "--manifest", str(manifest)], capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-3000:] + run.stderr[-5000:]
    assert run.stdout.strip().splitlines()[-1].startswith("verify: OK: all ")


def test_sources_of_a_plain_folder_follow_its_gitignore(tmp_path):
    (tmp_path / ".gitignore").write_text("/results/\n__pycache__/\n")
    for name in ("Snakefile", "results/x", "src/glossary/__pycache__/y.pyc", "src/glossary/a.py"):
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text("")
    assert sorted(verify.source_files(tmp_path)) == [".gitignore", "Snakefile", "src/glossary/a.py"]
    assert not (tmp_path / ".git").exists()


def run_verify(*args):
    return subprocess.run([str(BIN / "python"), str(REPO / "scripts/verify.py"), *args], capture_output=True,
                          text=True)


def test_markdown_format_tables_the_files_that_differ(site, tmp_path):
    """--format markdown (the CI job summary): a heading, one table row per file that differs (a CSV's
    first differing row and largest difference in its cell), the platform; all on standard output."""
    manifest = tmp_path / "m.json"
    verify.write_manifest(manifest, verify.manifest_of(site))
    run = run_verify("--manifest", str(manifest), "--site", str(site), "--format", "markdown")
    assert run.returncode == 0 and run.stdout == "## make verify: OK\n\nAll 3 files of the fresh site match " \
        f"`{manifest}`.\n", run.stderr
    (site / "terms/attention/data/attention_loss.csv").write_text(LOSS.replace("0.658661", "0.558661"))
    (site / "index.html").unlink()
    (site / "extra|file.txt").write_text("?")
    run = run_verify("--manifest", str(manifest), "--site", str(site), "--format", "markdown")
    assert run.returncode == 1
    out = run.stdout.splitlines()
    assert out[0] == "## make verify: FAILED"
    assert "| file | status | difference |" in out and "| --- | --- | --- |" in out
    row = next(line for line in out if line.startswith("| `terms/attention/data/attention_loss.csv` | changed | "))
    assert "first differing row: line 5 (iter=60): expected '60,0.658661', got '60,0.558661'<br>" in row
    assert "largest absolute difference: 0.1 in column loss, line 5" in row and row.endswith(" |")
    assert row.count(" | ") == 2, "the cell holds no column separator"
    assert f"| `index.html` | missing | in `{manifest}`, not in the fresh site |" in out
    assert any(line.startswith("| `extra\\|file.txt` | extra |") for line in out)
    assert "<details><summary>The platform it ran on</summary>" in out
    assert any(line.startswith("- platform: Linux") for line in out)


def test_json_format_says_which_files_moved(site, tmp_path):
    manifest = tmp_path / "m.json"
    verify.write_manifest(manifest, verify.manifest_of(site))
    run = run_verify("--manifest", str(manifest), "--site", str(site), "--format", "json")
    assert run.returncode == 0, run.stderr
    assert json.loads(run.stdout) == {"status": "ok", "manifest": str(manifest), "checked": 3, "changed": {},
                                      "missing": [], "extra": []}
    assert run.stdout == jsonio.dumps(json.loads(run.stdout))
    (site / "terms/attention/data/attention_loss.csv").write_text(LOSS.replace("3.145811", "3.145812"))
    (site / "terms/attention/stray.txt").write_text("?")
    run = run_verify("--manifest", str(manifest), "--site", str(site), "--format", "json")
    assert run.returncode == 1
    report = json.loads(run.stdout)
    assert report["status"] == "differs" and report["missing"] == []
    assert report["extra"] == ["terms/attention/stray.txt"]
    assert list(report["changed"]) == ["terms/attention/data/attention_loss.csv"]
    assert report["changed"]["terms/attention/data/attention_loss.csv"][0].startswith("first differing row: line 3")
    assert any(line.startswith("platform: ") for line in report["platform"])


def test_makefile_passes_the_format(tmp_path):
    """`make verify FORMAT=json` reaches scripts/verify.py (dry run of the Makefile)."""
    run = subprocess.run(["make", "-n", "-o", "setup", "verify", "FORMAT=json"], cwd=REPO, capture_output=True,
                         text=True)
    assert run.returncode == 0 and "scripts/verify.py --format json" in run.stdout, run.stderr
