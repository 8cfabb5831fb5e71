"""``python -m kgcite.cli``: the same as the ``kgcite`` command."""

import sys

from kgcite.cli.main import main

sys.exit(main())
