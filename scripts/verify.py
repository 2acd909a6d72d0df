"""`make verify` / `make manifest`: see src/glossary/verify.py.

    scripts/verify.py                  rebuild in a temporary folder, compare with site.manifest.json
    scripts/verify.py --update         rewrite site.manifest.json from site/ (after `make site`)
    scripts/verify.py --help           the options (another checkout, manifest or site)
"""
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from glossary import verify  # noqa: E402

if __name__ == "__main__":
    sys.exit(verify.main(repo_default=REPO))
