"""`python -m app.cli COMMAND`: the headless commands alone (no terminal UI)."""

import sys

from app.cli import main

sys.exit(main())
