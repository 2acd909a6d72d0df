"""Each term's words against the same entry of the authors' book: see src/glossary/fidelity.py.

    scripts/fidelity.py --site DIR --book PDF           minimum, median and the ten lowest terms
    scripts/fidelity.py --site DIR --book PDF --json    every term's figure
"""
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "src"))

from glossary import fidelity  # noqa: E402

if __name__ == "__main__":
    sys.exit(fidelity.main())
