"""Where the shared specification and real event data live: ``../shared`` beside the repo."""

from pathlib import Path

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
DATA = SHARED / "data"
