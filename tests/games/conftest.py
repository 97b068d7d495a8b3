"""The built-in games' own tests (tests/games/<game>/) use the unit suite's shared checks and
helpers (html_checks, shared_checks, reducer_machine in tests/unit/): put them on the path."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "unit"))
