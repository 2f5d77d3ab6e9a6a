"""Speed of both rules engines on one core, through the public contract only.

Prints figures (issue goals: Triggs ≥ 400 complete 4-player greedy games/s;
TriumfDrez ≥ 3,000 hands/s and the full bid list in < 0.5 ms). Not a test:
the machine is shared, so read the figures, don't assert on them.

Run from the repository root: `python bench/engines.py` (or `make bench`).
"""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import engines_triggs, engines_triumfdrez  # noqa: E402


def main() -> None:
    engines_triggs.main()
    engines_triumfdrez.main()


if __name__ == "__main__":
    main()
