"""`python -m app.bench COMMAND`: the same as `repolens-tui-bench COMMAND`."""

import sys

from app.bench.cli import main

sys.exit(main())
