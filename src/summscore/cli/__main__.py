"""``python -m summscore.cli``: the ``summscore`` command."""

import sys

from . import main

sys.exit(main())
